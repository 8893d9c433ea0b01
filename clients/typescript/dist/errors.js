/**
 * Every failure of a call: the server's refusal (its error envelope, code verbatim, so a code this
 * client has never heard of still arrives) or the client's own (see {@link ClientErrorCode}).
 */
export class QuarryError extends Error {
    /** The server's code verbatim, or one of {@link ClientErrorCode}. */
    code;
    /** The HTTP status; 0 when no answer arrived. */
    status;
    /** A potentially transient condition, not permission to replay side effects. */
    retryable;
    /**
     * The mutation's effect is unknown (the server said `outcome: "uncertain"`, or the connection was
     * lost after a mutation was sent): read the source, or retry with the same Idempotency-Key.
     */
    uncertain;
    /** `INVALID_REQUEST` only: the path of the offending field (`topK`, `operations[2].text`, `$`). */
    field;
    /** The answer's `X-Request-Id`, which the server's logs name. */
    requestId;
    /** A run's id, when the run had started before it failed. */
    runId;
    constructor(message, details) {
        super(message, details.cause === undefined ? undefined : { cause: details.cause });
        this.name = 'QuarryError';
        this.code = details.code;
        this.status = details.status;
        this.retryable = details.retryable ?? false;
        this.uncertain = details.uncertain ?? false;
        this.field = details.field;
        this.requestId = details.requestId;
        this.runId = details.runId;
    }
    /** The error of a server's answer: its envelope when it has one, else an INVALID_RESPONSE. */
    static fromAnswer(status, body, requestId) {
        const envelope = parseObject(body);
        const error = envelope?.['error'];
        if (isObject(error) && typeof error['code'] === 'string' && typeof error['message'] === 'string') {
            return new QuarryError(error['message'], {
                code: error['code'],
                status,
                retryable: error['retryable'] === true,
                uncertain: error['outcome'] === 'uncertain',
                field: typeof error['field'] === 'string' ? error['field'] : undefined,
                requestId,
                runId: typeof envelope?.['runId'] === 'string' ? envelope['runId'] : undefined,
            });
        }
        return new QuarryError(`HTTP ${status} without the error envelope`, {
            code: 'INVALID_RESPONSE',
            status,
            retryable: status === 429 || status >= 500,
            requestId,
        });
    }
}
export function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function parseObject(text) {
    try {
        const value = JSON.parse(text);
        return isObject(value) ? value : undefined;
    }
    catch {
        return undefined;
    }
}
