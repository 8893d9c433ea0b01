// The search request as the address holds it (#/search?corpus=...&q=...) and as the API takes it.
// Everything the form offers lives in the address, so a search survives a reload and can be shared.

/** A field error raised in the browser, shown like the server's own refusals. */
function invalid(field, message) {
  return Object.assign(new Error(message), {code: 'INVALID_REQUEST', field});
}

/**
 * The facet values picked as filters: `{field: [value, ...]}` from the `picks` parameter (JSON, so
 * a number stays a number and a value may hold any character). Anything else in it is ignored.
 */
export function picks(p) {
  let parsed;
  try {
    parsed = JSON.parse(p.get('picks') || '{}');
  } catch {
    return {};
  }
  const out = {};
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
  for (const [field, values] of Object.entries(parsed)) {
    const kept = Array.isArray(values) ? values.filter(v => typeof v === 'string' || typeof v === 'number') : [];
    if (kept.length) out[field] = kept;
  }
  return out;
}

/** The picks with one value of `field` added, or removed when it was there: a facet click. */
export function toggled(current, field, value) {
  const out = {...current};
  const values = out[field] || [];
  out[field] = values.includes(value) ? values.filter(v => v !== value) : [...values, value];
  if (!out[field].length) delete out[field];
  return out;
}

/** The picks as a filter: one value is an equality, several of a field are `in` (any of them). */
function pickedFilter(picked) {
  const out = {};
  for (const [field, values] of Object.entries(picked)) out[field] = values.length === 1 ? values[0] : {in: values};
  return out;
}

/**
 * The typed JSON filter and the picked values together: merged into one object when they name
 * different fields (the shortest request), else both under `and`.
 */
function combined(typed, picked) {
  const fromPicks = pickedFilter(picked);
  if (!Object.keys(fromPicks).length) return typed;
  if (typed === undefined) return fromPicks;
  const plain = typed && typeof typed === 'object' && !Array.isArray(typed);
  if (plain && !Object.keys(fromPicks).some(k => k in typed)) return {...typed, ...fromPicks};
  return {and: [typed, fromPicks]};
}

/** The facet fields named in the `facets` parameter (comma-separated), each once. */
function facetFields(p) {
  return [...new Set((p.get('facets') || '').split(',').map(s => s.trim()).filter(Boolean))];
}

/**
 * The parts of the search body that decide what matches (and so the facet counts): the corpus,
 * the query and how to read it, the scope, the typed filter with the values `picked`, and a
 * pinned revision. Throws a field error for a malformed filter.
 */
function matchBody(p, picked) {
  const body = {corpus: p.get('corpus'), query: p.get('q')};
  if (p.get('mode')) body.mode = p.get('mode');
  // Fusion is hybrid search's alone (the server refuses it on any other mode).
  if ((p.get('fusion') || p.get('weight')) && (!p.get('mode') || p.get('mode') === 'hybrid')) {
    body.fusion = {method: p.get('fusion') || 'convex'};
    if (p.get('weight')) body.fusion.semanticWeight = Number(p.get('weight'));
  }
  if (p.get('ops')) body.syntax = 'operators';
  if (p.get('sources')) body.sources = p.get('sources').split(',').map(s => s.trim()).filter(Boolean);
  let typed;
  if (p.get('filter')) {
    try {
      typed = JSON.parse(p.get('filter'));
    } catch (e) {
      throw invalid('filter', `The filter is not JSON: ${e.message}`);
    }
  }
  const filter = combined(typed, picked);
  if (filter !== undefined) body.filter = filter;
  if (p.get('revision')) body.revision = Number(p.get('revision'));
  return body;
}

/** The search body from the address's parameters; throws a field error for a malformed filter. */
export function searchBody(p) {
  const body = matchBody(p, picks(p));
  const facets = facetFields(p);
  if (facets.length) body.facets = facets;
  for (const [param, name] of [['topK', 'topK'], ['per', 'maxChunksPerSource']]) {
    if (p.get(param)) body[name] = Number(p.get(param));
  }
  // Plain-text snippets: the console marks the matches itself from their offsets, so no markup
  // from the server is ever parsed.
  body.snippet = {maxChars: 240};
  return body;
}

/**
 * The request for one facet's counts as if none of its own values were picked (the other fields'
 * picks and the typed filter still apply): what a multi-select facet shows, so each value says how
 * many sources picking it too would add. Only that facet, and the least of the rest: topK and
 * maxChunksPerSource do not change counts (docs/search.md), so one hit without highlights or a
 * snippet.
 */
export function facetOnlyBody(p, field) {
  const others = {...picks(p)};
  delete others[field];
  return {...matchBody(p, others), facets: [field], topK: 1, highlight: false};
}
