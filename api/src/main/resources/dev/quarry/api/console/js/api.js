// The console's only way to the server: the public HTTP API, with the signed-in bearer token.
import {token} from './session.js';

export const VERSION = '1.0';

/** An answer in the contract's error envelope (or a failure to reach the server at all). */
export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'HTTP_' + status;
    this.field = error.field;
    this.retryable = Boolean(error.retryable);
    this.outcome = error.outcome;
  }
}

function headers(json) {
  const out = {'AgenticDriver-Version': VERSION};
  const t = token();
  if (t) out.Authorization = `Bearer ${t}`;
  if (json) out['Content-Type'] = 'application/json';
  return out;
}

async function parse(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (body && body.error) || {message: `HTTP ${response.status}`});
  }
  return body;
}

async function send(path, init) {
  let response;
  try {
    response = await fetch(path, {...init, cache: 'no-store', credentials: 'omit', redirect: 'error'});
  } catch (e) {
    throw new ApiError(0, {code: 'NETWORK', message: 'The server could not be reached: ' + e.message, retryable: true});
  }
  return parse(response);
}

/** POST /v1/retrieval/<endpoint> with a JSON body. */
export function call(endpoint, body) {
  return send(`/v1/retrieval/${endpoint}`, {method: 'POST', headers: headers(true), body: JSON.stringify(body)});
}

/** GET /v1/protocol (any valid token). */
export function protocol() {
  return send('/v1/protocol', {method: 'GET', headers: headers(false)});
}

/** GET /healthz (no token). */
export function health() {
  return send('/healthz', {method: 'GET', headers: {'AgenticDriver-Version': VERSION}});
}

/**
 * POST /v1/retrieval/ingest, multipart: the request part and the file. Uses XMLHttpRequest, the
 * one browser API that reports upload progress: onProgress(sentFraction) while the bytes go out.
 */
export function ingest(request, file, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('request', new Blob([JSON.stringify(request)], {type: 'application/json'}));
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/retrieval/ingest');
    for (const [name, value] of Object.entries(headers(false))) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.onprogress = e => { if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total); };
    xhr.upload.onload = () => onProgress && onProgress(1);
    xhr.onload = () => {
      const body = xhr.response;
      if (xhr.status === 200) resolve(body);
      else reject(new ApiError(xhr.status, (body && body.error) || {message: `HTTP ${xhr.status}`}));
    };
    xhr.onerror = () => reject(new ApiError(0, {code: 'NETWORK', message: 'The upload was interrupted.', retryable: true}));
    xhr.send(form);
  });
}

/** A shell-safe single-quoted word. */
function quote(s) {
  return `'${String(s).replaceAll("'", `'"'"'`)}'`;
}

/**
 * The same request as a curl command to paste in a shell. The token is left as $QUARRY_TOKEN,
 * so copying the command never copies the secret.
 */
export function curl(endpoint, body) {
  const url = new URL(`/v1/retrieval/${endpoint}`, location.origin).href;
  return `curl -s -H "Authorization: Bearer $QUARRY_TOKEN" -H 'Content-Type: application/json' \\\n  ${quote(url)} \\\n  -d ${quote(JSON.stringify(body))}`;
}
