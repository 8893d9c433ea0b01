package dev.quarry.client;

import java.util.List;

/**
 * {@code jobs/read}: the job and one keyset page of its files in the order they were acknowledged,
 * each as it is when the page is read.
 *
 * @param nextCursor the cursor of the next page, or null on the last
 * @quarry.stable
 */
public record JobPage(Job job, List<FileOutcome> files, String nextCursor) {
  /**
   * One file of a job.
   *
   * @param index its place in the job, from 0
   * @param contentSha256 the SHA-256 of the bytes the server acknowledged
   * @param status {@code queued}, {@code extracting}, {@code indexed}, {@code unchanged}, {@code
   *     failed} or {@code cancelled}
   * @param ocr the OCR choice it is extracted with (its own, else the job's), or null for the
   *     server's setting
   * @param ocrLanguages the OCR language data it is recognised with (its own, else the job's), or
   *     null for the server's {@code extraction.ocrLanguages} (and from servers before they could
   *     be chosen)
   * @param receipt the ingest receipt, once indexed or unchanged; else null
   * @param error why it failed; else null
   */
  public record FileOutcome(
      int index,
      String source,
      String contentSha256,
      long bytes,
      String status,
      String ocr,
      String endedAt,
      Receipt receipt,
      ErrorInfo error,
      List<String> ocrLanguages) {
    /**
     * A file without {@code ocrLanguages}, as the client described files before they could be
     * chosen.
     */
    public FileOutcome(
        int index,
        String source,
        String contentSha256,
        long bytes,
        String status,
        String ocr,
        String endedAt,
        Receipt receipt,
        ErrorInfo error) {
      this(index, source, contentSha256, bytes, status, ocr, endedAt, receipt, error, null);
    }
  }
}
