// One search result as the API gives it: title, section, source, pages, highlighted passage, score.
import {h, num, passageText, shownId} from './dom.js';

/** "p. 4" or "pp. 4–5", or null for formats without pages. */
export function pageLabel(pages) {
  if (!pages) return null;
  return pages.from === pages.to ? `p. ${pages.from}` : `pp. ${pages.from}–${pages.to}`;
}

function score(n) {
  return typeof n === 'number' ? n.toFixed(4) : null;
}

/**
 * The lexical and semantic parts behind a semantic or hybrid score, as the server sends them:
 * `parts: {lexical: {score, rank}, semantic: {score, rank}}` (either side absent when it did not
 * see the chunk). Each is `{score, rank}` or undefined.
 */
export function scoreParts(r) {
  const parts = r.parts && typeof r.parts === 'object' ? r.parts : {};
  const side = s => (s && typeof s.score === 'number' ? {score: s.score, rank: s.rank} : undefined);
  return {lexical: side(parts.lexical), semantic: side(parts.semantic)};
}

function partLabel(name, part) {
  return `${name} ${score(part.score)}${typeof part.rank === 'number' ? ` (#${part.rank})` : ''}`;
}

/** "Handbook › Leave › Requests": the headings above the passage, or null when it has none. */
export function sectionLabel(section) {
  return Array.isArray(section) && section.length ? section.join(' › ') : null;
}

/** Each metadata entry as a pill (`dept: hr`; a list's values joined), or null when there are none. */
export function metadataPills(metadata) {
  return metadata && Object.keys(metadata).length
    ? Object.entries(metadata).map(([k, v]) => h('span', {class: 'pill'}, `${k}: ${Array.isArray(v) ? v.join(', ') : v}`))
    : null;
}

/**
 * The hit's snippet (its matches marked from the snippet's own ranges, never from the server's
 * HTML form) with the whole passage folded beneath it; the whole passage alone when the hit has no
 * snippet or the snippet is the whole passage.
 */
function passageNodes(r) {
  const text = r.text || '';
  const s = r.snippet;
  const passage = h('p', {class: 'passage'}, passageText(text, r.highlights));
  if (!s || typeof s.text !== 'string' || (s.start === 0 && s.end === text.length)) return passage;
  return [
    h('p', {class: 'snippet'}, s.start > 0 ? '…' : null,
      passageText(s.text, s.highlights, s.start === 0 || text[s.start - 1] === '\n'), s.end < text.length ? '…' : null),
    h('details', {class: 'whole'}, h('summary', {}, 'Whole passage'), passage),
  ];
}

/** The list item of one hit; `link` is the address that opens it in its source. */
export function hitItem(r, link, opened) {
  const {lexical, semantic} = scoreParts(r);
  const page = pageLabel(r.pages);
  const section = sectionLabel(r.section);
  const pills = metadataPills(r.metadata);
  return h('li', {class: opened ? 'hit opened' : 'hit', 'data-source': r.source, 'data-chunk': r.chunk,
    id: `hit-${r.chunk}-${r.source}`},
  h('h3', {}, link ? h('a', {href: link, class: 'open-hit'}, r.title || shownId(r.source)) : (r.title || shownId(r.source))),
  section ? h('div', {class: 'section', title: 'The headings above this passage'}, section) : null,
  h('div', {class: 'facts'},
    h('span', {class: 'mono source-id'}, shownId(r.source)),
    page ? h('span', {class: 'page'}, page) : null,
    h('span', {}, `chunk ${r.chunk}`),
    h('span', {class: 'score'}, `score ${score(r.score)}`),
    lexical ? h('span', {class: 'lexical'}, partLabel('lexical', lexical)) : null,
    semantic ? h('span', {class: 'semantic'}, partLabel('semantic', semantic)) : null,
    h('span', {}, `source revision ${num(r.sourceRevision)}`),
    r.mediaType ? h('span', {}, r.mediaType) : null),
  passageNodes(r),
  pills ? h('div', {class: 'meta'}, pills) : null);
}
