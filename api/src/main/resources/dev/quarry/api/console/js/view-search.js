// Search: the request as the API takes it, the results as it gives them (with facets to filter
// on), the revision answered at (and pinning to it), and the same request as a curl command.
import * as api from './api.js';
import {h, num, replace} from './dom.js';
import {copyable, corpusPicker} from './common.js';
import {hitItem} from './hits.js';
import {activeFilters, facetPanel, facetSuggestions} from './facets.js';
import {multiSelectFacets} from './facet-counts.js';
import {corpusInfo, forgetCorpora, staleAfter} from './corpus-cache.js';
import {searchForm} from './search-form.js';
import {picks, searchBody} from './search-request.js';
import {errorBlock} from './words.js';

/** The corpus id of the last answer that showed a replaced corpus, so the page is shown anew once for it. */
let replacedSince = null;

export async function searchView(main, ctx) {
  const p = ctx.params;
  const picker = await corpusPicker(ctx, p.get('corpus'), c => ctx.grants.can(c, 'search'),
    corpus => ctx.go('search', {corpus}));
  if (!ctx.current()) return;
  const corpus = picker.value;
  // The mode selector is offered only where there is a choice: a corpus with an embedding model.
  // The corpus's settings are kept for the session (corpus-cache.js), not read before every search.
  const info = corpus ? await corpusInfo(corpus) : null;
  if (!ctx.current()) return;
  const settings = info ? info.settings : null;
  const embedding = settings && settings.embedding ? settings.embedding : null;
  const {form, focus} = searchForm(ctx, p, picker, embedding,
    params => ctx.go('search', {corpus: picker.select ? picker.select.value : corpus, ...params}));
  const results = h('section', {id: 'results', 'aria-live': 'polite'});
  replace(main, h('h1', {}, 'Search'), form, results);
  if (!corpus || !p.get('q')) {
    focus();
    return;
  }
  const here = {...Object.fromEntries(p), corpus};
  let body;
  try {
    body = searchBody(new URLSearchParams(here));
  } catch (err) {
    replace(results, errorBlock(err));
    return;
  }
  const picked = picks(p);
  const refilter = next => ctx.go('search', {...here, picks: pickParam(next)});
  try {
    const answer = await api.call('search', body);
    if (!ctx.current()) return;
    if (answer.corpusId !== info.corpusId && replacedSince !== answer.corpusId) {
      // The corpus was deleted and created again since its settings were read: they may differ
      // (an embedding model, so other modes), so read them again and show the page anew, once.
      replacedSince = answer.corpusId;
      forgetCorpora();
      ctx.go('search', here);
      return;
    }
    const facets = await multiSelectFacets(new URLSearchParams(here), answer);
    if (!ctx.current()) return;
    replace(results, ...answerNodes(ctx, here, body, {...answer, facets}, picked, refilter));
  } catch (err) {
    staleAfter(err);
    if (!ctx.current()) return;
    replace(results, errorBlock(err), activeFilters(picked, refilter),
      copyable(api.curl('search', body), 'The request as curl'));
  }
}

/** The picks as the address holds them; none is no parameter at all. */
function pickParam(picked) {
  return Object.keys(picked).length ? JSON.stringify(picked) : '';
}

/** The answer's nodes; `picked` are the facet values filtered on, and `refilter(picks)` searches again with others. */
function answerNodes(ctx, base, body, answer, picked, refilter) {
  const pinned = body.revision !== undefined;
  const fields = body.facets || [];
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
  const facets = facetPanel(answer.facets, picked, refilter);
  const list = h('div', {class: 'hit-list'},
    h('h2', {class: 'visually-hidden'}, 'Results'),
    facetSuggestions(answer.results, fields, field => ctx.go('search', {...base, facets: [...fields, field].join(', ')})),
    hits.length ? h('ol', {class: 'hits'}, hits) : h('p', {class: 'muted', id: 'no-results'}, 'No passage matches.'));
  return [
    banner,
    activeFilters(picked, refilter),
    facets ? h('div', {class: 'with-facets'}, facets, list) : list,
    h('details', {}, h('summary', {}, 'This request as curl'), copyable(api.curl('search', body), 'The request as curl')),
  ];
}
