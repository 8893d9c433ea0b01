// Search: the request as the API takes it, the results as it gives them, the revision answered
// at (and pinning to it), and the same request as a curl command.
import * as api from './api.js';
import {h, num, replace} from './dom.js';
import {copyable, corpusPicker} from './common.js';
import {hitItem} from './hits.js';
import {errorBlock} from './words.js';

/** The search body from the address's parameters; throws a field error for a malformed filter. */
export function searchBody(p) {
  const body = {corpus: p.get('corpus'), query: p.get('q')};
  if (p.get('sources')) body.sources = p.get('sources').split(',').map(s => s.trim()).filter(Boolean);
  if (p.get('filter')) {
    try {
      body.filter = JSON.parse(p.get('filter'));
    } catch (e) {
      throw Object.assign(new Error(`The filter is not JSON: ${e.message}`), {code: 'INVALID_REQUEST', field: 'filter'});
    }
  }
  for (const [param, name] of [['topK', 'topK'], ['per', 'maxChunksPerSource'], ['revision', 'revision']]) {
    if (p.get(param)) body[name] = Number(p.get(param));
  }
  return body;
}

export async function searchView(main, ctx) {
  const p = ctx.params;
  const picker = await corpusPicker(ctx, p.get('corpus'), c => ctx.grants.can(c, 'search'),
    corpus => ctx.go('search', {corpus}));
  if (!ctx.current()) return;
  const corpus = picker.value;
  const q = h('input', {type: 'search', id: 'query', name: 'q', value: p.get('q') || '', required: true,
    maxlength: String(ctx.protocol.limits?.maxQueryChars || 1000), class: 'grow', autocomplete: 'off'});
  const topK = h('input', {type: 'number', id: 'top-k', min: '1', max: String(ctx.protocol.limits?.maxTopK || 100),
    value: p.get('topK') || '', placeholder: '10'});
  const per = h('input', {type: 'number', id: 'per-source', min: '1', value: p.get('per') || '', placeholder: 'all'});
  const sources = h('input', {type: 'text', id: 'sources-scope', value: p.get('sources') || '',
    placeholder: 'policies/*, guides/intro.md', autocomplete: 'off'});
  const filter = h('textarea', {id: 'filter', rows: '2', placeholder: '{"department": "hr", "year": {"gte": 2020}}',
    spellcheck: 'false'}, p.get('filter') || '');
  const revision = h('input', {type: 'number', id: 'revision', min: '0', value: p.get('revision') || '', placeholder: 'latest'});
  const form = h('form', {id: 'search-form', role: 'search', onsubmit: e => {
    e.preventDefault();
    ctx.go('search', {corpus: picker.select ? picker.select.value : corpus, q: q.value, topK: topK.value,
      per: per.value, sources: sources.value, filter: filter.value.trim(), revision: revision.value});
  }},
  h('div', {class: 'row'}, picker.node, h('label', {class: 'grow'}, 'Query', q),
    h('button', {type: 'submit', class: 'primary'}, 'Search')),
  h('details', {open: p.get('topK') || p.get('per') || p.get('sources') || p.get('filter') || p.get('revision')},
    h('summary', {}, 'Options'),
    h('div', {class: 'row'},
      h('label', {}, 'Results (topK)', topK), h('label', {}, 'Per source (maxChunksPerSource)', per),
      h('label', {}, 'Revision', revision), h('label', {class: 'grow'}, 'Sources (ids or prefixes*)', sources)),
    h('label', {}, 'Metadata filter (JSON)', filter)));
  const results = h('section', {id: 'results', 'aria-live': 'polite'});
  replace(main, h('h1', {}, 'Search'), form, results);
  if (!corpus || !p.get('q')) {
    q.focus();
    return;
  }
  let body;
  try {
    body = searchBody(new URLSearchParams({...Object.fromEntries(p), corpus}));
  } catch (err) {
    replace(results, errorBlock(err));
    return;
  }
  try {
    const answer = await api.call('search', body);
    if (!ctx.current()) return;
    replace(results, ...answerNodes(ctx, body, answer));
  } catch (err) {
    replace(results, errorBlock(err), copyable(api.curl('search', body), 'The request as curl'));
  }
}

function answerNodes(ctx, body, answer) {
  const pinned = body.revision !== undefined;
  const base = Object.fromEntries(ctx.params);
  const banner = pinned
    ? h('div', {class: 'banner pinned', id: 'answered'},
      h('strong', {}, `Pinned at revision ${num(answer.revision)}.`),
      ` These are exactly the results the corpus held at revision ${num(answer.revision)}, however it changed since. `,
      h('button', {type: 'button', class: 'link', id: 'unpin', onclick: () => ctx.go('search', {...base, revision: ''})}, 'Search the latest revision'))
    : h('div', {class: 'banner info', id: 'answered'},
      `Answered at revision ${num(answer.revision)} in ${num(answer.tookMs)} ms. `,
      h('button', {type: 'button', class: 'link', id: 'pin', onclick: () => ctx.go('search', {...base, revision: answer.revision})},
        'Pin this revision'));
  const hits = answer.results.map(r => hitItem(r, '#/source?' + new URLSearchParams({
    corpus: answer.corpus, source: r.source, q: body.query, chunk: r.chunk,
    ...(pinned ? {revision: answer.revision} : {}),
  })));
  return [
    banner,
    hits.length ? h('ol', {class: 'hits'}, hits) : h('p', {class: 'muted', id: 'no-results'}, 'No passage matches.'),
    h('details', {}, h('summary', {}, 'This request as curl'), copyable(api.curl('search', body), 'The request as curl')),
  ];
}
