package dev.quarry.corpora.jobs;

import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Receipt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One ingestion job in memory: who submitted it (with the grants it was submitted under, which the
 * runner uses, also after a restart), its corpus, its state and timings, and its files in the order
 * they were acknowledged. Its folder on disk ({@link JobFolder}) holds the same.
 *
 * <p>Guarded by its own monitor: every field that changes is read and written holding it.
 */
final class IngestJob {
  final String id;
  final String corpus;
  final String corpusId;

  /** The submitter, with the grants it had when it submitted. */
  final Access access;

  final Instant createdAt;

  /**
   * Whether its files may be recognised by OCR (a file may name its own choice), or null for the
   * server's setting.
   */
  final OcrChoice ocr;

  /** The Tesseract language data its files are recognised with, or null for the server's. */
  final List<String> ocrLanguages;

  /** Whether its corpus embeds its chunks: its view then carries the embedding's progress. */
  final boolean embedding;

  final JobFolder folder;
  final List<Entry> files = new ArrayList<>();

  JobState state = JobState.OPEN;
  Instant startedAt;
  Instant closedAt;
  Instant endedAt;

  /** The last upload or close, for the idle timeout of an open job. */
  Instant lastActivity;

  /**
   * Created by a submit whose upload is not yet committed: such a job was never acknowledged, so a
   * restart that finds it so marked on disk removes it.
   */
  boolean uncommittedSubmit;

  ErrorCode errorCode;
  String errorMessage;

  /** Files reserved by uploads in progress, not yet acknowledged. */
  int reservedFiles;

  /**
   * Runners past the point of no return: their file will be indexed even if the job is cancelled
   * now.
   */
  int writing;

  /**
   * When this process began (or resumed) running the job's files, and the passages embedded before
   * then: the rate counts only what this process did, in the time it had. In memory only, so a
   * restarted server measures its own rate afresh.
   */
  Instant runningSince;

  long passagesBeforeRunning;

  IngestJob(
      String id,
      String corpus,
      String corpusId,
      Access access,
      Instant createdAt,
      OcrChoice ocr,
      List<String> ocrLanguages,
      boolean embedding,
      JobFolder folder) {
    this.id = Objects.requireNonNull(id, "id");
    this.corpus = Objects.requireNonNull(corpus, "corpus");
    this.corpusId = Objects.requireNonNull(corpusId, "corpusId");
    this.access = Objects.requireNonNull(access, "access");
    this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
    this.lastActivity = createdAt;
    this.ocr = ocr;
    this.ocrLanguages = ocrLanguages == null ? null : List.copyOf(ocrLanguages);
    this.embedding = embedding;
    this.folder = folder;
  }

  /** One acknowledged file. */
  static final class Entry {
    final int index;
    final JobFile spec;
    final String sha256;
    final long bytes;
    FileStatus status = FileStatus.QUEUED;
    Receipt receipt;
    ErrorCode errorCode;
    String errorMessage;
    Instant endedAt;

    /**
     * Tries that ended in a retryable refusal (the extraction pool full), for the pause before the
     * next.
     */
    int retries;

    Entry(int index, JobFile spec, String sha256, long bytes) {
      this.index = index;
      this.spec = spec;
      this.sha256 = sha256;
      this.bytes = bytes;
    }

    FileOutcome outcome(OcrChoice jobOcr, List<String> jobLanguages) {
      return new FileOutcome(
          index,
          spec.source(),
          sha256,
          bytes,
          status,
          receipt,
          errorCode,
          errorMessage,
          endedAt,
          spec.ocrWithin(jobOcr),
          spec.ocrLanguagesWithin(jobLanguages));
    }
  }

  synchronized long bytes() {
    long sum = 0;
    for (Entry e : files) {
      sum += e.bytes;
    }
    return sum;
  }

  /** Bytes of files that have no outcome yet. */
  synchronized long pendingBytes() {
    long sum = 0;
    for (Entry e : files) {
      if (!e.status.isOutcome()) {
        sum += e.bytes;
      }
    }
    return sum;
  }

  synchronized int pendingFiles() {
    int n = reservedFiles;
    for (Entry e : files) {
      if (!e.status.isOutcome()) {
        n++;
      }
    }
    return n;
  }

