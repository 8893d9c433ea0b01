package dev.quarry.corpora.jobs;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One upload of files to a job ({@link IngestJobs.Upload}): the room it reserves in the job and on
 * the server when it begins, the parts its files are written to, and the commit that fsyncs and
 * logs them in the job's folder and hands them to the runners. Not thread-safe; one per request.
 */
final class JobUpload implements IngestJobs.Upload {
  private static final Logger LOG = Logger.getLogger(IngestJobs.class.getName());

  private final JobTable table;
  private final JobRunners runners;
  private final IngestJob job;
  private final List<JobFile> files;
  private final boolean closeAfter;
  private final boolean creates;
  private final long maxBytes;
  private final boolean jobBound;
  private final String uploadId;
  private boolean done;

  private JobUpload(
      JobTable table,
      JobRunners runners,
      IngestJob job,
      List<JobFile> files,
      boolean closeAfter,
      boolean creates,
      long maxBytes,
      boolean jobBound) {
    this.table = table;
    this.runners = runners;
    this.job = job;
    this.files = List.copyOf(files);
    this.closeAfter = closeAfter;
    this.creates = creates;
    this.maxBytes = Math.max(0, maxBytes);
    this.jobBound = jobBound;
    this.uploadId = table.newUploadId();
  }

  /**
   * Reserves room in {@code job} for {@code files}: JOB_CLOSED, INVALID_REQUEST for a source the
   * job already holds, JOB_TOO_LARGE (files), CAPACITY (the server's queue).
   *
   * @param closeAfter close the job once these files are acknowledged
   * @param creates the upload of a submit: closing it uncommitted removes the job
   */
  static JobUpload reserve(
      JobTable table,
      JobRunners runners,
      IngestJob job,
      List<JobFile> files,
      boolean closeAfter,
      boolean creates) {
    JobSettings settings = table.settings();
    int queuedElsewhere = 0;
    long queuedBytes = 0;
    for (IngestJob j : table.all()) {
      queuedElsewhere += j.pendingFiles();
      queuedBytes += j.pendingBytes();
    }
    synchronized (job) {
      if (job.state != JobState.OPEN) {
        throw closed(job);
      }
      Set<String> sources = new HashSet<>();
      job.files.forEach(e -> sources.add(e.spec.source()));
      for (int i = 0; i < files.size(); i++) {
        if (sources.contains(files.get(i).source())) {
          throw QuarryException.invalid(
              "files[" + i + "].source",
              "source '"
                  + files.get(i).source()
                  + "' is already in this job; a job holds each source once");
        }
      }
      int total = job.files.size() + job.reservedFiles + files.size();
      if (total > settings.maxFilesPerJob()) {
        throw new QuarryException(
            ErrorCode.JOB_TOO_LARGE,
            "the job would hold "
                + total
                + " files; a job may hold at most "
                + settings.maxFilesPerJob()
                + " (maxJobFiles)");
      }
      if (queuedElsewhere + files.size() > settings.maxQueuedFiles()
          || queuedBytes >= settings.maxQueuedBytes()) {
        throw serverFull();
      }
      job.reservedFiles += files.size();
      long jobRoom = settings.maxBytesPerJob() - job.bytes();
      long serverRoom = settings.maxQueuedBytes() - queuedBytes;
      return new JobUpload(
          table,
          runners,
          job,
          files,
          closeAfter,
          creates,
          Math.min(jobRoom, serverRoom),
          jobRoom <= serverRoom);
    }
  }

  private static QuarryException serverFull() {
    return new QuarryException(
        ErrorCode.CAPACITY,
        "the server holds as many queued job files as it may "
            + "(maxQueuedFiles, maxQueuedBytes); retry once some are ingested");
  }

  private static QuarryException closed(IngestJob job) {
    return new QuarryException(
        ErrorCode.JOB_CLOSED,
        "job '" + job.id + "' takes no more files: it is " + job.state.wireName());
  }

  @Override
  public String jobId() {
    return job.id;
  }

  @Override
  public List<JobFile> files() {
    return files;
  }

  @Override
  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public QuarryException overBudget() {
    return jobBound ? jobTooLarge(table.settings()) : serverFull();
  }

  private static QuarryException jobTooLarge(JobSettings settings) {
    return new QuarryException(
        ErrorCode.JOB_TOO_LARGE,
        "the job's files would exceed " + settings.maxBytesPerJob() + " bytes (maxJobBytes)");
  }

  @Override
  public Path part(int i) {
    Objects.checkIndex(i, files.size());
    return job.folder.part(uploadId, i);
  }

  @Override
  public JobView commit(List<IngestJobs.StoredFile> stored) {
    if (stored.size() != files.size()) {
      throw new IllegalArgumentException("stored " + stored.size() + " files of " + files.size());
    }
    if (done) {
      throw new IllegalStateException("upload already committed or closed");
    }
    long bytes = stored.stream().mapToLong(IngestJobs.StoredFile::bytes).sum();
    if (bytes > maxBytes) {
      throw overBudget();
    }
    JobSettings settings = table.settings();
    List<IngestJob.Entry> entries = new ArrayList<>();
    synchronized (job) {
      if (job.state != JobState.OPEN) {
        throw closed(job);
      }
      if (job.bytes() + bytes > settings.maxBytesPerJob()) {
        throw jobTooLarge(settings);
      }
      for (int i = 0; i < files.size(); i++) {
        entries.add(
            new IngestJob.Entry(
                job.files.size() + i,
                files.get(i).withFileName(stored.get(i).fileName()),
                stored.get(i).sha256(),
                stored.get(i).bytes()));
      }
      try {
        job.folder.acknowledge(uploadId, entries);
      } catch (IOException e) {
        throw new QuarryException(ErrorCode.UNAVAILABLE, "the files could not be stored", e);
      }
      done = true;
      job.files.addAll(entries);
      job.reservedFiles -= files.size();
      job.lastActivity = table.now();
      // A submit's job is acknowledged with its files: closing it rewrites job.json without the
      // mark.
      job.uncommittedSubmit = false;
      if (closeAfter) {
        table.closeLocked(job);
      }
    }
    runners.queue(job, entries);
    table.maybeEnd(job);
    return job.view(settings.retention(), table.now());
  }

  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    synchronized (job) {
      job.reservedFiles -= files.size();
    }
    for (int i = 0; i < files.size(); i++) {
      try {
        Files.deleteIfExists(part(i));
      } catch (IOException e) {
        LOG.log(
            Level.WARNING, "could not delete an unacknowledged upload part of job " + job.id, e);
      }
    }
    if (creates) {
      table.discard(job);
    }
  }
}
