// The wire's requests and answers, named after the OpenAPI document's schemas (src/openapi.ts is
// generated from it by `npm run generate`; never edit it by hand).
import type { components, operations, paths } from './openapi.js';

type Schemas = components['schemas'];

/** The JSON request body of an operation, by its operationId. */
export type RequestOf<Op extends keyof operations> =
  operations[Op] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** The JSON answer of an operation's 200, by its operationId. */
export type AnswerOf<Op extends keyof operations> =
  operations[Op] extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never;
/** The `request` part of a multipart operation. */
export type MultipartRequestOf<Op extends keyof operations> =
  operations[Op] extends { requestBody: { content: { 'multipart/form-data': { request: infer R } } } } ? R : never;

/** The POST operations the client calls, and their paths; the compiler holds each path to the document. */
export const POST_PATHS = {
  whoami: '/v1/retrieval/whoami',
  createCorpus: '/v1/retrieval/corpora/create',
  readCorpus: '/v1/retrieval/corpora/read',
  listCorpora: '/v1/retrieval/corpora/list',
  deleteCorpus: '/v1/retrieval/corpora/delete',
  history: '/v1/retrieval/corpora/history',
  indexSource: '/v1/retrieval/sources/index',
  deleteSource: '/v1/retrieval/sources/delete',
  batch: '/v1/retrieval/sources/batch',
  readSource: '/v1/retrieval/sources/read',
  readChunks: '/v1/retrieval/sources/chunks',
  listSources: '/v1/retrieval/sources/list',
  ingest: '/v1/retrieval/ingest',
  search: '/v1/retrieval/search',
  createJob: '/v1/retrieval/jobs/create',
  uploadJobFiles: '/v1/retrieval/jobs/upload',
  submitJob: '/v1/retrieval/jobs/submit',
  closeJob: '/v1/retrieval/jobs/close',
  cancelJob: '/v1/retrieval/jobs/cancel',
  readJob: '/v1/retrieval/jobs/read',
  listJobs: '/v1/retrieval/jobs/list',
  run: '/v1/runs',
} as const satisfies { [Op in keyof operations]?: PostPathOf<Op> };

/** The document's paths whose POST is the operation `Op`. */
type PostPathOf<Op extends keyof operations> = {
  [P in keyof paths]: paths[P] extends { post: operations[Op] } ? (operations[Op] extends paths[P]['post'] ? P : never) : never;
}[keyof paths];

export type Protocol = Schemas['Protocol'];
export type Whoami = Schemas['Whoami'];
export type CorpusName = Schemas['CorpusName'];
export type Settings = Schemas['Settings'];
export type CreateCorpusRequest = Schemas['CreateCorpusRequest'];
export type NamedCorpusRequest = Schemas['NamedCorpusRequest'];
export type ListCorporaRequest = Schemas['ListCorporaRequest'];
export type Corpus = Schemas['Corpus'];
export type CorpusPage = Schemas['CorpusPage'];
export type CorpusSummary = Schemas['CorpusPage']['corpora'][number];
export type CorpusDeleted = Schemas['CorpusDeleted'];
export type Metadata = Schemas['Metadata'];
export type Passage = Schemas['Passage'];
export type IndexRequest = Schemas['IndexRequest'];
export type DeleteRequest = Schemas['DeleteRequest'];
export type BatchRequest = Schemas['BatchRequest'];
export type BatchResponse = Schemas['BatchResponse'];
export type Receipt = Schemas['Receipt'];
export type ReadSourceRequest = Schemas['ReadSourceRequest'];
export type SourceRead = Schemas['SourceRead'];
export type ReadChunksRequest = Schemas['ReadChunksRequest'];
export type SourceChunks = Schemas['SourceChunks'];
export type ListSourcesRequest = Schemas['ListSourcesRequest'];
export type SourcePage = Schemas['SourcePage'];
export type SourceState = Schemas['SourceState'];
export type HistoryRequest = Schemas['HistoryRequest'];
export type HistoryPage = Schemas['HistoryPage'];
export type IngestRequest = Schemas['IngestRequest'];
export type IngestReceipt = Schemas['IngestReceipt'];
export type FilterCondition = Schemas['FilterCondition'];
export type SearchResponse = Schemas['SearchResponse'];
export type Hit = Schemas['Hit'];
export type FacetRequest = Schemas['FacetRequest'];
export type SnippetOptions = Schemas['SnippetOptions'];
export type CreateJobRequest = Schemas['CreateJobRequest'];
export type JobFileRequest = Schemas['JobFileRequest'];
export type JobRequest = Schemas['JobRequest'];
export type ReadJobRequest = Schemas['ReadJobRequest'];
export type ListJobsRequest = Schemas['ListJobsRequest'];
export type Job = Schemas['Job'];
export type JobAnswer = Schemas['JobAnswer'];
export type JobPage = Schemas['JobPage'];
export type JobList = Schemas['JobList'];
export type RunRequest = Schemas['RunRequest'];
export type RunRetrieval = Schemas['RunRetrieval'];
export type RunAnswer = Schemas['RunAnswer'];
export type RunResult = Schemas['RunResult'];
export type RunEvent = Schemas['RunEvent'];

/**
 * A search filter. The document's `Filter` is written as fields and the operators `and`, `or` and
 * `not` side by side, which TypeScript reads as "every key, the operators too, is a field": this
 * type says the same with the operators typed as operators.
 */
export type Filter = {
  and?: Filter[];
  or?: Filter[];
  not?: Filter;
} & {
  [field: string]: string | number | boolean | FilterCondition | Filter | Filter[] | undefined;
};

/** The document's search request, with {@link Filter} for its filter. */
export type SearchRequest = Omit<Schemas['SearchRequest'], 'filter'> & { filter?: Filter };

/** The bytes of a file to upload, and the name that hints at its type. */
export interface FileContent {
  /** The document's bytes (a string is sent as UTF-8). */
  data: Blob | Uint8Array | ArrayBuffer | string;
  /** The file name, a hint for detection (`leave.md` is Markdown); by default the source's last path segment. */
  filename?: string;
}

/** One file of an ingestion job: what the document says of it, and its bytes. */
export type JobFile = JobFileRequest & FileContent;

/** A job upload: the job, its files (each with its bytes) and whether to close it after them. */
export type UploadJobRequest = Omit<MultipartRequestOf<'uploadJobFiles'>, 'files'> & { files: JobFile[] };
/** Create, upload and close in one request. */
export type SubmitJobRequest = Omit<MultipartRequestOf<'submitJob'>, 'files'> & { files: JobFile[] };
