import { type BatchRequest, type BatchResponse, type Corpus, type CorpusDeleted, type CorpusPage, type CorpusSummary, type CreateCorpusRequest, type CreateJobRequest, type DeleteRequest, type FileContent, type HistoryPage, type HistoryRequest, type IndexRequest, type IngestReceipt, type IngestRequest, type Job, type JobAnswer, type JobList, type JobPage, type JobRequest, type ListCorporaRequest, type ListJobsRequest, type ListSourcesRequest, type NamedCorpusRequest, type Protocol, type ReadChunksRequest, type ReadJobRequest, type ReadSourceRequest, type Receipt, type RunAnswer, type RunEvent, type RunRequest, type SearchRequest, type SearchResponse, type SourceChunks, type SourcePage, type SourceRead, type SourceState, type SubmitJobRequest, type UploadJobRequest, type Whoami } from './types.js';
/** The wire version this client speaks; every request says it, and an answer selecting another is refused. */
export declare const WIRE_VERSION = "1.0";
/** How to reach a server. */
export interface QuarryClientOptions {
    /** The server's base URL, such as `http://127.0.0.1:8080`. */
    url: string;
    /** A bearer token from the server's tokens file. */
    token: string;
    /** Abandon a call with no complete answer after this many milliseconds (QuarryError `TIMEOUT`); none by default. */
    timeoutMs?: number;
    /** The fetch to use; the global one by default. */
    fetch?: typeof fetch;
}
/** Options of any call. */
export interface CallOptions {
    /** Abort the call; an aborted call rejects with the signal's reason, as fetch does. */
    signal?: AbortSignal;
}
/** Options of a source mutation (index, delete, batch, ingest). */
export interface MutationOptions extends CallOptions {
    /** The Idempotency-Key: pass the same one to retry a mutation exactly once; a fresh one per call by default. */
    idempotencyKey?: string;
}
/** Options of {@link QuarryClient.waitForJob}. */
export interface WaitOptions extends CallOptions {
    /** Between two reads of the job; 250 ms by default. */
    intervalMs?: number;
    /** Give up (QuarryError `TIMEOUT`) when the job has not ended by then; no limit by default. */
    timeoutMs?: number;
}
/**
 * A client of one Quarry server with one token. Each method is named after the operationId of its
 * endpoint in the server's OpenAPI document, takes that endpoint's request body and answers its
 * response body, as the document's types say. Answers are read tolerantly (fields this client does
 * not know pass through untouched); requests are written strictly (a `null` anywhere, or an
 * `undefined` inside a list, is a TypeError before anything is sent; an `undefined` field is left
 * out). A refusal or failure is a {@link QuarryError}. One instance may serve any number of
 * concurrent calls.
 */
export declare class QuarryClient {
    #private;
    constructor(options: QuarryClientOptions);
    /** `GET /v1/protocol`: the wire version, the features switched on and every limit. */
    protocol(options?: CallOptions): Promise<Protocol>;
    /** The token's own subject and grants, as the server reads them. */
    whoami(options?: CallOptions): Promise<Whoami>;
    /** `GET /v1/openapi.yaml`: the OpenAPI document this client's types were generated from, as the server serves it. */
    openApiDocument(options?: CallOptions): Promise<string>;
    createCorpus(request: CreateCorpusRequest, options?: CallOptions): Promise<Corpus>;
    readCorpus(request: NamedCorpusRequest, options?: CallOptions): Promise<Corpus>;
    /** One page of the corpora the token has a grant on; `nextCursor` is present when more follow. */
    listCorpora(request?: ListCorporaRequest, options?: CallOptions): Promise<CorpusPage>;
    /** Every corpus the token has a grant on, fetching pages as they are consumed. */
    corpora(options?: CallOptions): AsyncGenerator<CorpusSummary>;
    deleteCorpus(request: NamedCorpusRequest, options?: CallOptions): Promise<CorpusDeleted>;
    /** One page of the corpus's history in revision order; `nextAfter` is present when more follow. */
    history(request: HistoryRequest, options?: CallOptions): Promise<HistoryPage>;
    /** Index text the application already has; the receipt is sent once the change is durable and searchable. */
    indexSource(request: IndexRequest, options?: MutationOptions): Promise<Receipt>;
    deleteSource(request: DeleteRequest, options?: MutationOptions): Promise<Receipt>;
    /** Many index and delete operations applied atomically at one revision. */
    batch(request: BatchRequest, options?: MutationOptions): Promise<BatchResponse>;
    readSource(request: ReadSourceRequest, options?: CallOptions): Promise<SourceRead>;
    /** One page of a source's chunks, at the latest or a pinned revision. */
    readChunks(request: ReadChunksRequest, options?: CallOptions): Promise<SourceChunks>;
    /** One page of sources in name order; `nextCursor` is present when more follow. */
    listSources(request: ListSourcesRequest, options?: CallOptions): Promise<SourcePage>;
    /** Every source of a corpus (under `prefix`, when given) that the token may see, page by page. */
    sources(corpus: string, prefix?: string, options?: CallOptions): AsyncGenerator<SourceState>;
    /**
     * Turn one document file into a source (`multipart/form-data`). The receipt's `contentSha256` is
     * checked against the bytes sent (QuarryError `INVALID_RESPONSE` when they differ).
     */
    ingest(request: IngestRequest, file: FileContent, options?: MutationOptions): Promise<IngestReceipt>;
    /** Search one corpus, at its latest revision or the pinned `revision`. */
    search(request: SearchRequest, options?: CallOptions): Promise<SearchResponse>;
    /** A retrieval run answered once it ends (`stream` is sent as false). */
    run(request: Omit<RunRequest, 'stream'>, options?: CallOptions): Promise<RunAnswer>;
    /**
     * A retrieval run as its events, each checked (sequence, run id, order, exactly one terminal event
     * last; see {@link runEvents}). Leaving the loop early cancels the run. Refusals before the run
     * starts reject as a QuarryError; a run that fails after it started ends with its `run.failed` event.
     */
    streamRun(request: Omit<RunRequest, 'stream'>, options?: CallOptions): AsyncGenerator<RunEvent>;
    /** Open an ingestion job for a corpus. */
    createJob(request: CreateJobRequest, options?: CallOptions): Promise<JobAnswer>;
    /** Send files to an open job; answers once every file is on disk and acknowledged. */
    uploadJobFiles(request: UploadJobRequest, options?: CallOptions): Promise<JobAnswer>;
    /** Create a job, send its files and close it, in one request. */
    submitJob(request: SubmitJobRequest, options?: CallOptions): Promise<JobAnswer>;
    closeJob(request: JobRequest, options?: CallOptions): Promise<JobAnswer>;
    cancelJob(request: JobRequest, options?: CallOptions): Promise<JobAnswer>;
    /** A job's state, counts and timings, and one page of its files (each with its receipt or error). */
    readJob(request: ReadJobRequest, options?: CallOptions): Promise<JobPage>;
    listJobs(request?: ListJobsRequest, options?: CallOptions): Promise<JobList>;
    /** Reads the job until it has ended (`completed`, `cancelled` or `failed`) and answers it as it ended. */
    waitForJob(job: string, options?: WaitOptions): Promise<Job>;
}
