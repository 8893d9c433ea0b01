// One source: its state and extraction report, the passages matching a search (opened at the hit's
// page), its whole text chunk by chunk (at the pinned revision when there is one), its history, and
// delete or purge.
import * as api from './api.js';
import {facts, h, num, replace, shownId, time} from './dom.js';
import {typedConfirmation} from './common.js';
import {entryItem, sourceHistory} from './history.js';
import {hitItem, metadataPills, pageLabel} from './hits.js';
import {errorBlock} from './words.js';

export async function sourceView(main, ctx) {
  const p = ctx.params;
  const corpus = p.get('corpus');
  const source = p.get('source');
  if (!corpus || !source) {
    ctx.go('sources', {corpus});
    return;
  }
  const header = h('div', {},
    h('p', {class: 'muted'}, h('a', {href: '#/sources?' + new URLSearchParams({corpus})}, `Sources of ${corpus}`)),
    h('h1', {class: 'mono', id: 'source-title'}, shownId(source)));
  const stateBox = h('section', {id: 'source-state'});
  const actions = h('section', {id: 'source-actions'});
  const passages = h('section', {id: 'passages'});
  const text = h('section', {id: 'source-text'});
  const history = h('section', {id: 'source-history'});
  replace(main, header, stateBox, actions, passages, text, history);

  let state = null;
  try {
    state = await api.call('sources/read', {corpus, source});
  } catch (err) {
    if (err.code !== 'SOURCE_NOT_FOUND') throw err;
    replace(stateBox, h('p', {class: 'banner info', id: 'source-absent'},
      'This source does not exist at the latest revision. Its history below shows what happened to it.'));
  }
  if (!ctx.current()) return;
  if (state) {
    replace(stateBox, stateCard(state));
    if (ctx.grants.can(corpus, 'index')) replace(actions, actionButtons(ctx, corpus, source, actions));
  }
  const q = p.get('q');
  if (q && ctx.grants.can(corpus, 'search')) {
    await showPassages(ctx, passages, corpus, source, q, p.get('chunk'), p.get('revision'));
  }
  const revision = p.get('revision');
  if (state || revision) {
    await showText(ctx, text, corpus, source, revision, p.get('chunk'));
    if (!ctx.current()) return;
  }
  if (ctx.grants.can(corpus, 'index')) {
    const {entries, complete} = await sourceHistory(corpus, source);
    if (!ctx.current()) return;
    replace(history, h('h2', {}, 'History'),
      entries.length ? h('ol', {class: 'timeline', id: 'timeline'}, entries.map(e => entryItem(e, corpus)))
        : h('p', {class: 'muted'}, 'No history entries.'),
      complete ? null : h('p', {class: 'muted'}, 'Only the first entries of a long history are shown.'));
  }
}

function stateCard(s) {
  const warnings = s.warnings || [];
  return h('div', {class: 'card'},
    s.title ? h('h2', {id: 'source-heading'}, s.title) : null,
    facts([
      ['Media type', s.mediaType],
      ['Extractor', s.extractor],
      ['Pages', num(s.pages)],
      ['Characters', num(s.characters)],
      ['Language', s.language],
      ['Chunks', num(s.chunks)],
      ['Source revision', num(s.sourceRevision)],
      ['Corpus revision', num(s.revision)],
      ['Indexed', time(s.indexedAt)],
      ['Content SHA-256', h('span', {class: 'mono'}, s.contentSha256 || '')],
      ['Metadata', metadataPills(s.metadata)],
    ]),
    s.extractor ? h('h3', {}, 'Extraction report') : null,
    s.extractor
      ? (warnings.length
        ? h('ul', {id: 'warnings'}, warnings.map(w => h('li', {},
          h('code', {}, w.code), ' ', w.message, w.pages ? ` (pages ${w.pages.join(', ')})` : '')))
        : h('p', {class: 'muted'}, 'Extracted without warnings.'))
      : null);
}

function actionButtons(ctx, corpus, source, box) {
  const done = async (purge) => {
    try {
      const r = await api.call('sources/delete', {corpus, source, purge});
      ctx.flash(h('p', {class: 'banner ok'}, `${shownId(source)} ${purge ? 'purged' : 'deleted'} at revision ${r.revision}.`));
      ctx.go('source', {corpus, source});
    } catch (err) {
      replace(box, errorBlock(err));
    }
  };
  const reset = () => replace(box, actionButtons(ctx, corpus, source, box));
  return h('div', {class: 'row'},
    h('button', {type: 'button', id: 'delete-source', onclick: () => replace(box, h('div', {class: 'card confirm'},
      h('p', {}, `Delete ${shownId(source)}? Searches pinned to earlier revisions still see it.`),
      h('div', {class: 'row'},
        h('button', {type: 'button', class: 'danger', id: 'confirm-delete', onclick: () => done(false)}, 'Delete source'),
        h('button', {type: 'button', onclick: reset}, 'Cancel'))))}, 'Delete…'),
    h('button', {type: 'button', id: 'purge-source', onclick: () => replace(box, typedConfirmation(
      `Purge ${shownId(source)}? Every retained version of its content is erased from disk, and pinned searches no longer find it.`,
      shownId(source), 'Purge source', () => done(true), reset))}, 'Purge…'));
}

