// The history timeline: who changed which source at which revision, and when.
import * as api from './api.js';
import {h, num, shownId, time} from './dom.js';

const VERBS = {index: 'indexed', ingest: 'ingested', delete: 'deleted', purge: 'purged'};

/** One history entry as a timeline item. */
export function entryItem(e, corpus) {
  return h('li', {class: `op-${e.operation}`, 'data-revision': e.revision, 'data-operation': e.operation},
    h('div', {},
      h('strong', {}, `Revision ${num(e.revision)}`), ' · ',
      h('a', {href: '#/source?' + new URLSearchParams({corpus, source: e.source})}, h('span', {class: 'mono'}, shownId(e.source))),
      ` ${VERBS[e.operation] || e.operation}`,
      e.subject ? [' by ', h('span', {class: 'subject'}, e.subject)] : null,
      // The text this version had: the source read at the revision that wrote it.
      e.operation === 'index' || e.operation === 'ingest'
        ? [' · ', h('a', {class: 'text-at', href: '#/source?' + new URLSearchParams({corpus, source: e.source, revision: e.revision})},
          'text then')]
        : null),
    h('div', {class: 'when'}, time(e.at), e.contentSha256 ? [' · sha-256 ', h('span', {class: 'mono'}, e.contentSha256.slice(0, 16) + '…')] : null));
}

/**
 * The entries about one source, read page by page through the corpus history (which the API gives
 * for the whole corpus), at most `maxPages` pages of 1000 entries.
 */
export async function sourceHistory(corpus, source, maxPages = 20) {
  const out = [];
  let after = 0;
  for (let i = 0; i < maxPages; i++) {
    const page = await api.call('corpora/history', {corpus, after, limit: 1000});
    out.push(...page.entries.filter(e => e.source === source));
    if (page.nextAfter === undefined) return {entries: out, complete: true};
    after = page.nextAfter;
  }
  return {entries: out, complete: false};
}
