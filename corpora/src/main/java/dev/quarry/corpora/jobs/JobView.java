package dev.quarry.corpora.jobs;

import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a reader sees of an ingestion job at one moment.
 *
 * @param startedAt when its first file began, or null before
 * @param closedAt when it stopped taking files (closed, or cancelled while open), or null
 * @param endedAt when it reached a final state, or null
 * @param expiresAt when an ended job is removed, or null while it has not ended
 * @param errorCode why a failed job failed, or null
 * @param ocr the job's OCR choice for its files (each file may name its own), or null for the server's setting
 * @param ocrLanguages the Tesseract language data its files are recognised with, or null for the server's
 */
public record JobView(String id, String corpus, String corpusId, String subject, JobState state, Counts counts,
    long bytes, Instant createdAt, Instant startedAt, Instant closedAt, Instant endedAt, Instant expiresAt,
    ErrorCode errorCode, String errorMessage, OcrChoice ocr, List<String> ocrLanguages) {
  public JobView {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(counts, "counts");
  }

  /** Files by status; {@code files} is their sum. */
  public record Counts(int files, int queued, int extracting, int indexed, int unchanged, int failed, int cancelled) {
    public Counts {
      assert files == queued + extracting + indexed + unchanged + failed + cancelled : "counts add up";
    }
  }
}
