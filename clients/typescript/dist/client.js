import { QuarryError, isObject } from './errors.js';
import { runEvents } from './events.js';
import { POST_PATHS, } from './types.js';
/** The wire version this client speaks; every request says it, and an answer selecting another is refused. */
export const WIRE_VERSION = '1.0';
const ENDED_JOB_STATES = new Set(['completed', 'cancelled', 'failed']);
/**
 * A client of one Quarry server with one token. Each method is named after the operationId of its
 * endpoint in the server's OpenAPI document, takes that endpoint's request body and answers its
 * response body, as the document's types say. Answers are read tolerantly (fields this client does
 * not know pass through untouched); requests are written strictly (a `null` anywhere, or an
 * `undefined` inside a list, is a TypeError before anything is sent; an `undefined` field is left
 * out). A refusal or failure is a {@link QuarryError}. One instance may serve any number of
 * concurrent calls.
 */
export class QuarryClient {
    #base;
    #token;
    #timeoutMs;
    #fetch;
    constructor(options) {
        const url = new URL(options.url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
            throw new TypeError(`url must be http or https, not ${url.protocol}`);
        }
        if (typeof options.token !== 'string' || !/^[\x21-\x7e]+$/.test(options.token)) {
            throw new TypeError('token must be a nonempty string of visible ASCII characters');
        }
        if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
            throw new TypeError(`timeoutMs must be a positive integer, not ${options.timeoutMs}`);
        }
        this.#base = url.href.replace(/\/+$/, '');
        this.#token = options.token;
        this.#timeoutMs = options.timeoutMs;
        this.#fetch = options.fetch ?? globalThis.fetch;
    }
    // ----- the server and the token
    /** `GET /v1/protocol`: the wire version, the features switched on and every limit. */
    protocol(options) {
        return this.#json('GET', '/v1/protocol', undefined, options);
    }
    /** The token's own subject and grants, as the server reads them. */
    whoami(options) {
        return this.#post('whoami', {}, options);
    }
    /** `GET /v1/openapi.yaml`: the OpenAPI document this client's types were generated from, as the server serves it. */
    async openApiDocument(options) {
        const res = await this.#send('GET', '/v1/openapi.yaml', undefined, options, false);
        return res.text;
    }
    // ----- corpora
    createCorpus(request, options) {
        return this.#post('createCorpus', request, options);
    }
    readCorpus(request, options) {
        return this.#post('readCorpus', request, options);
    }
    /** One page of the corpora the token has a grant on; `nextCursor` is present when more follow. */
    listCorpora(request = {}, options) {
        return this.#post('listCorpora', request, options);
    }
    /** Every corpus the token has a grant on, fetching pages as they are consumed. */
    async *corpora(options) {
        let cursor;
        do {
            const page = await this.listCorpora(cursor === undefined ? {} : { cursor }, options);
            yield* page.corpora;
            cursor = page.nextCursor;
        } while (cursor !== undefined);
    }
    deleteCorpus(request, options) {
        return this.#post('deleteCorpus', request, options);
    }
    /** One page of the corpus's history in revision order; `nextAfter` is present when more follow. */
    history(request, options) {
        return this.#post('history', request, options);
    }
    // ----- sources
    /** Index text the application already has; the receipt is sent once the change is durable and searchable. */
    indexSource(request, options) {
        return this.#post('indexSource', request, options, true);
    }
    deleteSource(request, options) {
        return this.#post('deleteSource', request, options, true);
    }
    /** Many index and delete operations applied atomically at one revision. */
    batch(request, options) {
        return this.#post('batch', request, options, true);
    }
    readSource(request, options) {
        return this.#post('readSource', request, options);
    }
    /** One page of a source's chunks, at the latest or a pinned revision. */
    readChunks(request, options) {
        return this.#post('readChunks', request, options);
    }
    /** One page of sources in name order; `nextCursor` is present when more follow. */
    listSources(request, options) {
        return this.#post('listSources', request, options);
    }
    /** Every source of a corpus (under `prefix`, when given) that the token may see, page by page. */
    async *sources(corpus, prefix, options) {
        let cursor;
        do {
            const page = await this.listSources({ corpus, prefix, cursor }, options);
            yield* page.sources;
            cursor = page.nextCursor;
        } while (cursor !== undefined);
    }
    /**
     * Turn one document file into a source (`multipart/form-data`). The receipt's `contentSha256` is
     * checked against the bytes sent (QuarryError `INVALID_RESPONSE` when they differ).
     */
    async ingest(request, file, options) {
        const bytes = await toBytes(file.data);
        const form = new FormData();
        form.append('request', jsonPart(request));
        form.append('file', new Blob([bytes]), file.filename ?? lastSegment(request.source));
        const receipt = await this.#postPath(POST_PATHS.ingest, { form }, options, true);
        const sent = await sha256(bytes);
        if (receipt.contentSha256 !== sent) {
            throw new QuarryError(`the receipt's contentSha256 ${receipt.contentSha256} is not the hash of the bytes sent (${sent})`, { code: 'INVALID_RESPONSE', status: 200, uncertain: true });
        }
        return receipt;
    }
    // ----- search and runs
    /** Search one corpus, at its latest revision or the pinned `revision`. */
    search(request, options) {
        return this.#post('search', request, options);
    }
    /** A retrieval run answered once it ends (`stream` is sent as false). */
    run(request, options) {
        return this.#postPath(POST_PATHS.run, { json: { ...request, stream: false } }, options);
    }
    /**
     * A retrieval run as its events, each checked (sequence, run id, order, exactly one terminal event
     * last; see {@link runEvents}). Leaving the loop early cancels the run. Refusals before the run
     * starts reject as a QuarryError; a run that fails after it started ends with its `run.failed` event.
     */
    async *streamRun(request, options) {
        const controller = new AbortController();
        const signal = options?.signal === undefined ? controller.signal : AbortSignal.any([options.signal, controller.signal]);
        const body = JSON.stringify(checked({ ...request, stream: true }));
        const res = await this.#fetchOrFail('POST', POST_PATHS.run, { body, contentType: 'application/json' }, { 'Accept': 'text/event-stream', 'AgenticDriver-Accept-Optional-Events': 'true' }, signal, options?.signal, false);
        try {
            const requestId = res.headers.get('X-Request-Id') ?? undefined;
            if (!res.ok) {
                throw QuarryError.fromAnswer(res.status, await res.text(), requestId);
            }
            if (res.body === null || !(res.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) {
                throw new QuarryError('a streamed run was not answered with text/event-stream', { code: 'INVALID_RESPONSE', status: res.status, requestId });
            }
            try {
                yield* runEvents(res.body, requestId);
            }
            catch (e) {
                // A connection lost while the events arrive is a transport failure like any other.
                throw e instanceof QuarryError ? e : this.#lost(e, POST_PATHS.run, false, options?.signal, requestId);
            }
        }
        finally {
            controller.abort(); // the run ends with the loop: closing the connection cancels it
        }
    }
    // ----- ingestion jobs
    /** Open an ingestion job for a corpus. */
    createJob(request, options) {
        return this.#post('createJob', request, options);
    }
    /** Send files to an open job; answers once every file is on disk and acknowledged. */
    uploadJobFiles(request, options) {
        const { files, ...rest } = request;
        return this.#postPath(POST_PATHS.uploadJobFiles, { form: jobForm({ ...rest, files: files.map(describe) }, files) }, options);
    }
    /** Create a job, send its files and close it, in one request. */
    submitJob(request, options) {
        const { files, ...rest } = request;
        return this.#postPath(POST_PATHS.submitJob, { form: jobForm({ ...rest, files: files.map(describe) }, files) }, options);
    }
    closeJob(request, options) {
        return this.#post('closeJob', request, options);
    }
    cancelJob(request, options) {
        return this.#post('cancelJob', request, options);
    }
    /** A job's state, counts and timings, and one page of its files (each with its receipt or error). */
    readJob(request, options) {
        return this.#post('readJob', request, options);
    }
    listJobs(request = {}, options) {
        return this.#post('listJobs', request, options);
    }
    /** Reads the job until it has ended (`completed`, `cancelled` or `failed`) and answers it as it ended. */
    async waitForJob(job, options = {}) {
        const interval = options.intervalMs ?? 250;
        const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
        for (;;) {
            const page = await this.readJob({ job, limit: 1 }, options);
            if (ENDED_JOB_STATES.has(page.job.state))
                return page.job;
            if (Date.now() + interval > deadline) {
                throw new QuarryError(`job ${job} is still ${page.job.state} after ${options.timeoutMs} ms`, { code: 'TIMEOUT', status: 0, retryable: true });
            }
            await pause(interval, options.signal);
        }
    }
    // ----- the one pipeline every call takes
    #post(op, request, options, mutation = false) {
        return this.#postPath(POST_PATHS[op], { json: request }, options, mutation);
    }
    #postPath(path, body, options, mutation = false) {
        return this.#json('POST', path, body, options, mutation);
    }
    async #json(method, path, body, options, mutation = false) {
        const res = await this.#send(method, path, body, options, mutation);
        let value;
        try {
            value = JSON.parse(res.text);
        }
        catch {
            value = undefined;
        }
        if (!isObject(value)) {
            throw new QuarryError(`the answer to ${path} is not a JSON object`, { code: 'INVALID_RESPONSE', status: res.status, requestId: res.requestId });
        }
        return value;
    }
    async #send(method, path, body, options, mutation) {
        const timeout = this.#timeoutMs === undefined ? undefined : AbortSignal.timeout(this.#timeoutMs);
        const signals = [options?.signal, timeout].filter((s) => s !== undefined);
        const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
        const extra = { 'Accept': 'application/json' };
        if (mutation)
            extra['Idempotency-Key'] = options?.idempotencyKey ?? crypto.randomUUID();
        const payload = body === undefined ? undefined
            : 'json' in body ? { body: JSON.stringify(checked(body.json)), contentType: 'application/json' } : { body: body.form };
        const res = await this.#fetchOrFail(method, path, payload, extra, signal, options?.signal, mutation);
        const requestId = res.headers.get('X-Request-Id') ?? undefined;
        let text;
        try {
            text = await res.text();
        }
        catch (e) {
            throw this.#lost(e, path, mutation, options?.signal, requestId);
        }
        if (!res.ok)
            throw QuarryError.fromAnswer(res.status, text, requestId);
        return { status: res.status, text, requestId };
    }
    /** Sends the request; refuses an answer that selected another wire version before reading its body. */
    async #fetchOrFail(method, path, payload, extra, signal, callerSignal, mutation) {
        const headers = {
            'Authorization': `Bearer ${this.#token}`,
            'AgenticDriver-Version': WIRE_VERSION,
            ...extra,
        };
        if (payload?.contentType !== undefined)
            headers['Content-Type'] = payload.contentType;
        let res;
        try {
            res = await this.#fetch(this.#base + path, { method, headers, body: payload?.body, signal });
        }
        catch (e) {
            throw this.#lost(e, path, mutation, callerSignal);
        }
        const version = res.headers.get('AgenticDriver-Version');
        if (version !== null && version !== WIRE_VERSION) {
            await res.body?.cancel();
            throw new QuarryError(`the server answered wire version ${version}; this client speaks ${WIRE_VERSION}`, { code: 'UNSUPPORTED_PROTOCOL_VERSION', status: res.status, requestId: res.headers.get('X-Request-Id') ?? undefined });
        }
        return res;
    }
    /** A call that got no complete answer: the caller's own abort as it is, anything else typed. */
    #lost(e, path, mutation, callerSignal, requestId) {
        if (callerSignal?.aborted)
            return callerSignal.reason;
        const timedOut = e instanceof DOMException && e.name === 'TimeoutError';
        return new QuarryError(timedOut ? `no answer to ${path} within ${this.#timeoutMs} ms` : `no answer to ${path}: ${describeCause(e)}`, {
            code: timedOut ? 'TIMEOUT' : 'TRANSPORT',
            status: 0,
            retryable: true,
            uncertain: mutation,
            requestId,
            cause: e,
        });
    }
}
/**
 * The request as it will be sent: the wire has no `null` (omit the field instead), and JSON.stringify
 * would turn an `undefined` array element into one, so both are refused here, naming the path.
 */
