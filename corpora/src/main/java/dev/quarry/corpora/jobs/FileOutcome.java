package dev.quarry.corpora.jobs;

import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Receipt;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One file of a job as a reader sees it.
 *
 * @param index its place in the job, from 0, in the order the files were acknowledged
 * @param receipt for indexed and unchanged files: the source's receipt; null otherwise
 * @param errorCode for failed files: why; null otherwise
 * @param endedAt when it got its outcome, or null while queued or extracting
 * @param ocr the OCR choice it is extracted with (its own, else its job's), or null for the
 *     server's setting
 * @param ocrLanguages the OCR languages it is recognised with (its own, else its job's), or null
 *     for the server's
 */
public record FileOutcome(
    int index,
    String source,
    String contentSha256,
    long bytes,
    FileStatus status,
    Receipt receipt,
    ErrorCode errorCode,
    String errorMessage,
    Instant endedAt,
    OcrChoice ocr,
    List<String> ocrLanguages) {
  public FileOutcome {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(contentSha256, "contentSha256");
    Objects.requireNonNull(status, "status");
    assert (receipt != null) == (status == FileStatus.INDEXED || status == FileStatus.UNCHANGED)
        : "a receipt exactly for indexed and unchanged files: " + status;
    assert (errorCode != null) == (status == FileStatus.FAILED)
        : "an error exactly for failed files: " + status;
  }
}
