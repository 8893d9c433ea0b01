package dev.quarry.client;

import java.util.List;

/**
 * An ingestion job as the {@code jobs/*} endpoints describe it. Times are RFC 3339 strings, null
 * until they happened.
 *
 * @param state {@code open} (takes files), {@code running} (closed, ingesting), then {@code
 *     completed}, {@code cancelled} or {@code failed} (its corpus was deleted or replaced: {@code
 *     error})
 * @param bytes the bytes of every file acknowledged
 * @param ocr the job's OCR choice ({@code auto} or {@code off}), or null for the server's setting
 * @param ocrLanguages the Tesseract language data its files are recognised with, or null for the
 *     server's {@code extraction.ocrLanguages} (and from servers before it could be chosen)
 * @param expiresAt when an ended job will be removed
 * @param progress the embedding of its passages, for a job into a corpus that embeds its chunks;
 *     null for a lexical corpus (and from servers before it was reported)
 * @quarry.stable
 */
public record Job(
    String id,
    String corpus,
    String corpusId,
    String state,
    Counts counts,
    long bytes,
    String ocr,
    String createdAt,
    String startedAt,
    String closedAt,
    String endedAt,
    String expiresAt,
    ErrorInfo error,
    Progress progress,
    List<String> ocrLanguages) {
  /**
   * A job without {@code ocrLanguages}, as the client described jobs before they could be chosen.
   */
  public Job(
      String id,
      String corpus,
      String corpusId,
      String state,
      Counts counts,
      long bytes,
      String ocr,
      String createdAt,
      String startedAt,
      String closedAt,
      String endedAt,
      String expiresAt,
      ErrorInfo error,
      Progress progress) {
    this(
        id, corpus, corpusId, state, counts, bytes, ocr, createdAt, startedAt, closedAt, endedAt,
        expiresAt, error, progress, null);
  }

  /** A job without {@code progress}, as the client described jobs before it was reported. */
  public Job(
      String id,
      String corpus,
      String corpusId,
      String state,
      Counts counts,
      long bytes,
      String ocr,
      String createdAt,
      String startedAt,
      String closedAt,
      String endedAt,
      String expiresAt,
      ErrorInfo error) {
    this(
        id, corpus, corpusId, state, counts, bytes, ocr, createdAt, startedAt, closedAt, endedAt,
        expiresAt, error, null, null);
  }

  /**
   * Passages embedded so far, of how many, how fast, and how long the rest will take
   * (docs/ingestion.md). Figures the server does not know yet are null.
   *
   * @param passagesTotal null until a file is indexed
   * @param totalEstimated whether the total is still an estimate (files not yet read)
   * @param passagesPerSecond measured by the server process since it began or resumed the job; null
   *     before
   * @param secondsLeft null while the rate or total is unknown, and once the job has ended
   */
  public record Progress(
      long passagesEmbedded,
      Long passagesTotal,
      Boolean totalEstimated,
      Double passagesPerSecond,
      Long secondsLeft) {}

  /** How many of the job's files are where. */
  public record Counts(
      int files,
      int queued,
      int extracting,
      int indexed,
      int unchanged,
      int failed,
      int cancelled) {
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
