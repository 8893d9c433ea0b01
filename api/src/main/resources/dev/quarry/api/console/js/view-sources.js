// Sources: a keyset-paged list in name order, narrowed by a prefix.
import * as api from './api.js';
import {h, num, replace, shownId, time} from './dom.js';
import {corpusPicker, pager} from './common.js';

const PAGE = 25;

export async function sourcesView(main, ctx) {
  const p = ctx.params;
  const picker = await corpusPicker(ctx, p.get('corpus'), c => ctx.grants.canRead(c),
    corpus => ctx.go('sources', {corpus}));
  if (!ctx.current()) return;
  const corpus = picker.value;
  const prefix = h('input', {type: 'search', id: 'prefix', value: p.get('prefix') || '', placeholder: 'policies/',
    autocomplete: 'off', spellcheck: 'false'});
  const form = h('form', {class: 'row', id: 'sources-form', onsubmit: e => {
    e.preventDefault();
    ctx.go('sources', {corpus: picker.select ? picker.select.value : corpus, prefix: prefix.value});
  }}, picker.node, h('label', {class: 'grow'}, 'Source id starts with', prefix),
  h('button', {type: 'submit', class: 'primary'}, 'Filter'));
  replace(main, h('h1', {}, 'Sources'), form);
  if (!corpus) return;
  const body = {corpus, limit: PAGE};
  if (p.get('prefix')) body.prefix = p.get('prefix');
  if (p.get('cursor')) body.cursor = p.get('cursor');
  const page = await api.call('sources/list', body);
  if (!ctx.current()) return;
  const rows = page.sources.map(s => h('tr', {'data-source': s.source},
    h('td', {}, h('a', {href: '#/source?' + new URLSearchParams({corpus, source: s.source}), class: 'mono'}, shownId(s.source))),
    h('td', {class: 'wide-only'}, s.title || ''),
    h('td', {class: 'wide-only'}, s.mediaType || ''),
    h('td', {class: 'num'}, num(s.sourceRevision)),
    h('td', {class: 'num'}, num(s.chunks)),
    h('td', {class: 'num wide-only'}, s.pages ? num(s.pages) : ''),
    h('td', {class: 'wide-only'}, time(s.indexedAt))));
  const here = {corpus, prefix: p.get('prefix')};
  main.append(
    rows.length
      ? h('div', {class: 'table-wrap'}, h('table', {id: 'sources'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Source'), h('th', {class: 'wide-only'}, 'Title'),
          h('th', {class: 'wide-only'}, 'Media type'), h('th', {class: 'num'}, 'Revision'), h('th', {class: 'num'}, 'Chunks'),
          h('th', {class: 'num wide-only'}, 'Pages'), h('th', {class: 'wide-only'}, 'Indexed'))),
        h('tbody', {}, rows)))
      : h('p', {class: 'banner info', id: 'no-sources'}, p.get('prefix') ? 'No source starts with that prefix.' : 'No sources yet.'),
    pager('sources', here, p.get('cursor'), page.nextCursor));
}
