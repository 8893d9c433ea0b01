package dev.quarry.openai.routes;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.jobs.FileOutcome;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.corpora.jobs.JobPage;
import dev.quarry.corpora.jobs.JobView;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.openai.store.Attachment;
import dev.quarry.openai.store.Attachments;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * The status of attached files and batches, read from Quarry's durable ingestion jobs: a file
 * queued or being extracted is {@code in_progress}; indexed or unchanged, {@code completed};
 * failed, {@code failed} (with its error); cancelled, {@code cancelled}. A final status is copied
 * into the file's attachment record when first seen, since a job's record is removed some time
 * after it ends.
 *
 * <p>Jobs are read with a reader's access that holds {@code manage} on the store's corpus alone:
 * the caller's own grants on the store and the file were checked before, and a job is otherwise
 * readable only by the token subject that submitted it, while a vector store's files are every
 * reader's.
 */
final class Statuses {
  static final String IN_PROGRESS = "in_progress";
  static final String COMPLETED = "completed";
  static final String FAILED = "failed";
  static final String CANCELLED = "cancelled";

  private final Corpora corpora;
  private final IngestJobs jobs;
  private final Attachments attachments;

  Statuses(Corpora corpora, IngestJobs jobs, Attachments attachments) {
    this.corpora = corpora;
    this.jobs = jobs;
    this.attachments = attachments;
  }

  /** A file's status, and its error when it failed. */
  record FileState(String status, String errorCode, String errorMessage) {}

  /**
   * Where attachment {@code a} of {@code corpus} is now; records a final status it sees for the
   * first time.
   */
  FileState of(String corpus, Attachment a) {
    if (a.outcome() != null) {
      return new FileState(a.outcome(), a.errorCode(), a.errorMessage());
    }
    FileState state;
    Optional<JobPage> page = readJob(corpus, a.job(), a.index() - 1);
    if (page.isPresent()
        && !page.get().files().isEmpty()
        && page.get().files().get(0).index() == a.index()) {
      state = of(page.get().files().get(0));
    } else {
      // The job's record is gone (ended long ago, or the store was replaced): the source tells.
      state =
          sourceExists(corpus, a.fileId())
              ? new FileState(COMPLETED, null, null)
              : new FileState(
                  FAILED,
                  ErrorCode.UNAVAILABLE.name(),
                  "the record of this file's ingestion is gone");
    }
    if (!state.status().equals(IN_PROGRESS)) {
      attachments.recordOutcome(
          corpus, a.withOutcome(state.status(), state.errorCode(), state.errorMessage()));
    }
    return state;
  }

  private static FileState of(FileOutcome f) {
    return switch (f.status()) {
      case QUEUED, EXTRACTING -> new FileState(IN_PROGRESS, null, null);
      case INDEXED, UNCHANGED -> new FileState(COMPLETED, null, null);
      case FAILED -> new FileState(FAILED, f.errorCode().name(), f.errorMessage());
      case CANCELLED -> new FileState(CANCELLED, null, null);
    };
  }

  /** A batch's job, or empty when its record is gone. */
  Optional<JobView> job(String corpus, String jobId) {
    return readJob(corpus, jobId, -1).map(JobPage::job);
  }

  /** A batch's status from its job's state. */
  static String batchStatus(JobView job) {
    return switch (job.state()) {
      case OPEN, RUNNING -> IN_PROGRESS;
      case COMPLETED -> COMPLETED;
      case CANCELLED -> CANCELLED;
      case FAILED -> FAILED;
    };
  }

  private Optional<JobPage> readJob(String corpus, String jobId, int after) {
    try {
      IngestJobs.checkId(jobId);
      return Optional.of(jobs.read(reader(corpus), jobId, after, 1));
    } catch (QuarryException e) {
      if (e.code() == ErrorCode.JOB_NOT_FOUND || e.code() == ErrorCode.INVALID_REQUEST) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private boolean sourceExists(String corpus, String source) {
    try {
      corpora.readSource(reader(corpus), corpus, source);
      return true;
    } catch (QuarryException e) {
      if (e.code() == ErrorCode.SOURCE_NOT_FOUND || e.code() == ErrorCode.CORPUS_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /**
   * The status reader's access: {@code manage} (which reads every job) and {@code search} on one
   * corpus.
   */
  private static Access reader(String corpus) {
    return new Access(
        "quarry-openai-status",
        List.of(new Grant(corpus, null, EnumSet.of(Scope.MANAGE, Scope.SEARCH))));
  }
}
