package dev.quarry.api.wire;

import dev.quarry.engine.ErrorCode;

/** The one place an {@link ErrorCode} becomes an HTTP status. */
public final class HttpStatuses {
  private HttpStatuses() {}

  public static int of(ErrorCode code) {
    return switch (code) {
      case INVALID_REQUEST,
          UNSUPPORTED_PROTOCOL_VERSION,
          RETRIEVAL_UNAVAILABLE,
          INDEXING_UNAVAILABLE,
          EMBEDDING_UNAVAILABLE,
          INGESTION_UNAVAILABLE,
          PDF_INGESTION_UNAVAILABLE,
          INGESTION_JOBS_UNAVAILABLE,
          BACKUP_UNAVAILABLE ->
          400;
      case UNAUTHENTICATED -> 401;
      case FORBIDDEN -> 403;
      case NOT_FOUND, CORPUS_NOT_FOUND, SOURCE_NOT_FOUND, JOB_NOT_FOUND -> 404;
      case CORPUS_EXISTS,
          CORPUS_REPLACED,
          REVISION_CONFLICT,
          IDEMPOTENCY_KEY_REUSED,
          IDEMPOTENCY_IN_PROGRESS,
          JOB_CLOSED,
          BACKUP_EXISTS ->
          409;
      case REVISION_EXPIRED, CURSOR_EXPIRED -> 410;
      case REQUEST_TOO_LARGE, DOCUMENT_TOO_LARGE, JOB_TOO_LARGE -> 413;
      case UNSUPPORTED_MEDIA_TYPE -> 415;
      case EXTRACTION_FAILED, DOCUMENT_ENCRYPTED, NO_TEXT_EXTRACTED -> 422;
      case CAPACITY -> 429;
      case INSUFFICIENT_STORAGE -> 507;
      // Run outcomes, carried in run events; should one reach plain HTTP it is the request's end.
      case CANCELLED -> 400;
      case IDLE_TIMEOUT -> 408;
      case UNAVAILABLE -> 503;
      case INTERNAL -> 500;
    };
  }
}
