// Corpora: the list with revisions and source counts, their settings, create and delete.
import * as api from './api.js';
import {facts, h, num, replace, time} from './dom.js';
import {typedConfirmation} from './common.js';
import {forgetCorpora} from './corpus-cache.js';
import {errorBlock} from './words.js';

export async function corporaView(main, ctx) {
  const g = ctx.grants;
  const cursor = ctx.params.get('cursor');
  // The place to see the corpora as they are now: what the other views keep of them is read again.
  forgetCorpora();
  const page = await api.call('corpora/list', cursor ? {cursor, limit: 50} : {limit: 50});
  if (!ctx.current()) return;
  const panel = h('div', {id: 'corpus-panel'});
  const rows = page.corpora.map(c => {
    const actions = [
      g.can(c.corpus, 'search') ? h('a', {href: `#/search?corpus=${encodeURIComponent(c.corpus)}`}, 'Search') : null,
      g.canRead(c.corpus) ? h('a', {href: `#/sources?corpus=${encodeURIComponent(c.corpus)}`}, 'Sources') : null,
      g.can(c.corpus, 'index') ? h('a', {href: `#/ingest?corpus=${encodeURIComponent(c.corpus)}`}, 'Ingest') : null,
      h('button', {type: 'button', class: 'link', onclick: () => showSettings(panel, c.corpus, ctx)}, 'Settings'),
      g.can(c.corpus, 'manage')
        ? h('button', {type: 'button', class: 'link', 'data-action': 'delete', onclick: () => confirmDelete(panel, c.corpus, ctx)}, 'Delete')
        : null,
    ].filter(Boolean);
    return h('tr', {'data-corpus': c.corpus},
      h('td', {}, h('strong', {}, c.corpus)),
      h('td', {class: 'num'}, num(c.revision)),
      h('td', {class: 'num'}, num(c.sources)),
      h('td', {class: 'actions'}, actions.flatMap((a, i) => (i ? [' · ', a] : [a]))));
  });
  replace(main,
    h('h1', {}, 'Corpora'),
    g.anywhere('manage') ? createForm(ctx) : null,
    panel,
    rows.length
      ? h('div', {class: 'table-wrap'}, h('table', {id: 'corpora'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Corpus'), h('th', {class: 'num'}, 'Revision'),
          h('th', {class: 'num'}, 'Sources'), h('th', {}, 'Actions'))),
        h('tbody', {}, rows)))
      : h('p', {class: 'banner info'}, 'No corpus your token may see yet.'),
    page.nextCursor ? h('p', {class: 'pager'}, h('a', {href: `#/corpora?cursor=${encodeURIComponent(page.nextCursor)}`}, 'Next page')) : null);
}

function createForm(ctx) {
  const patterns = ctx.grants.patterns('manage');
  const name = h('input', {type: 'text', id: 'new-corpus', name: 'corpus', required: true, maxlength: '64',
    pattern: '[a-z0-9][a-z0-9._\\-]{0,63}', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'new-corpus-help'});
  const language = h('select', {id: 'new-language'}, ['english', 'standard', 'cjk', 'arabic', 'chinese', 'czech', 'danish', 'dutch', 'finnish', 'french', 'german', 'greek', 'hindi', 'hungarian', 'indonesian', 'italian', 'japanese', 'korean', 'norwegian', 'persian', 'polish', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish', 'thai', 'turkish', 'ukrainian', 'auto'].map(l => h('option', {value: l}, l)));
  const maxWords = h('input', {type: 'number', id: 'new-max-words', min: '16', max: '2000', placeholder: '250'});
  const overlap = h('input', {type: 'number', id: 'new-overlap', min: '0', placeholder: '50'});
  const k1 = h('input', {type: 'number', id: 'new-k1', min: '0', max: '10', step: 'any', placeholder: '0.9'});
  const b = h('input', {type: 'number', id: 'new-b', min: '0', max: '1', step: 'any', placeholder: '0.4'});
  const titleWeight = h('input', {type: 'number', id: 'new-title-weight', min: '0', max: '100', step: 'any', placeholder: '1.0'});
  const out = h('div', {role: 'status'});
  const form = h('form', {class: 'card', id: 'create-corpus', onsubmit: async e => {
    e.preventDefault();
    const settings = {language: language.value};
    const chunking = {};
    if (maxWords.value) chunking.maxWords = Number(maxWords.value);
    if (overlap.value) chunking.overlapWords = Number(overlap.value);
    if (Object.keys(chunking).length) settings.chunking = chunking;
    const ranking = {};
    if (k1.value) ranking.k1 = Number(k1.value);
    if (b.value) ranking.b = Number(b.value);
    if (titleWeight.value) ranking.titleWeight = Number(titleWeight.value);
    if (Object.keys(ranking).length) settings.ranking = ranking;
    try {
      const created = await api.call('corpora/create', {corpus: name.value, settings});
      ctx.flash(h('p', {class: 'banner ok'}, `Corpus ${created.corpus} created at revision ${created.revision}.`));
      ctx.go('corpora');
    } catch (err) {
      replace(out, errorBlock(err));
    }
  }},
  h('h2', {}, 'Create a corpus'),
  h('div', {class: 'row'},
    h('label', {class: 'grow'}, 'Name', name),
    h('label', {}, 'Language', language),
    h('button', {type: 'submit', class: 'primary'}, 'Create')),
  h('p', {id: 'new-corpus-help', class: 'muted'},
    'Lower-case letters, digits, ".", "_" and "-"; your token may create: ', patterns.join(', ')),
  h('details', {}, h('summary', {}, 'Chunking and ranking'),
    h('div', {class: 'row'},
      h('label', {}, 'Words per chunk', maxWords), h('label', {}, 'Overlap words', overlap),
      h('label', {}, 'BM25 k1', k1), h('label', {}, 'BM25 b', b), h('label', {}, 'Title weight', titleWeight))),
  out);
  return form;
}

async function showSettings(panel, corpus, ctx) {
  try {
    const c = await api.call('corpora/read', {corpus});
    const s = c.settings || {};
    replace(panel, h('section', {class: 'card', 'aria-label': `Settings of ${corpus}`},
      h('h2', {}, corpus),
      facts([
        ['Corpus id', h('span', {class: 'mono'}, c.corpusId)],
        ['Revision', num(c.revision)],
        ['Sources (visible to you)', num(c.sources)],
        ['Created', time(c.createdAt)],
        ['Language', s.language],
        ['Chunking', s.chunking ? `${s.chunking.maxWords} words, ${s.chunking.overlapWords} overlap` : null],
        ['Ranking', s.ranking ? `BM25 k1 ${s.ranking.k1}, b ${s.ranking.b}, title weight ${s.ranking.titleWeight}` : null],
        ['Embedding', s.embedding ? JSON.stringify(s.embedding) : null],
        ['Your scopes', [...ctx.grants.scopes(corpus)].join(', ')],
      ]),
      h('p', {}, h('button', {type: 'button', onclick: () => replace(panel)}, 'Close'))));
  } catch (err) {
    replace(panel, errorBlock(err));
  }
}

function confirmDelete(panel, corpus, ctx) {
  replace(panel, typedConfirmation(
    `Delete the corpus ${corpus} with every source and its whole history? This cannot be undone.`,
    corpus, 'Delete corpus',
    async () => {
      try {
        await api.call('corpora/delete', {corpus});
        ctx.flash(h('p', {class: 'banner ok'}, `Corpus ${corpus} deleted.`));
        ctx.go('corpora');
      } catch (err) {
        replace(panel, errorBlock(err));
      }
    },
    () => replace(panel)));
}