async function showPassages(ctx, box, corpus, source, query, chunk, revision) {
  const maxTopK = ctx.protocol.limits?.maxTopK || 100;
  const body = {corpus, query, sources: [source], topK: maxTopK, maxChunksPerSource: maxTopK};
  if (revision) body.revision = Number(revision);
  try {
    const answer = await api.call('search', body);
    if (!ctx.current()) return;
    const hits = [...answer.results].sort((a, b) => a.chunk - b.chunk);
    const opened = hits.find(r => String(r.chunk) === chunk);
    const items = hits.map(r => hitItem(r, null, r === opened));
    replace(box,
      h('h2', {}, `Passages matching “${query}”`),
      h('p', {class: 'muted'}, `At revision ${num(answer.revision)}${revision ? ' (pinned)' : ''}, in chunk order`,
        opened && opened.pages ? `; opened at ${pageLabel(opened.pages)}` : '', '.'),
      items.length ? h('ol', {class: 'hits'}, items) : h('p', {class: 'muted'}, 'No passage of this source matches.'));
    reveal(box.querySelector('.hit.opened'));
  } catch (err) {
    replace(box, errorBlock(err));
  }
}

/** Chunks asked per page of sources/chunks; more pages load on request. */
const TEXT_PAGE = 50;
/** How many pages are loaded at once to reach the chunk a hit opened. */
const MAX_PAGES_TO_OPENED = 20;

/**
 * The source's text as it was split, chunk by chunk with pages and offsets, at `revision` (pinned)
 * or the latest; the chunk `opened` (from a search hit) is marked and scrolled to.
 */
async function showText(ctx, box, corpus, source, revision, opened) {
  const list = h('ol', {class: 'chunks', id: 'chunks'});
  const more = h('div', {class: 'row'});
  const note = h('p', {class: 'muted', id: 'text-revision'}, 'Loading…');
  replace(box, h('h2', {}, 'Text'), note, list, more);
  let after = null;
  let answer = null;
  const load = async () => {
    const body = {corpus, source, limit: TEXT_PAGE};
    if (revision) body.revision = Number(revision);
    if (after !== null) body.after = after;
    answer = await api.call('sources/chunks', body);
    for (const c of answer.chunks) list.append(chunkItem(c, String(c.chunk) === opened));
    after = answer.nextAfter ?? null;
  };
  try {
    await load();
    for (let pages = 1; opened && after !== null && Number(opened) > after && pages < MAX_PAGES_TO_OPENED; pages++) {
      await load();
    }
    if (!ctx.current()) return;
    const showNote = () => replace(note, `${num(list.children.length)} chunk${list.children.length === 1 ? '' : 's'} `
      + `at revision ${num(answer.revision)}${revision ? ' (pinned)' : ''}, source revision ${num(answer.sourceRevision)}.`);
    showNote();
    const showMore = () => replace(more, after === null ? null : h('button', {type: 'button', id: 'more-text',
      onclick: async () => {
        try {
          await load();
          showNote();
          showMore();
        } catch (err) {
          replace(more, errorBlock(err));
        }
      }}, 'Show more text'));
    showMore();
    // The text scrolls to the opened chunk only when no matching passage above took the focus.
    if (opened && !box.closest('main').querySelector('.hit.opened')) reveal(list.querySelector('.chunk.opened'));
  } catch (err) {
    replace(box, h('h2', {}, 'Text'), errorBlock(err));
  }
}

/** Scrolls `target` (if any) to the middle of the view and focuses it: the passage or chunk a hit opened. */
function reveal(target) {
  if (!target) return;
  target.setAttribute('tabindex', '-1');
  target.scrollIntoView({block: 'center'});
  target.focus({preventScroll: true});
}

function chunkItem(c, opened) {
  const page = pageLabel(c.pages);
  return h('li', {class: opened ? 'chunk opened' : 'chunk', id: `chunk-${c.chunk}`, 'data-chunk': c.chunk},
    h('div', {class: 'facts'},
      h('span', {}, `chunk ${c.chunk}`),
      page ? h('span', {class: 'page'}, page) : null,
      h('span', {class: 'mono'}, `${c.offsets.start}–${c.offsets.end}`)),
    h('p', {class: 'passage'}, c.text));
}