function checked(value, path = '$') {
    if (value === null)
        throw new TypeError(`${path} is null: the wire has no null, leave the field out`);
    if (Array.isArray(value)) {
        value.forEach((v, i) => {
            if (v === undefined)
                throw new TypeError(`${path}[${i}] is undefined`);
            checked(v, `${path}[${i}]`);
        });
    }
    else if (typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
            if (v !== undefined)
                checked(v, path === '$' ? k : `${path}.${k}`);
        }
    }
    else if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new TypeError(`${path} is ${value}, which JSON cannot carry`);
    }
    return value;
}
/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms, signal) {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
        const aborted = () => {
            clearTimeout(timer);
            reject(signal?.reason);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', aborted);
            resolve();
        }, ms);
        signal?.addEventListener('abort', aborted, { once: true });
    });
}
function jsonPart(request) {
    return new Blob([JSON.stringify(checked(request))], { type: 'application/json' });
}
function jobForm(request, files) {
    const form = new FormData();
    form.append('request', jsonPart(request));
    for (const file of files) {
        form.append('file', new Blob([typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data]), file.filename ?? lastSegment(file.source));
    }
    return form;
}
/** A job file's entry of the request: everything but its bytes and file name. */
function describe(file) {
    const { data: _data, filename: _filename, ...entry } = file;
    return entry;
}
async function toBytes(data) {
    if (typeof data === 'string')
        return new TextEncoder().encode(data);
    if (data instanceof Uint8Array)
        return data;
    if (data instanceof ArrayBuffer)
        return new Uint8Array(data);
    return new Uint8Array(await data.arrayBuffer());
}
async function sha256(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
function lastSegment(source) {
    return source.slice(source.lastIndexOf('/') + 1) || 'file';
}
function describeCause(e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
    return cause instanceof Error ? cause.message : String(cause);
}
