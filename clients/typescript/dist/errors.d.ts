import type { components } from './openapi.js';
/** The server's stable error codes, as the OpenAPI document lists them. */
export type ErrorCode = components['schemas']['ErrorCode'];
/**
 * Codes the client itself gives a failure that is not the server's refusal:
 * - `TRANSPORT`: no answer arrived (connection refused or lost); `status` is 0.
 * - `TIMEOUT`: no answer within the client's `timeoutMs`; `status` is 0.
 * - `INVALID_RESPONSE`: an answer that is not what the contract promises (not JSON, no error envelope,
 *   an ingest receipt whose hash is not the hash of the bytes sent).
 * - `INVALID_STREAM`: a run's event stream out of order, malformed, or ended without its terminal event.
 * - `UNSUPPORTED_EVENT`: a run event this client does not know and that is not marked optional.
 * - `UNSUPPORTED_PROTOCOL_VERSION` (also a server code): the answer selected a wire version other than 1.0.
 */
export type ClientErrorCode = 'TRANSPORT' | 'TIMEOUT' | 'INVALID_RESPONSE' | 'INVALID_STREAM' | 'UNSUPPORTED_EVENT';
/** What a {@link QuarryError} carries besides its message. */
export interface QuarryErrorDetails {
    code: ErrorCode | ClientErrorCode | (string & {});
    status: number;
    retryable?: boolean;
    uncertain?: boolean;
    field?: string;
    requestId?: string;
    runId?: string;
    cause?: unknown;
}
/**
 * Every failure of a call: the server's refusal (its error envelope, code verbatim, so a code this
 * client has never heard of still arrives) or the client's own (see {@link ClientErrorCode}).
 */
export declare class QuarryError extends Error {
    /** The server's code verbatim, or one of {@link ClientErrorCode}. */
    readonly code: ErrorCode | ClientErrorCode | (string & {});
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number;
    /** A potentially transient condition, not permission to replay side effects. */
    readonly retryable: boolean;
    /**
     * The mutation's effect is unknown (the server said `outcome: "uncertain"`, or the connection was
     * lost after a mutation was sent): read the source, or retry with the same Idempotency-Key.
     */
    readonly uncertain: boolean;
    /** `INVALID_REQUEST` only: the path of the offending field (`topK`, `operations[2].text`, `$`). */
    readonly field: string | undefined;
    /** The answer's `X-Request-Id`, which the server's logs name. */
    readonly requestId: string | undefined;
    /** A run's id, when the run had started before it failed. */
    readonly runId: string | undefined;
    constructor(message: string, details: QuarryErrorDetails);
    /** The error of a server's answer: its envelope when it has one, else an INVALID_RESPONSE. */
    static fromAnswer(status: number, body: string, requestId: string | undefined): QuarryError;
}
export declare function isObject(value: unknown): value is Record<string, unknown>;
