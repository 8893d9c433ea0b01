package dev.quarry.corpora.jobs;

import dev.quarry.corpora.PrivateFolders;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The jobs of one data folder in memory, each with its {@link JobFolder}, and every change of a
 * job's or a file's state that is stored: creation (under the active-job bound), closing, a file's
 * outcome, a job's end, removal, and the housekeeping that ends idle jobs and removes expired ones.
 * Who makes the changes (the API, the uploads, the runners) is not its concern.
 *
 * <p>Thread-safe: the table is a concurrent map, and each job's changes are made holding the job's
 * monitor ({@link IngestJob}); methods named {@code ...Locked} expect the caller to hold it.
 */
final class JobTable {
  private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
  private static final Logger LOG = Logger.getLogger(IngestJobs.class.getName());

  private final Path root;
  private final JobSettings settings;
  private final Clock clock;
  private final ConcurrentMap<String, IngestJob> jobs = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();

  /** Serializes creations, so the active-job bound holds under concurrent submits. */
  private final Object creation = new Object();

  JobTable(Path root, JobSettings settings, Clock clock) {
    this.root = root;
    this.settings = settings;
    this.clock = clock;
  }

  Path root() {
    return root;
  }

  JobSettings settings() {
    return settings;
  }

  /**
   * The job with {@code id}, or null; whether the caller may see it is {@link IngestJobs}'s to
   * check.
   */
  IngestJob get(String id) {
    return jobs.get(id);
  }

  Collection<IngestJob> all() {
    return jobs.values();
  }

  /** Whether {@code job} is still the table's (not discarded meanwhile). */
  boolean holds(IngestJob job) {
    return jobs.get(job.id) == job;
  }

  /**
   * Reads every job stored under the root into the table, removing what was never acknowledged.
   * Their files are left as they were: resuming them is the runners' ({@link JobRunners#resume}).
   */
  void load() throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
      for (Path dir : dirs) {
        if (!Files.isDirectory(dir)) {
          continue;
        }
        if (!Files.exists(dir.resolve(JobFolder.JOB_JSON))
            || dir.getFileName().toString().startsWith(".")) {
          // A creation cut short: the job was never acknowledged.
          new JobFolder(dir).delete();
          continue;
        }
        IngestJob job = JobFolder.load(dir);
        if (job.uncommittedSubmit) {
          // A submit cut short by the crash: never answered, so nothing of it was acknowledged.
          job.folder.delete();
          continue;
        }
        jobs.put(job.id, job);
      }
    }
  }

  /**
   * A new open job, stored and in the table: CAPACITY when {@link JobSettings#maxActiveJobs()} jobs
   * are open or running. The caller has checked the request, the grants and the corpus.
   *
   * @param submitting stores the job marked as a submit's not yet committed ({@link
   *     IngestJob#uncommittedSubmit})
   */
  IngestJob create(
      String corpus,
      String corpusId,
      Access access,
      OcrChoice ocr,
      List<String> ocrLanguages,
      boolean embedding,
      boolean submitting) {
    synchronized (creation) {
      long active = jobs.values().stream().filter(j -> j.endedAtOrNull() == null).count();
      if (active >= settings.maxActiveJobs()) {
        throw new QuarryException(
            ErrorCode.CAPACITY,
            "the server already runs "
                + active
                + " ingestion jobs (maxActiveJobs); retry once one has ended");
      }
      String id = newJobId();
      IngestJob job =
          new IngestJob(
              id,
              corpus,
              corpusId,
              access,
              now(),
              ocr,
              ocrLanguages,
              embedding,
              new JobFolder(root.resolve(id)));
      job.uncommittedSubmit = submitting;
      try {
        PrivateFolders.create(root);
        job.folder.create(job);
        jobs.put(job.id, job);
        return job;
      } catch (IOException e) {
        throw new QuarryException(ErrorCode.UNAVAILABLE, "the job could not be stored", e);
      }
    }
  }

  /** Removes the job from the table and its folder from the disk. */
  void discard(IngestJob job) {
    jobs.remove(job.id);
    try {
      job.folder.delete();
      JobFolder.fsyncDir(root);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "could not remove the folder of discarded job " + job.id, e);
    }
  }

  void closeLocked(IngestJob job) {
    assert Thread.holdsLock(job);
    job.state = JobState.RUNNING;
    job.closedAt = now();
    persist(job);
  }

  void finish(
      IngestJob job,
      IngestJob.Entry e,
      FileStatus status,
      Receipt receipt,
      ErrorCode code,
      String message) {
    synchronized (job) {
      finishLocked(job, e, status, receipt, code, message);
    }
  }

  void finishLocked(
      IngestJob job,
      IngestJob.Entry e,
      FileStatus status,
      Receipt receipt,
      ErrorCode code,
      String message) {
    assert Thread.holdsLock(job);
    assert status.isOutcome() && !e.status.isOutcome()
        : "a file gets one outcome: " + e.status + " -> " + status;
    e.status = status;
    e.receipt = receipt;
    e.errorCode = code;
    e.errorMessage = message;
    e.endedAt = now();
    try {
      job.folder.recordOutcome(e);
    } catch (IOException io) {
      // The outcome stands in memory; after a restart the file is ingested again, idempotently.
      LOG.log(
          Level.WARNING,
          "could not record the outcome of file " + e.index + " of job " + job.id,
          io);
    }
  }

  /** Gives the job its final state once it takes no more files and every file has its outcome. */
  void maybeEnd(IngestJob job) {
    synchronized (job) {
      if (!job.readyToEnd()) {
        return;
      }
      if (job.state == JobState.RUNNING) {
        job.state = JobState.COMPLETED;
      }
      job.endedAt = now();
      persist(job);
    }
  }

  void persist(IngestJob job) {
    assert Thread.holdsLock(job);
    try {
      job.folder.writeJob(job);
    } catch (IOException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "the job's state could not be stored", e);
    }
  }

  /** Removes ended jobs past their retention and closes open jobs that went idle. */
  void sweep() {
    try {
      Instant now = now();
      for (IngestJob job : jobs.values()) {
        boolean expired;
        synchronized (job) {
          expired = job.endedAt != null && !job.endedAt.plus(settings.retention()).isAfter(now);
          if (job.state == JobState.OPEN
              && job.reservedFiles == 0
              && !job.lastActivity.plus(settings.openIdleTimeout()).isAfter(now)) {
            closeLocked(job);
          }
        }
        if (expired) {
          discard(job);
        } else {
          maybeEnd(job);
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "ingestion job housekeeping failed; it runs again shortly", e);
    }
  }

  Instant now() {
    return clock.instant();
  }

  /** A fresh job id, {@code job_} and 24 random characters: what a client names the job by. */
  String newJobId() {
    return "job_" + randomId();
  }

  /**
   * A fresh upload id, 24 random characters: it names only the upload's parts in its job's folder
   * ({@link JobFolder#part}), whose names already say what they are.
   */
  String newUploadId() {
    return randomId();
  }

  private String randomId() {
    char[] id = new char[24];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_ALPHABET[random.nextInt(ID_ALPHABET.length)];
    }
    return new String(id);
  }
}
