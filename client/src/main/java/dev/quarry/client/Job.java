package dev.quarry.client;

/**
 * An ingestion job as the {@code jobs/*} endpoints describe it. Times are RFC 3339 strings, null
 * until they happened.
 *
 * @param state {@code open} (takes files), {@code running} (closed, ingesting), then {@code
 *     completed}, {@code cancelled} or {@code failed} (its corpus was deleted or replaced: {@code error})
 * @param bytes the bytes of every file acknowledged
 * @param ocr the job's OCR choice ({@code auto} or {@code off}), or null for the server's setting
 * @param expiresAt when an ended job will be removed
 *
 * @quarry.stable
 */
public record Job(String id, String corpus, String corpusId, String state, Counts counts, long bytes, String ocr,
    String createdAt, String startedAt, String closedAt, String endedAt, String expiresAt, ErrorInfo error) {
  /** How many of the job's files are where. */
  public record Counts(int files, int queued, int extracting, int indexed, int unchanged, int failed, int cancelled) {
    /** Files with their outcome: indexed, unchanged, failed or cancelled. */
    public int done() {
      return indexed + unchanged + failed + cancelled;
    }
  }

  /** Whether the job has ended (completed, cancelled or failed): its counts change no more. */
  public boolean ended() {
    return endedAt != null;
  }
}