  /** Whether every file has its outcome and the job takes no more: time for a final state. */
  synchronized boolean readyToEnd() {
    if (endedAt != null || state == JobState.OPEN || reservedFiles > 0) {
      return false;
    }
    for (Entry e : files) {
      if (!e.status.isOutcome()) {
        return false;
      }
    }
    return true;
  }

  /** Marks the moment this process starts running a file of the job, the first time it does. */
  synchronized void running(Instant now) {
    if (runningSince == null) {
      runningSince = now;
      passagesBeforeRunning = passagesEmbedded();
    }
  }

  /** Chunks of the files indexed so far: each one embedded, in an embedding corpus. */
  synchronized long passagesEmbedded() {
    long sum = 0;
    for (Entry e : files) {
      if (e.status == FileStatus.INDEXED && e.receipt != null) {
        sum += e.receipt.chunks();
      }
    }
    return sum;
  }

  /** The embedding's progress at {@code now}; null for a lexical corpus's job. */
  synchronized JobView.Progress progress(Instant now) {
    if (!embedding) {
      return null;
    }
    long embedded = 0;
    long indexedBytes = 0;
    long pendingBytes = 0;
    boolean pending = reservedFiles > 0;
    for (Entry e : files) {
      if (e.status == FileStatus.INDEXED && e.receipt != null) {
        embedded += e.receipt.chunks();
        indexedBytes += e.bytes;
      } else if (!e.status.isOutcome()) {
        pendingBytes += e.bytes;
        pending = true;
      }
    }
    Long total;
    if (!pending) {
      total = embedded;
    } else if (indexedBytes == 0) {
      total = null;
    } else {
      total = embedded + (long) Math.ceil((double) embedded * pendingBytes / indexedBytes);
    }
    Double rate = null;
    if (runningSince != null && embedded > passagesBeforeRunning) {
      Instant until = endedAt != null && endedAt.isAfter(runningSince) ? endedAt : now;
      double seconds = Math.max(0.001, Duration.between(runningSince, until).toNanos() / 1e9);
      rate = (embedded - passagesBeforeRunning) / seconds;
    }
    Long left =
        rate == null || total == null || endedAt != null
            ? null
            : (long) Math.ceil((total - embedded) / rate);
    return new JobView.Progress(embedded, total, pending && total != null, rate, left);
  }

  synchronized JobView view(Duration retention, Instant now) {
    int queued = 0, extracting = 0, indexed = 0, unchanged = 0, failed = 0, cancelled = 0;
    long bytes = 0;
    for (Entry e : files) {
      bytes += e.bytes;
      switch (e.status) {
        case QUEUED -> queued++;
        case EXTRACTING -> extracting++;
        case INDEXED -> indexed++;
        case UNCHANGED -> unchanged++;
        case FAILED -> failed++;
        case CANCELLED -> cancelled++;
      }
    }
    JobView.Counts counts =
        new JobView.Counts(files.size(), queued, extracting, indexed, unchanged, failed, cancelled);
    // A cancelled job whose files are still being extracted has not stopped yet: it reads as
    // running
    // (it takes no more files) until their extraction returns, and only then as cancelled, with
    // endedAt. "cancelled" always means the work has stopped.
    JobState shown = state == JobState.CANCELLED && endedAt == null ? JobState.RUNNING : state;
    return new JobView(
        id,
        corpus,
        corpusId,
        access.subject(),
        shown,
        counts,
        bytes,
        createdAt,
        startedAt,
        closedAt,
        endedAt,
        endedAt == null ? null : endedAt.plus(retention),
        errorCode,
        errorMessage,
        ocr,
        ocrLanguages,
        progress(now));
  }

  /**
   * Files with an index above {@code after} (-1: from the first), at most {@code limit} of them.
   */
  synchronized List<FileOutcome> page(int after, int limit) {
    List<FileOutcome> out = new ArrayList<>();
    for (int i = Math.max(0, after + 1); i < files.size() && out.size() < limit; i++) {
      out.add(files.get(i).outcome(ocr, ocrLanguages));
    }
    return out;
  }

  synchronized Instant endedAtOrNull() {
    return endedAt;
  }
}
