// One search result as the API gives it: title, source, pages, highlighted passage, score.
import {h, highlighted, num} from './dom.js';

/** "p. 4" or "pp. 4–5", or null for formats without pages. */
export function pageLabel(pages) {
  if (!pages) return null;
  return pages.from === pages.to ? `p. ${pages.from}` : `pp. ${pages.from}–${pages.to}`;
}

function score(n) {
  return typeof n === 'number' ? n.toFixed(4) : null;
}

/**
 * The lexical and semantic parts of a hybrid score, when the server sends them: as
 * `scores: {lexical, semantic}` or as `lexicalScore`/`semanticScore` (or `lexical`/`semantic`).
 */
export function scoreParts(r) {
  const parts = r.scores && typeof r.scores === 'object' ? r.scores : {};
  const lexical = [parts.lexical, r.lexicalScore, r.lexical].find(v => typeof v === 'number');
  const semantic = [parts.semantic, r.semanticScore, r.semantic].find(v => typeof v === 'number');
  return {lexical, semantic};
}

/** The list item of one hit; `link` is the address that opens it in its source. */
export function hitItem(r, link, opened) {
  const {lexical, semantic} = scoreParts(r);
  const page = pageLabel(r.pages);
  return h('li', {class: opened ? 'hit opened' : 'hit', 'data-source': r.source, 'data-chunk': r.chunk,
    id: `hit-${r.chunk}-${r.source}`},
  h('h3', {}, link ? h('a', {href: link, class: 'open-hit'}, r.title || r.source) : (r.title || r.source)),
  h('div', {class: 'facts'},
    h('span', {class: 'mono source-id'}, r.source),
    page ? h('span', {class: 'page'}, page) : null,
    h('span', {}, `chunk ${r.chunk}`),
    h('span', {class: 'score'}, `score ${score(r.score)}`),
    lexical !== undefined ? h('span', {class: 'lexical'}, `lexical ${score(lexical)}`) : null,
    semantic !== undefined ? h('span', {class: 'semantic'}, `semantic ${score(semantic)}`) : null,
    h('span', {}, `source revision ${num(r.sourceRevision)}`),
    r.mediaType ? h('span', {}, r.mediaType) : null),
  h('p', {class: 'passage'}, highlighted(r.text || '', r.highlights)),
  r.metadata && Object.keys(r.metadata).length
    ? h('div', {class: 'meta'}, Object.entries(r.metadata).map(([k, v]) =>
      h('span', {class: 'pill'}, `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)))
    : null);
}
