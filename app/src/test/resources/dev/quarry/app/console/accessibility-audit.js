// What an accessibility audit needs from the page as shown, run by PageAudit through Selenium's
// executeScript (this file is the body of that function). It only reads the page: the colour
// arithmetic is done in Java (Contrast), the verdicts in the test.
//
// Returns {controls: count, unnamed: [selector], texts: [{selector, text, color, backgrounds, fontSize, fontWeight}],
//          structure: [problem]}.

/** A selector that finds the element again: its id, or its path from the nearest ancestor with one. */
function selectorOf(el) {
  const parts = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    if (e.id) {
      parts.unshift('#' + CSS.escape(e.id));
      break;
    }
    let part = e.localName + [...e.classList].map(c => '.' + CSS.escape(c)).join('');
    const twins = e.parentElement ? [...e.parentElement.children].filter(s => s.localName === e.localName) : [];
    if (twins.length > 1) part += `:nth-of-type(${twins.indexOf(e) + 1})`;
    parts.unshift(part);
    if (e.localName === 'body') break;
  }
  return parts.join(' > ');
}

/**
 * Shown to a sighted reader: rendered, not hidden, inside no closed disclosure, and not moved off
 * the page's top or left edge (as a skip link waiting for focus is).
 */
function shown(el) {
  if (!el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) return false;
  const closed = el.closest('details:not([open])');
  if (closed && !(el.localName === 'summary' && el.parentElement === closed) && !el.closest('summary')) return false;
  const rects = el.getClientRects();
  if (!rects.length) return false;
  const r = el.getBoundingClientRect();
  return r.right + scrollX > 0 && r.bottom + scrollY > 0 && r.width > 0 && r.height > 0;
}

/** A label's words, without the text of the controls it wraps (a wrapped select's options are not a name). */
function labelWords(label) {
  let words = '';
  const walk = node => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) words += child.textContent;
      else if (child.nodeType === 1 && !child.matches('input, select, textarea, button')) walk(child);
    }
  };
  walk(label);
  return words.trim();
}

const OWN_TEXT_NAMES = 'button, a[href], summary, [role=button], [role=link]';

/** Whether a control has an accessible name of one of the kinds the console uses. */
function named(el) {
  if ((el.getAttribute('aria-label') || '').trim()) return true;
  const by = (el.getAttribute('aria-labelledby') || '').trim();
  if (by && by.split(/\s+/).some(id => {
    const target = document.getElementById(id);
    return target && target.textContent.trim();
  })) return true;
  if (el.labels && [...el.labels].some(l => labelWords(l))) return true;
  if (el.matches(OWN_TEXT_NAMES)) {
    if ((el.innerText || '').trim()) return true;
    if ([...el.querySelectorAll('img[alt]')].some(img => img.alt.trim())) return true;
  }
  if (el.matches('input[type=submit], input[type=button], input[type=reset]') && el.value.trim()) return true;
  return false;
}

/** The interactive controls shown: the ones that need a name. */
function controls() {
  return [...document.querySelectorAll(
    'input:not([type=hidden]), select, textarea, button, a[href], summary, [tabindex]:not([tabindex="-1"])')]
    .filter(shown);
}

/** Whether the element has text of its own (a text node child with more than white space). */
function ownText(el) {
  return [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
}

/** The background colours from the element up to the first opaque one, nearest first. */
function backgrounds(el) {
  const out = [];
  for (let e = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    out.push(bg);
    const alpha = bg.match(/rgba\([^)]*,\s*([\d.]+)\)/);
    if (!alpha || Number(alpha[1]) >= 1) break;
  }
  return out;
}

/** One piece of text: where it is, what it says, and what decides its contrast. */
function textOf(el, text, style) {
  return {
    selector: selectorOf(el),
    text: text.trim().slice(0, 40),
    color: style.color,
    backgrounds: backgrounds(el),
    fontSize: parseFloat(style.fontSize),
    fontWeight: Number(style.fontWeight) || 400,
  };
}

/**
 * Every piece of text shown, with what decides its contrast. Form fields count with the colour of
 * the value typed in them, and an empty field with its placeholder's. Disabled controls are left
 * out: WCAG exempts inactive controls.
 */
function texts() {
  const fields = 'input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]):not([type=range]), select, textarea';
  return [...document.body.querySelectorAll('*')]
    .filter(el => (ownText(el) || el.matches(fields)) && !el.matches('option, script, style, noscript'))
    .filter(el => shown(el) && !el.closest(':disabled'))
    .flatMap(el => {
      if (!el.matches(fields)) return [textOf(el, el.textContent, getComputedStyle(el))];
      const out = [textOf(el, el.value || el.localName, getComputedStyle(el))];
      if (el.placeholder && !el.value) {
        out.push(textOf(el, 'placeholder ' + el.placeholder, getComputedStyle(el, '::placeholder')));
      }
      return out;
    });
}

/** The page's outline: one main, a language, alternatives for images, headings that do not skip a level. */
function structure() {
  const problems = [];
  const mains = document.querySelectorAll('main').length;
  if (mains !== 1) problems.push(`${mains} <main> elements, not one`);
  if (!(document.documentElement.getAttribute('lang') || '').trim()) problems.push('<html> has no lang');
  for (const img of document.querySelectorAll('img:not([alt])')) problems.push(`image without alt: ${selectorOf(img)}`);
  let level = 0;
  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    if (heading.closest('[hidden]') || !heading.getClientRects().length && !heading.closest('details')) continue;
    const next = Number(heading.localName.slice(1));
    if (next > level + 1) {
      problems.push(`<${heading.localName}> "${heading.textContent.trim().slice(0, 40)}" follows `
        + (level ? `an <h${level}>` : 'no heading') + `: ${selectorOf(heading)}`);
    }
    level = next;
  }
  return problems;
}

const shownControls = controls();
return {
  controls: shownControls.length,
  unnamed: shownControls.filter(el => !named(el)).map(selectorOf),
  texts: texts(),
  structure: structure(),
};
