// Multi-select facets, as search front ends do them ("disjunctive facets"): a field with picked
// values shows the counts of the search without its own picks (the other fields' picks and the
// typed filter still apply), so its other values stay offered and a click adds one to its `in`
// set. The search itself is narrowed by every pick, so those counts take one more request per
// picked field: facetOnlyBody, pinned to the revision the search answered at.
//
// Most of those requests are never sent: a field's counts without its own picks are often those
// an earlier answer already showed (picking a first or a further value of a field leaves the
// search without that field's picks unchanged), so each answer's counts are kept by the request
// that gives them and reused when corpus, revision and request are the same. A facet click thus
// costs one search; picking a value of a second field costs one more, for the first field.
import * as api from './api.js';
import {facetOnlyBody, picks} from './search-request.js';

/** How many fields' counts are kept, the oldest dropped first. */
const KEPT = 64;
/** Counts by facet-only request (without its revision): {corpusId, revision, counts}. */
const kept = new Map();

/** Forgets every kept count: they were counted within the grants of the token that asked. */
export function forgetFacetCounts() {
  kept.clear();
}

function key(body) {
  const {revision, ...rest} = body;
  return JSON.stringify(rest);
}

function keep(k, answer, counts) {
  kept.delete(k);
  kept.set(k, {corpusId: answer.corpusId, revision: answer.revision, counts});
  while (kept.size > KEPT) kept.delete(kept.keys().next().value);
}

function keptFor(k, answer) {
  const e = kept.get(k);
  return e && e.corpusId === answer.corpusId && e.revision === answer.revision ? e.counts : null;
}

/**
 * The answer's facets (from the search the address `p` asks for), each field with picked values
 * counted without them. Where those counts cannot be had, the field keeps the answer's own
 * (narrowed, and still true) counts.
 */
export async function multiSelectFacets(p, answer) {
  if (!answer.facets) return answer.facets;
  const picked = picks(p);
  // A field without picks was counted exactly as its facet-only request would count it.
  for (const f of answer.facets) {
    if (!picked[f.field]) keep(key(facetOnlyBody(p, f.field)), answer, f);
  }
  return Promise.all(answer.facets.map(async f => {
    const chosen = picked[f.field];
    if (!chosen) return f;
    const body = facetOnlyBody(p, f.field);
    const k = key(body);
    let counts = keptFor(k, answer);
    if (!counts) {
      try {
        const counted = await api.call('search', {...body, revision: answer.revision});
        counts = counted.facets[0];
        keep(k, counted, counts);
      } catch {
        return f;
      }
    }
    return withChosen(counts, f, chosen);
  }));
}

/**
 * The counts with every chosen value shown, also one outside the first `size` values: its count
 * is the same in the narrowed answer, which holds it.
 */
function withChosen(counts, narrowed, chosen) {
  const missing = chosen.filter(v => !counts.values.some(c => c.value === v));
  const extra = narrowed.values.filter(c => missing.includes(c.value));
  return extra.length ? {...counts, values: [...counts.values, ...extra]} : counts;
}
