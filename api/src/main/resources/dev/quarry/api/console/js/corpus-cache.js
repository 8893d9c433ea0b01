// What the console keeps of the corpora while the page is open: the list the corpus pickers offer
// and each corpus's corpora/read answer (its settings decide, for one, whether search offers a
// mode), so a search or a facet click does not ask for them again. They change rarely, and only
// by someone's deliberate act, so they are read again when it matters instead of every time:
// on the corpora view, when the user picks another corpus, after signing in again, and when an
// answer shows that a corpus was deleted or replaced (see staleAfter).
import * as api from './api.js';

/** Error codes that mean what is kept of a corpus may be wrong: it is gone, replaced, or no longer granted. */
const STALE_CODES = new Set(['CORPUS_NOT_FOUND', 'CORPUS_REPLACED', 'FORBIDDEN']);

/** Every corpus the token has a grant on, as corpora/list gives them, or null until read. */
let list = null;
/** corpora/read answers by corpus name. */
const read = new Map();

/** Forgets everything kept: the next picker lists the corpora again and each corpus is read again. */
export function forgetCorpora() {
  list = null;
  read.clear();
}

/** Forgets one corpus's settings: the next use reads it again. */
export function forgetCorpus(name) {
  read.delete(name);
}

/**
 * Every corpus the token has a grant on (following cursors), in the server's order. Kept; listed
 * again when `mustList` is absent from what is kept (a corpus created since, named in an address).
 */
export async function corpusList(mustList) {
  if (!list || (mustList && !list.some(c => c.corpus === mustList))) {
    list = await listAll();
  }
  return list;
}

async function listAll() {
  const out = [];
  let cursor;
  do {
    const page = await api.call('corpora/list', cursor ? {cursor, limit: 1000} : {limit: 1000});
    out.push(...page.corpora);
    cursor = page.nextCursor;
  } while (cursor && out.length < 10000);
  return out;
}

/** The corpus's corpora/read answer (corpusId, settings, ...), read once and kept. */
export async function corpusInfo(name) {
  if (!read.has(name)) {
    try {
      read.set(name, await api.call('corpora/read', {corpus: name}));
    } catch (e) {
      staleAfter(e);
      throw e;
    }
  }
  return read.get(name);
}

/**
 * Forgets what is kept when an error says a corpus is gone, replaced or out of the grants; true
 * when it did. Other errors (a malformed request, a busy server) say nothing about the corpora.
 */
export function staleAfter(error) {
  if (!STALE_CODES.has(error.code)) return false;
  forgetCorpora();
  return true;
}
