package dev.quarry.corpora.jobs;

import dev.quarry.corpora.Corpora;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The threads of the jobs: a few runners that take acknowledged files from one queue and ingest
 * each through {@link Corpora#ingest} with the submitter's grants and a per-file idempotency key,
 * and one timer for the pauses before a retry and for the {@link JobTable#sweep housekeeping}. Also
 * what the runners must agree with: cancelling a job (no file not yet written is written after it
 * answers) and resuming the jobs found at a restart.
 *
 * <p>Thread-safe. Started once the table is loaded; {@link #close} lets the files being ingested
 * finish and leaves the rest for the next start.
 */
final class JobRunners implements AutoCloseable {
  /** Retryable refusals (a full extraction pool) wait at most this long before the next try. */
  static final long MAX_RETRY_PAUSE_MILLIS = 5_000;

  /** A store that keeps failing (UNAVAILABLE) fails the file after this many tries. */
  static final int MAX_UNAVAILABLE_TRIES = 5;

  private static final Logger LOG = Logger.getLogger(IngestJobs.class.getName());

  private final Corpora corpora;
  private final JobTable table;
  private final LinkedBlockingQueue<Task> queue = new LinkedBlockingQueue<>();
  private final ExecutorService runners;
  private final ScheduledExecutorService timer;
  private volatile boolean stopping;

  private record Task(IngestJob job, IngestJob.Entry entry) {}

  JobRunners(Corpora corpora, JobTable table) {
    this.corpora = corpora;
    this.table = table;
    this.runners =
        Executors.newFixedThreadPool(table.settings().workers(), daemon("quarry-ingest-job"));
    this.timer = Executors.newSingleThreadScheduledExecutor(daemon("quarry-ingest-job-timer"));
  }

  /** Starts the runners and the housekeeping. */
  void start() {
    JobSettings settings = table.settings();
    for (int i = 0; i < settings.workers(); i++) {
      runners.execute(this::runLoop);
    }
    long sweepMillis =
        Math.max(
            100,
            Math.min(
                60_000,
                Math.min(settings.retention().toMillis(), settings.openIdleTimeout().toMillis())
                    / 10));
    timer.scheduleWithFixedDelay(table::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
  }

  /** Queues acknowledged files of {@code job} for the runners. */
  void queue(IngestJob job, List<IngestJob.Entry> entries) {
    entries.forEach(e -> queue.add(new Task(job, e)));
  }

  /**
   * Resumes the jobs loaded at a restart: each file without an outcome is queued again, or gets its
   * outcome at once when its job was cancelled or had failed.
   */
  void resume() {
    for (IngestJob job : table.all()) {
      synchronized (job) {
        for (IngestJob.Entry e : job.files) {
          if (e.status.isOutcome()) {
            continue;
          }
          if (job.state == JobState.CANCELLED) {
            table.finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
          } else if (job.errorCode != null) {
            table.finishLocked(job, e, FileStatus.FAILED, null, job.errorCode, job.errorMessage);
          } else {
            queue.add(new Task(job, e));
          }
        }
      }
      table.maybeEnd(job);
    }
  }

  /**
   * Cancels {@code job} (see {@link IngestJobs#cancel}): queued files get their outcome at once,
   * and this waits (up to {@link IngestJobs#WRITE_WAIT}) until no file of the job is being written.
   */
  void cancel(IngestJob job) {
    List<IngestJob.Entry> cancelled = new ArrayList<>();
    synchronized (job) {
      if (job.endedAt == null && job.state != JobState.CANCELLED && job.state != JobState.FAILED) {
        job.state = JobState.CANCELLED;
        if (job.closedAt == null) {
          job.closedAt = table.now();
        }
        table.persist(job);
        for (IngestJob.Entry e : job.files) {
          if (e.status == FileStatus.QUEUED) {
            cancelled.add(e);
          }
        }
      }
      for (IngestJob.Entry e : cancelled) {
        table.finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
      }
      long deadline = System.nanoTime() + IngestJobs.WRITE_WAIT.toNanos();
      while (job.writing > 0 && System.nanoTime() < deadline) {
        try {
          job.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
  }

  private void runLoop() {
    while (!stopping) {
      Task task;
      try {
        task = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (task != null && !stopping) {
        try {
          run(task.job(), task.entry());
        } catch (RuntimeException | Error e) {
          LOG.log(Level.SEVERE, "the ingestion job runner failed on job " + task.job().id, e);
        }
      }
    }
  }

  private void run(IngestJob job, IngestJob.Entry e) {
    synchronized (job) {
      if (e.status != FileStatus.QUEUED || !table.holds(job)) {
        return;
      }
      if (job.state == JobState.CANCELLED) {
        table.finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
        return;
      }
      if (job.errorCode != null) {
        table.finishLocked(job, e, FileStatus.FAILED, null, job.errorCode, job.errorMessage);
        return;
      }
      e.status = FileStatus.EXTRACTING;
      if (job.startedAt == null) {
        job.startedAt = table.now();
      }
      job.running(table.now());
    }
    boolean[] writing = {false};
    try {
      MutationResult result =
          corpora.ingest(
              job.access,
              job.corpus,
              e.spec.toRequest(job.corpusId, job.ocr, job.ocrLanguages),
              job.folder.file(e.index),
              idempotency(job, e),
              () -> {
                synchronized (job) {
                  if (job.state == JobState.CANCELLED) {
                    throw new QuarryException(ErrorCode.CANCELLED, "the job was cancelled");
                  }
                  job.writing++;
                  writing[0] = true;
                }
              });
      Receipt receipt = result.single();
      table.finish(
          job,
          e,
          receipt.status() == Receipt.Status.UNCHANGED ? FileStatus.UNCHANGED : FileStatus.INDEXED,
          receipt,
          null,
          null);
    } catch (QuarryException q) {
      if (stopping) {
        requeueLater(job, e, -1);
      } else {
        failed(job, e, q);
      }
    } catch (RuntimeException | Error x) {
      if (stopping) {
        requeueLater(job, e, -1);
      } else {
        LOG.log(
            Level.SEVERE,
            "ingesting file " + e.index + " of job " + job.id + " failed unexpectedly",
            x);
        table.finish(
            job,
            e,
            FileStatus.FAILED,
            null,
            ErrorCode.INTERNAL,
            "an unexpected fault; see the server log");
      }
    } finally {
      if (writing[0]) {
        synchronized (job) {
          job.writing--;
          job.notifyAll();
        }
      }
    }
    table.maybeEnd(job);
  }

  private void failed(IngestJob job, IngestJob.Entry e, QuarryException q) {
    switch (q.code()) {
      case CANCELLED -> table.finish(job, e, FileStatus.CANCELLED, null, null, null);
      // The extraction pool is shared with single ingests: wait for room rather than fail the file.
      case CAPACITY, IDEMPOTENCY_IN_PROGRESS -> requeueLater(job, e, retryPause(e));
      case UNAVAILABLE -> {
        if (e.retries + 1 < MAX_UNAVAILABLE_TRIES) {
          requeueLater(job, e, retryPause(e));
        } else {
          table.finish(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
        }
      }
      case CORPUS_NOT_FOUND, CORPUS_REPLACED -> {
        // The job's corpus is gone: no file of it can succeed any more.
        synchronized (job) {
          if (job.errorCode == null) {
            job.errorCode = q.code();
            job.errorMessage = q.getMessage();
            if (job.state == JobState.OPEN || job.state == JobState.RUNNING) {
              job.state = JobState.FAILED;
              if (job.closedAt == null) {
                job.closedAt = table.now();
              }
            }
            table.persist(job);
          }
          table.finishLocked(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
          for (IngestJob.Entry other : job.files) {
            if (other.status == FileStatus.QUEUED) {
              table.finishLocked(job, other, FileStatus.FAILED, null, q.code(), q.getMessage());
            }
          }
        }
      }
      default -> table.finish(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
    }
  }

  private static long retryPause(IngestJob.Entry e) {
    return Math.min(MAX_RETRY_PAUSE_MILLIS, 100L << Math.min(10, e.retries));
  }

  /**
   * Puts the file back in the queue after {@code pauseMillis}; below 0, only marks it queued
   * (shutting down).
   */
  private void requeueLater(IngestJob job, IngestJob.Entry e, long pauseMillis) {
    synchronized (job) {
      e.status = FileStatus.QUEUED;
      e.retries++;
    }
    if (pauseMillis >= 0 && !stopping) {
      timer.schedule(() -> queue.add(new Task(job, e)), pauseMillis, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The key of one file's ingestion: the job and the file's place in it, so only this file's own
   * retries (after a crash) ever present it. Its file name is logged with the file and never
   * changes, so it needs no place in the fingerprint; adding it would only turn the retry of a file
   * recorded by an earlier version into a refusal.
   */
  private static Mutation.Idempotency idempotency(IngestJob job, IngestJob.Entry e) {
    return new Mutation.Idempotency(
        "ingest-job:" + job.id + ":" + e.index,
        Sha256.ofUtf8(
            "ingest-job\n" + job.id + "\n" + e.index + "\n" + e.spec.source() + "\n" + e.sha256));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Stops the runners: files being ingested finish (up to {@link IngestJobs#WRITE_WAIT}), the
   * others stay queued on disk for the next start.
   */
  @Override
  public void close() {
    stopping = true;
    shutdown();
  }

  /**
   * Stops the threads without marking the runners stopping: for an open that failed before they
   * started.
   */
  void shutdown() {
    timer.shutdownNow();
    runners.shutdown();
    try {
      if (!runners.awaitTermination(IngestJobs.WRITE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warning(
            "ingestion job runners still busy after "
                + IngestJobs.WRITE_WAIT
                + "; their files run again at the next start");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
