// DOM helpers. Every value from the server becomes a text node or an attribute value, never markup:
// nothing in this console assigns innerHTML, and the Content-Security-Policy's Trusted Types
// requirement makes the browser refuse it if anything ever tried.

/**
 * Builds an element: h('a', {href: '#/x', class: 'c', onclick: fn}, 'text', child, [more]).
 * Props named on* become listeners; `text` sets textContent; false/null/undefined props are skipped.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key === 'class') {
      el.className = value;
    } else if (key === 'value') {
      el.value = value;
    } else if (key === 'checked' || key === 'disabled' || key === 'hidden' || key === 'multiple') {
      el[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends strings (as text), nodes and nested arrays; skips null, undefined and false. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Empties a node and fills it again. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** A labelled form control: the label wraps it, so clicking the label focuses it. */
export function field(labelText, control, extraClass) {
  return h('label', {class: extraClass}, labelText, control);
}

/**
 * The passage text with each [start, end) highlight range (UTF-16 units, as the API counts them)
 * wrapped in <mark>. Ranges that are out of order, overlapping or out of bounds are skipped.
 */
export function highlighted(text, ranges) {
  const out = [];
  let at = 0;
  for (const range of ranges || []) {
    const [start, end] = range;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue;
    out.push(text.slice(at, start), h('mark', {}, text.slice(start, end)));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

/** A Markdown ATX heading's marker at a line's start: one to six #, then a space or the line's end. */
const HEADING_MARKER = /^#{1,6}(?:[ \t]+|$)/;

/**
 * A passage's text as `highlighted` gives it, with each Markdown heading line (`## Title`) shown
 * as a heading (its # marker hidden, the line in bold) rather than raw; the highlight ranges keep
 * counting the passage's own UTF-16 units. `atLineStart` says whether the text's first character
 * begins a line of the source (false for a window cut from inside a line).
 */
export function passageText(text, ranges, atLineStart = true) {
  const out = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const marker = lineStart > 0 || atLineStart ? HEADING_MARKER.exec(line) : null;
    const from = lineStart + (marker ? marker[0].length : 0);
    // This line's highlights, clipped to it and counted from where its shown text starts.
    const inLine = (ranges || []).filter(r => Array.isArray(r) && r[1] > from && r[0] < lineEnd)
      .map(([start, end]) => [Math.max(start, from) - from, Math.min(end, lineEnd) - from]);
    const shown = highlighted(text.slice(from, lineEnd), inLine);
    out.push(marker && from < lineEnd ? h('strong', {class: 'md-heading'}, shown) : shown);
    if (newline < 0) break;
    out.push('\n');
    lineStart = newline + 1;
  }
  return out;
}

/** Bidirectional controls (Unicode's Bidi_Control): they reorder how the text around them reads. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * An id (a source's, a job's) as text to show, with each bidirectional control written out as
 * \u202E: such a character would make `x` + U+202E + `gnp.exe` read as `xexe.png`. The server
 * refuses them in new ids; one stored before that rule still reaches the console. Links and API
 * calls keep the id as it is.
 */
export function shownId(id) {
  return String(id).replace(BIDI_CONTROLS, c => '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
}

/** A definition list from [term, value] pairs; values may be nodes; empty values are skipped. */
export function facts(pairs) {
  const dl = h('dl', {class: 'kv'});
  for (const [term, value] of pairs) {
    if (value === null || value === undefined || value === '') continue;
    dl.append(h('dt', {}, term), h('dd', {}, value));
  }
  return dl;
}

/** Bytes in words: 1.2 MB. */
export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A time from the API (ISO-8601 UTC) in the reader's locale, with the exact value on hover. */
export function time(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return h('time', {datetime: iso, title: iso}, Number.isNaN(d.getTime()) ? iso : d.toLocaleString());
}

/** Whole numbers with the reader's separators. */
export function num(n) {
  return typeof n === 'number' ? n.toLocaleString() : '';
}
