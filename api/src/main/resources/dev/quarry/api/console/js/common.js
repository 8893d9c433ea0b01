// Pieces several screens share: addresses and the pager, the corpus picker, the typed confirmation,
// the copyable command.
import {corpusList, forgetCorpus} from './corpus-cache.js';
import {h} from './dom.js';

/** A view's address (#/view?param=value); parameters with empty values are left out. */
export function address(view, params = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== null && v !== undefined && v !== '') query.set(k, String(v));
  }
  return `#/${view}${query.size ? '?' + query : ''}`;
}

/**
 * The links of a keyset-paged list at `view` with parameters `here`: back to the first page when
 * `cursor` (the page shown) is one further on, and on to `nextCursor` when there is more.
 */
export function pager(view, here, cursor, nextCursor) {
  return h('nav', {class: 'pager', 'aria-label': 'Pages'},
    cursor ? h('a', {href: address(view, here)}, 'First page') : null,
    nextCursor ? h('a', {id: 'next-page', href: address(view, {...here, cursor: nextCursor})}, 'Next page') : null);
}

/**
 * A labelled <select> of the corpora the token may use with `allowed(name)`; calls onChange(name).
 * With nothing to choose, it says so instead. With `anyLabel`, its first option (value '') stands
 * for every corpus and is chosen unless `selected` names one. The corpora are the kept list
 * (corpus-cache.js); picking another corpus forgets that corpus's kept settings, so the view it
 * opens reads them fresh.
 */
export async function corpusPicker(ctx, selected, allowed, onChange, anyLabel) {
  const corpora = (await corpusList(selected)).filter(c => allowed(c.corpus));
  if (!corpora.length && !anyLabel) {
    return {node: h('p', {class: 'banner info'}, 'No corpus you may use here yet.'), value: null};
  }
  const value = corpora.some(c => c.corpus === selected) ? selected : anyLabel ? '' : corpora[0].corpus;
  const select = h('select', {id: 'corpus', name: 'corpus', onchange: () => {
    forgetCorpus(select.value);
    onChange(select.value);
  }},
  anyLabel ? h('option', {value: ''}, anyLabel) : null,
  corpora.map(c => h('option', {value: c.corpus, selected: c.corpus === value}, c.corpus)));
  select.value = value;
  return {node: h('label', {}, 'Corpus', select), value, select};
}

/**
 * A confirmation that asks the user to type `expected` before the button works: for what cannot be
 * undone (deleting a corpus, purging a source).
 */
export function typedConfirmation(what, expected, buttonText, onConfirm, onCancel) {
  const input = h('input', {type: 'text', id: 'confirm-text', autocomplete: 'off', spellcheck: 'false'});
  const button = h('button', {type: 'submit', class: 'danger', disabled: true}, buttonText);
  input.addEventListener('input', () => { button.disabled = input.value !== expected; });
  const form = h('form', {class: 'card confirm', role: 'group', 'aria-label': buttonText, onsubmit: e => {
    e.preventDefault();
    if (input.value === expected) onConfirm();
  }},
  h('p', {}, what),
  h('label', {}, ['Type ', h('code', {}, expected), ' to confirm'], input),
  h('div', {class: 'row'}, button, h('button', {type: 'button', onclick: onCancel}, 'Cancel')));
  queueMicrotask(() => input.focus());
  return form;
}

/** A command in a dark box with a Copy button. */
export function copyable(command, label) {
  const pre = h('pre', {class: 'curl', tabindex: '0', 'aria-label': label}, command);
  const status = h('span', {class: 'muted', role: 'status'});
  const copy = h('button', {type: 'button', onclick: async () => {
    try {
      await navigator.clipboard.writeText(command);
      status.textContent = 'Copied.';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      status.textContent = 'Selected: press Ctrl+C to copy.';
    }
  }}, 'Copy');
  return h('div', {class: 'copyable'}, pre, h('div', {class: 'row'}, copy, status));
}
