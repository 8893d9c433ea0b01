package dev.quarry.engine;

/**
 * Stable error codes shared by every layer. The wire carries {@link #name()} verbatim; the HTTP
 * status for each code is decided by the api module, not here.
 *
 * @quarry.stable
 */
public enum ErrorCode {
  INVALID_REQUEST(false),
  UNSUPPORTED_PROTOCOL_VERSION(false),
  UNAUTHENTICATED(false),
  FORBIDDEN(false),
  NOT_FOUND(false),
  CORPUS_NOT_FOUND(false),
  SOURCE_NOT_FOUND(false),
  CORPUS_EXISTS(false),
  CORPUS_REPLACED(false),
  REVISION_CONFLICT(false),
  IDEMPOTENCY_KEY_REUSED(false),
  IDEMPOTENCY_IN_PROGRESS(true),
  REVISION_EXPIRED(false),
  CURSOR_EXPIRED(false),
  REQUEST_TOO_LARGE(false),
  DOCUMENT_TOO_LARGE(false),
  UNSUPPORTED_MEDIA_TYPE(false),
  EXTRACTION_FAILED(false),
  DOCUMENT_ENCRYPTED(false),
  NO_TEXT_EXTRACTED(false),
  RETRIEVAL_UNAVAILABLE(false),
  INDEXING_UNAVAILABLE(false),
  INGESTION_UNAVAILABLE(false),
  PDF_INGESTION_UNAVAILABLE(false),
  /** The ingestion-jobs feature is switched off (or the host runs no jobs). */
  INGESTION_JOBS_UNAVAILABLE(false),
  /**
   * No ingestion job with this id that the caller may see: unknown and another subject's answer
   * alike.
   */
  JOB_NOT_FOUND(false),
  /** Files sent to, or a close of, an ingestion job that no longer takes files. */
  JOB_CLOSED(false),
  /** An ingestion job would hold more files or bytes than its limits allow. */
  JOB_TOO_LARGE(false),
  /** The corpus's embedding model is not one this server runs (or its weights differ). */
  EMBEDDING_UNAVAILABLE(false),
  /** A backup of that name already exists; choose another name (backups are never overwritten). */
  BACKUP_EXISTS(false),
  /**
   * This server's corpus store has no Quarry backups (corpora kept on an OpenSearch cluster, which
   * the cluster's own snapshots back up): asking again never helps.
   */
  BACKUP_UNAVAILABLE(false),
  CAPACITY(true),
  /**
   * The data folder's disk has less free space than the configured floor for writes: the write was
   * refused before any work, and changed nothing. Searches go on.
   */
  INSUFFICIENT_STORAGE(true),
  CANCELLED(false),
  IDLE_TIMEOUT(false),
  /** The store could not complete the operation (I/O failure, closed corpus); safe to retry. */
  UNAVAILABLE(true),
  INTERNAL(false);

  private final boolean retryable;

  ErrorCode(boolean retryable) {
    this.retryable = retryable;
  }

  /** Whether a client may retry the same request unchanged and expect a different outcome. */
  public boolean retryable() {
    return retryable;
  }
}
