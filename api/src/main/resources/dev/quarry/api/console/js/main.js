// The console's shell: sign-in, navigation, and a hash router (#/view?param=value) so every screen
// has an address that survives a reload without the token ever entering a URL.
import * as api from './api.js';
import {h, replace} from './dom.js';
import {address} from './common.js';
import {forgetCorpora} from './corpus-cache.js';
import {forgetFacetCounts} from './facet-counts.js';
import {Grants} from './grants.js';
import * as session from './session.js';
import {errorBlock} from './words.js';
import {corporaView} from './view-corpora.js';
import {searchView} from './view-search.js';
import {sourcesView} from './view-sources.js';
import {sourceView} from './view-source.js';
import {ingestView} from './view-ingest.js';
import {historyView} from './view-history.js';
import {statusView} from './view-status.js';
import {jobsView} from './view-jobs.js';

const VIEWS = {
  corpora: corporaView, search: searchView, sources: sourcesView, source: sourceView,
  ingest: ingestView, jobs: jobsView, history: historyView, status: statusView,
};

const main = document.getElementById('view');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
let ctx = null;
let rendering = 0;
/** An error to show on the sign-in screen (a token the server refused). */
let signInError = null;
/** Whether the next address change came from go(), whose caller may just have flashed a message. */
let keepFlash = false;
/** The view shown last, so that showing it again (a new search, another filter) keeps the keyboard's place. */
let shownView = null;

/** The current address: view name and parameters. */
function location_() {
  const hash = location.hash.replace(/^#\/?/, '');
  const at = hash.indexOf('?');
  const name = at < 0 ? hash : hash.slice(0, at);
  return {name: name || 'corpora', params: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1))};
}

/** Goes to a view; parameters with empty values are left out of the address. */
export function go(name, params = {}) {
  const hash = address(name, params);
  if (location.hash === hash) {
    render();
  } else {
    keepFlash = true;
    location.hash = hash;
  }
}

/** A short message under the header, replaced by the next one. */
function flash(node) {
  replace(document.getElementById('flash'), node || '');
}

/**
 * Focuses the element with `id` as soon as the view being rendered shows it again, unless the
 * view has put the focus somewhere already. Re-rendering replaces every node, so without this a
 * keyboard user who pressed Enter in the query box would find the focus back at the page's top.
 * Returns the function that stops watching.
 */
function keepFocusOn(id) {
  const refocus = () => {
    const el = document.getElementById(id);
    if (!el || !main.contains(el)) return false;
    if (!document.activeElement || document.activeElement === document.body) el.focus();
    return true;
  };
  const observer = new MutationObserver(() => {
    if (refocus()) observer.disconnect();
  });
  observer.observe(main, {childList: true, subtree: true});
  return () => observer.disconnect();
}

/** Forgets what the console kept for the token signed in: another token may have other grants. */
function forgetKept() {
  forgetCorpora();
  forgetFacetCounts();
}

function signOut(error) {
  session.forget();
  forgetKept();
  ctx = null;
  signInError = error || null;
  go('signin');
}

function signInView(error) {
  const input = h('input', {type: 'password', id: 'token', name: 'token', autocomplete: 'off', required: true,
    spellcheck: 'false', 'aria-describedby': 'token-help'});
  const form = h('form', {class: 'card', id: 'sign-in', onsubmit: async e => {
    e.preventDefault();
    session.remember(input.value.trim());
    forgetKept();
    ctx = null;
    const target = location_();
    go(target.name === 'signin' ? 'corpora' : target.name, Object.fromEntries(target.params));
  }},
  h('h1', {}, 'Sign in to Quarry'),
  h('label', {for: 'token'}, 'Bearer token'), input,
  h('p', {id: 'token-help', class: 'muted'},
    'The token stays in this browser tab (session storage) and is sent only to this server, in the Authorization header.'),
  h('p', {}, h('button', {type: 'submit', class: 'primary'}, 'Sign in')));
  replace(main, error ? errorBlock(error) : null, form);
  input.focus();
}

async function loadContext() {
  const [whoami, protocol] = await Promise.all([api.call('whoami', {}), api.protocol()]);
  return {grants: new Grants(whoami), protocol, go, flash, signOut};
}

/** Hides the menu entries the token's grants (or the server's features) leave nothing to do in. */
function offerOnlyWhatIsGranted(c) {
  const g = c.grants;
  const features = c.protocol.features || [];
  const offered = {
    search: g.anywhere('search') && features.includes('scoped-retrieval'),
    sources: g.anywhere('search') || g.anywhere('index'),
    ingest: g.anywhere('index') && features.includes('document-ingestion'),
    jobs: g.anywhere('index') && features.includes('ingestion-jobs'),
    history: g.anywhere('index'),
  };
  for (const a of nav.querySelectorAll('a')) {
    a.hidden = offered[a.dataset.view] === false;
  }
}

async function render() {
  const ticket = ++rendering;
  const {name, params} = location_();
  if (!session.token()) {
    nav.hidden = true;
    who.hidden = true;
    signInView(signInError);
    signInError = null;
    return;
  }
  if (!ctx) {
    try {
      ctx = await loadContext();
    } catch (e) {
      if (e.status === 401) {
        session.forget();
        nav.hidden = true;
        who.hidden = true;
        signInView(e);
      } else {
        replace(main, errorBlock(e));
      }
      return;
    }
    document.getElementById('who-subject').textContent = ctx.grants.subject;
    offerOnlyWhatIsGranted(ctx);
    nav.hidden = false;
    who.hidden = false;
  }
  if (ticket !== rendering) return;
  const view = VIEWS[name] || VIEWS.corpora;
  for (const a of nav.querySelectorAll('a')) {
    if (a.dataset.view === name || (name === 'source' && a.dataset.view === 'sources')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const focused = document.activeElement;
  const stopKeepingFocus = name === shownView && focused && focused.id && main.contains(focused)
    ? keepFocusOn(focused.id) : () => {};
  shownView = name;
  replace(main, h('p', {class: 'muted'}, 'Loading…'));
  try {
    await view(main, {...ctx, params, current: () => ticket === rendering});
  } catch (e) {
    if (e.status === 401) {
      signOut(e);
      return;
    }
    if (ticket === rendering) replace(main, errorBlock(e));
  } finally {
    stopKeepingFocus();
  }
}

document.getElementById('sign-out').addEventListener('click', () => signOut(null));
window.addEventListener('hashchange', () => {
  if (!keepFlash) flash(null);
  keepFlash = false;
  render();
});
render();
