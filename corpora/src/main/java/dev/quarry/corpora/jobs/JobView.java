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
 * @param ocr the job's OCR choice for its files (each file may name its own), or null for the
 *     server's setting
 * @param ocrLanguages the Tesseract language data its files are recognised with, or null for the
 *     server's
 * @param progress how far the embedding of its passages has come, for a job into a corpus that
 *     embeds its chunks (hybrid or semantic); null for a lexical corpus's job
 */
public record JobView(
    String id,
    String corpus,
    String corpusId,
    String subject,
    JobState state,
    Counts counts,
    long bytes,
    Instant createdAt,
    Instant startedAt,
    Instant closedAt,
    Instant endedAt,
    Instant expiresAt,
    ErrorCode errorCode,
    String errorMessage,
    OcrChoice ocr,
    List<String> ocrLanguages,
    Progress progress) {
  public JobView {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(counts, "counts");
  }

  /**
   * Passages embedded so far, of how many, how fast and how long the rest will take. Counted per
   * file: a file's passages count once it is written (its receipt's chunks), so a single large file
   * moves the figures when it is done, not before.
   *
   * @param passagesEmbedded chunks of the files indexed so far, each embedded (from the model, or
   *     from the process's cache when the same text was embedded before); files found unchanged
   *     embed nothing
   * @param passagesTotal {@code passagesEmbedded} plus the passages expected of the files without
   *     an outcome, or null while no file is indexed yet; exact once every file has its outcome
   * @param totalEstimated whether {@code passagesTotal} is still an estimate: the files without an
   *     outcome are expected to hold as many passages per byte as the files indexed so far (their
   *     text is known only once extracted and chunked)
   * @param passagesPerSecond passages embedded by this process since it began (or, after a restart,
   *     resumed) the job, over the time since then; null until this process has indexed a file of
   *     the job, so a restarted server never shows a rate it did not measure
   * @param secondsLeft the passages expected beyond {@code passagesEmbedded} at {@code
   *     passagesPerSecond}, rounded up; null while either is unknown and once the job has ended
   */
  public record Progress(
      long passagesEmbedded,
      Long passagesTotal,
      boolean totalEstimated,
      Double passagesPerSecond,
      Long secondsLeft) {
    public Progress {
      assert passagesTotal == null || passagesTotal >= passagesEmbedded
          : "the total holds what is done";
    }
  }

  /** Files by status; {@code files} is their sum. */
  public record Counts(
      int files,
      int queued,
      int extracting,
      int indexed,
      int unchanged,
      int failed,
      int cancelled) {
    public Counts {
      assert files == queued + extracting + indexed + unchanged + failed + cancelled
          : "counts add up";
    }
  }
}
