// Facets beside the results: each field's values with how many sources hold them; a click on a
// value filters on it, and each active filter is a chip that removes it.
import {h, num} from './dom.js';
import {toggled} from './search-request.js';

/** A facet value as the API gives it (a string or a number): as it is, so a year reads 2024, not 2,024. */
function shown(value) {
  return String(value);
}

/** The active filters from facet clicks, each with a button that removes it; null when none. */
export function activeFilters(picked, onChange) {
  const chips = Object.entries(picked).flatMap(([field, values]) => values.map(value =>
    h('li', {class: 'chip active-filter', 'data-field': field, 'data-value': String(value)},
      `${field}: ${shown(value)}`,
      h('button', {type: 'button', class: 'remove', 'aria-label': `Remove filter ${field}: ${shown(value)}`,
        onclick: () => onChange(toggled(picked, field, value))}, '×'))));
  if (!chips.length) return null;
  return h('div', {id: 'active-filters', class: 'row'}, h('span', {class: 'muted'}, 'Filtered on'),
    h('ul', {class: 'chips'}, chips),
    h('button', {type: 'button', class: 'link', id: 'clear-filters', onclick: () => onChange({})}, 'Clear'));
}

/**
 * The facets of an answer. A value's count is the number of sources that hold it among everything
 * the search matched (docs/search.md). A field with picked values is counted as if none of them
 * were picked (facet-counts.js), so its other values stay offered: a click adds one to the field's
 * picks (any of them matches), and its count is how many sources it brings.
 */
export function facetPanel(facets, picked, onChange) {
  if (!facets || !facets.length) return null;
  return h('aside', {id: 'facets', class: 'facets', 'aria-label': 'Facets'}, facets.map(f => {
    const chosen = picked[f.field] || [];
    const values = f.values.map(v => {
      const on = chosen.includes(v.value);
      return h('li', {},
        h('button', {type: 'button', class: on ? 'facet-value on' : 'facet-value', 'aria-pressed': String(on),
          'data-field': f.field, 'data-value': String(v.value), 'data-count': String(v.count),
          onclick: () => onChange(toggled(picked, f.field, v.value))},
        h('span', {class: 'value'}, shown(v.value)), h('span', {class: 'count'}, num(v.count))));
    });
    const more = f.distinctValues > f.values.length
      ? h('p', {class: 'muted'}, `${num(f.values.length)} of ${num(f.distinctValues)} values`) : null;
    return h('section', {class: 'facet', 'data-field': f.field},
      h('h2', {}, f.field),
      values.length ? h('ul', {class: 'facet-values'}, values) : h('p', {class: 'muted'}, 'No match holds this field.'),
      more);
  }));
}

/**
 * Buttons that add a facet on a metadata field the hits carry and no facet counts yet: the server
 * does not list a corpus's fields, so the hits are the console's best guess at them.
 */
export function facetSuggestions(results, fields, onAdd) {
  const seen = new Set();
  for (const r of results) for (const key of Object.keys(r.metadata || {})) seen.add(key);
  const offered = [...seen].filter(k => !fields.includes(k)).sort();
  if (!offered.length) return null;
  // Separated by commas, so that the fields read as a list and never run together (deptyear).
  return h('p', {id: 'facet-suggestions', class: 'muted'}, 'Facet on: ',
    offered.map((k, i) => [i ? ', ' : null,
      h('button', {type: 'button', class: 'link add-facet', 'data-field': k, onclick: () => onAdd(k)}, k)]));
}
