package dev.quarry.corpora.jobs;

import java.time.Duration;

/**
 * The bounds and timings of {@link IngestJobs}: what one job may hold, what the whole server may
 * hold at once, how long an ended job stays readable, and how many files are ingested at once.
 *
 * @param maxFilesPerJob files one job may hold; more is JOB_TOO_LARGE
 * @param maxBytesPerJob bytes one job's files may hold together; more is JOB_TOO_LARGE
 * @param maxActiveJobs jobs open or running at once, server-wide; one more is CAPACITY
 * @param maxQueuedFiles files stored and not yet ingested, server-wide; more is CAPACITY
 * @param maxQueuedBytes bytes of those files, server-wide; more is CAPACITY
 * @param retention how long an ended job (its status and outcomes) stays readable before it is
 *     removed
 * @param openIdleTimeout an open job that gets no files and no close for this long is closed, so an
 *     abandoned upload still finishes and is removed in time
 * @param workers files ingested at once by the job runner (each one extraction in the pool)
 */
public record JobSettings(
    int maxFilesPerJob,
    long maxBytesPerJob,
    int maxActiveJobs,
    int maxQueuedFiles,
    long maxQueuedBytes,
    Duration retention,
    Duration openIdleTimeout,
    int workers) {
  /** As many as a folder of a few thousand documents has, with room. */
  public static final int DEFAULT_MAX_FILES_PER_JOB = 10_000;

  /** 10 GiB: a large document collection, still well below a typical data disk. */
  public static final long DEFAULT_MAX_BYTES_PER_JOB = 10L << 30;

  /**
   * Jobs are for bulk loads; a few dozen at once is already more than the extraction pool keeps up
   * with.
   */
  public static final int DEFAULT_MAX_ACTIVE_JOBS = 32;

  public static final int DEFAULT_MAX_QUEUED_FILES = 100_000;

  /** 20 GiB of stored uploads waiting for extraction. */
  public static final long DEFAULT_MAX_QUEUED_BYTES = 20L << 30;

  /** A day: long enough to look at the outcome of last night's load. */
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

  /** An hour without files or close: the client is gone. */
  public static final Duration DEFAULT_OPEN_IDLE_TIMEOUT = Duration.ofHours(1);

  /** The default extraction pool has two workers; more runners would only queue there. */
  public static final int DEFAULT_WORKERS = 2;

  public static final JobSettings DEFAULT =
      new JobSettings(
          DEFAULT_MAX_FILES_PER_JOB,
          DEFAULT_MAX_BYTES_PER_JOB,
          DEFAULT_MAX_ACTIVE_JOBS,
          DEFAULT_MAX_QUEUED_FILES,
          DEFAULT_MAX_QUEUED_BYTES,
          DEFAULT_RETENTION,
          DEFAULT_OPEN_IDLE_TIMEOUT,
          DEFAULT_WORKERS);

  /**
   * @throws IllegalArgumentException naming the setting, its bound and the value
   */
  public JobSettings {
    atLeastOne("maxFilesPerJob", maxFilesPerJob);
    atLeastOne("maxBytesPerJob", maxBytesPerJob);
    atLeastOne("maxActiveJobs", maxActiveJobs);
    atLeastOne("maxQueuedFiles", maxQueuedFiles);
    atLeastOne("maxQueuedBytes", maxQueuedBytes);
    atLeastOne("workers", workers);
    if (workers > 64) {
      throw new IllegalArgumentException("workers must be at most 64; got " + workers);
    }
    positive("retention", retention);
    positive("openIdleTimeout", openIdleTimeout);
  }

  private static void atLeastOne(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1; got " + value);
    }
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration; got " + d);
    }
  }
}
