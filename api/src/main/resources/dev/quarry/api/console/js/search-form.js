// The search form: the query, how to read it (mode, fusion, operator syntax) and the options that
// narrow it. Submitting puts every value in the address; the view then runs the search from there.
import {h} from './dom.js';

/**
 * Mode and fusion, for a corpus with an embedding model only (a lexical corpus has one mode).
 * `embedding` is the corpus's settings.embedding from corpora/read; fusion applies to hybrid.
 */
function modeControls(p, embedding) {
  const mode = h('select', {id: 'mode', name: 'mode'},
    h('option', {value: ''}, 'hybrid (default)'),
    h('option', {value: 'semantic'}, 'semantic'),
    h('option', {value: 'lexical'}, 'lexical'));
  mode.value = p.get('mode') || '';
  const fusion = h('select', {id: 'fusion', name: 'fusion'},
    h('option', {value: ''}, 'convex (weighted scores)'),
    h('option', {value: 'rrf'}, 'rrf (reciprocal ranks)'));
  fusion.value = p.get('fusion') || '';
  const weight = h('input', {type: 'number', id: 'semantic-weight', name: 'weight', min: '0', max: '1', step: '0.05',
    value: p.get('weight') || '', placeholder: String(embedding.semanticWeight ?? '')});
  const fusionRow = h('div', {class: 'row', id: 'fusion-controls'},
    h('label', {}, 'Fusion', fusion), h('label', {}, 'Semantic weight (convex)', weight));
  const sync = () => {
    fusionRow.hidden = mode.value !== '';
    weight.disabled = fusion.value === 'rrf';
  };
  mode.addEventListener('change', sync);
  fusion.addEventListener('change', sync);
  sync();
  const node = h('div', {class: 'row', id: 'mode-controls'},
    h('label', {}, `Mode (${embedding.model})`, mode), fusionRow);
  return {node, values: () => ({mode: mode.value, fusion: fusionRow.hidden ? '' : fusion.value,
    weight: fusionRow.hidden || weight.disabled ? '' : weight.value})};
}

/**
 * The form; `embedding` is null for a lexical corpus. onSubmit gets the address's new parameters
 * (the corpus is the caller's to add).
 */
export function searchForm(ctx, p, picker, embedding, onSubmit) {
  const limits = ctx.protocol.limits || {};
  const q = h('input', {type: 'search', id: 'query', name: 'q', value: p.get('q') || '', required: true,
    maxlength: String(limits.maxQueryChars || 1000), class: 'grow', autocomplete: 'off'});
  const ops = h('input', {type: 'checkbox', id: 'operators', name: 'ops', checked: Boolean(p.get('ops')),
    'aria-describedby': 'operators-hint'});
  const topK = h('input', {type: 'number', id: 'top-k', min: '1', max: String(limits.maxTopK || 100),
    value: p.get('topK') || '', placeholder: '10'});
  const per = h('input', {type: 'number', id: 'per-source', min: '1', value: p.get('per') || '', placeholder: 'all'});
  const sources = h('input', {type: 'text', id: 'sources-scope', value: p.get('sources') || '',
    placeholder: 'policies/*, guides/intro.md', autocomplete: 'off'});
  const facets = h('input', {type: 'text', id: 'facet-fields', value: p.get('facets') || '',
    placeholder: 'department, year', autocomplete: 'off', spellcheck: 'false'});
  const filter = h('textarea', {id: 'filter', rows: '2', placeholder: '{"department": "hr", "year": {"gte": 2020}}',
    spellcheck: 'false'}, p.get('filter') || '');
  const revision = h('input', {type: 'number', id: 'revision', min: '0', value: p.get('revision') || '', placeholder: 'latest'});
  const modes = embedding ? modeControls(p, embedding) : null;
  const form = h('form', {id: 'search-form', role: 'search', onsubmit: e => {
    e.preventDefault();
    onSubmit({q: q.value, ops: ops.checked ? '1' : '', ...(modes ? modes.values() : {}), topK: topK.value,
      per: per.value, sources: sources.value, facets: facets.value, filter: filter.value.trim(),
      picks: p.get('picks'), revision: revision.value});
  }},
  h('div', {class: 'row'}, picker.node, h('label', {class: 'grow'}, 'Query', q),
    h('button', {type: 'submit', class: 'primary'}, 'Search')),
  h('div', {class: 'row'}, modes ? modes.node : null,
    h('div', {class: 'syntax'}, h('label', {class: 'check'}, ops, 'Operator syntax'),
      h('span', {id: 'operators-hint', class: 'muted hint'},
        h('code', {}, '"exact phrase"'), ' in this order, ', h('code', {}, '+word'), ' required, ',
        h('code', {}, '-word'), ' excluded'))),
  h('details', {open: ['topK', 'per', 'sources', 'facets', 'filter', 'revision'].some(k => p.get(k))},
    h('summary', {}, 'Options'),
    h('div', {class: 'row'},
      h('label', {}, 'Results (topK)', topK), h('label', {}, 'Per source (maxChunksPerSource)', per),
      h('label', {}, 'Revision', revision), h('label', {class: 'grow'}, 'Sources (ids or prefixes*)', sources)),
    h('label', {}, 'Facets (metadata fields, comma-separated)', facets),
    h('label', {}, 'Metadata filter (JSON)', filter)));
  return {form, focus: () => q.focus()};
}
