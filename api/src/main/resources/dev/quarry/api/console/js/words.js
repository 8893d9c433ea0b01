// Errors in words: what went wrong and what to do, with the stable code beside for support.
import {h} from './dom.js';

const SENTENCES = {
  UNAUTHENTICATED: 'The token is not valid (or no longer is). Sign in again with a valid token.',
  FORBIDDEN: "Your token's grants do not allow this.",
  CORPUS_NOT_FOUND: 'There is no such corpus.',
  SOURCE_NOT_FOUND: 'There is no such source at the latest revision.',
  CORPUS_EXISTS: 'A corpus with that name already exists.',
  CORPUS_REPLACED: 'The corpus was deleted and created again since this page loaded.',
  REVISION_CONFLICT: 'The source changed in the meantime.',
  REVISION_EXPIRED: 'That revision is older than the server retains.',
  CURSOR_EXPIRED: 'That part of the history is older than the server retains.',
  UNSUPPORTED_MEDIA_TYPE: 'This kind of file cannot be read.',
  DOCUMENT_TOO_LARGE: 'The document is over a size limit.',
  EXTRACTION_FAILED: 'The document is damaged or could not be read.',
  DOCUMENT_ENCRYPTED: 'The document is protected by a password.',
  NO_TEXT_EXTRACTED: 'No text was found in the document (a scan without OCR?).',
  PDF_INGESTION_UNAVAILABLE: 'This server does not ingest PDFs.',
  INGESTION_UNAVAILABLE: 'This server does not ingest documents.',
  INGESTION_JOBS_UNAVAILABLE: 'This server runs no ingestion jobs.',
  JOB_NOT_FOUND: 'There is no such job (or it was removed, or it is not yours).',
  JOB_CLOSED: 'The job no longer takes files.',
  JOB_TOO_LARGE: 'The job is over its size limit.',
  INDEXING_UNAVAILABLE: 'This server does not index sources.',
  RETRIEVAL_UNAVAILABLE: 'This server does not answer searches.',
  REQUEST_TOO_LARGE: 'The request is too large.',
  CAPACITY: 'The server is busy right now. Try again in a moment.',
  UNAVAILABLE: 'The server could not complete this right now. Try again.',
  INTERNAL: 'The server failed unexpectedly. Quote the reference below to its operator.',
  NETWORK: 'The server could not be reached.',
};

/** One sentence for an ApiError (or any error). */
export function sentence(error) {
  if (error.code === 'INVALID_REQUEST') {
    return error.field ? `The value of ${error.field} is not valid.` : 'The request is not valid.';
  }
  return SENTENCES[error.code] || 'The request failed.';
}

/**
 * The error's lead sentence and the server's message beside it, or null when it would only say the
 * lead again. A refused value's message already names the field and says what is wrong with it
 * ("facets may have at most 8 entries; got 9"), so it is the lead itself: a generic "The value of
 * facets is not valid." before it would say the refusal twice.
 */
function leadAndDetail(error) {
  const lead = error.code === 'INVALID_REQUEST' && error.message ? error.message : sentence(error);
  return {lead, detail: error.message && error.message !== lead ? error.message : null};
}

/** An error on one line (one file's outcome in a list): the sentence, the server's message, the code. */
export function errorLine(error) {
  const {lead, detail} = leadAndDetail(error);
  return [h('strong', {}, lead), ' ', detail ? h('span', {class: 'detail'}, detail) : null, ' ',
    h('code', {class: 'code'}, error.code)];
}

/** An error as a block: the sentence, the server's own message, the code and the status. */
export function errorBlock(error) {
  const {lead, detail} = leadAndDetail(error);
  return h('div', {class: 'banner error', role: 'alert', 'data-field': error.field || null},
    h('strong', {}, lead), ' ',
    detail ? h('span', {class: 'detail'}, detail) : null, ' ',
    h('code', {class: 'code'}, error.code || 'ERROR'),
    error.status ? h('span', {class: 'muted'}, ` (HTTP ${error.status})`) : null,
    error.outcome === 'uncertain' ? h('p', {}, 'The outcome is uncertain: read the source to see whether it took effect.') : null);
}
