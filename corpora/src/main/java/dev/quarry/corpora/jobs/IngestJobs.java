package dev.quarry.corpora.jobs;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.FileErrors;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.corpora.ingest.OcrLanguages;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Durable ingestion jobs: many document files ingested into one corpus, detached from the
 * connections that sent them, surviving a restart of the process.
 *
 * <p>A job is created for a corpus ({@link #create}), receives files in one or more uploads ({@link
 * #upload}; each file's bytes and SHA-256 are on disk, fsynced, before the upload is acknowledged),
 * and is closed ({@link #close}); {@link #submit} does all three with one upload. Files are
 * ingested as soon as they are acknowledged, by a few runner threads, each through {@link
 * Corpora#ingest} (the path of a single ingest: the extraction pool, then one revision), with an
 * idempotency key of the job and the file's place in it, so a file whose ingestion was cut short by
 * a crash is ingested again after the restart and its first receipt stands if it had been written:
 * every acknowledged file is indexed exactly once. {@link #cancel} keeps every file not yet written
 * out of the corpus; files already indexed stay.
 *
 * <p>Grants: creating and uploading need {@code index} on the corpus and every named source;
 * reading, listing and cancelling need the submitting subject, or {@code manage} on the corpus. Any
 * other caller gets JOB_NOT_FOUND, exactly as for an id that never existed, and {@link #list}
 * leaves such jobs out, so a token never learns of others' jobs. The runner ingests with the grants
 * the submitter had when it created the job.
 *
 * <p>Jobs live under {@code <data>/ingest-jobs/} ({@link JobFolder}); an ended job is removed
 * {@link JobSettings#retention()} after it ended.
 *
 * <p>This class is the entry point and holds the checks and the grants; the work is in three parts
 * with one lifecycle each: {@link JobTable} (the jobs in memory and every stored change of their
 * state), {@link JobUpload} (one upload, from its reservation to its commit or its drop) and {@link
 * JobRunners} (the threads that ingest the files, cancellation, and resuming at a restart).
 *
 * <p>Thread-safe. One per data folder, opened after the {@link Corpora} and closed before them;
 * {@link #close} lets the files being ingested finish and leaves the rest for the next start.
 */
public final class IngestJobs implements AutoCloseable {
  /** The folder below the data folder that holds every job. */
  public static final String FOLDER = "ingest-jobs";

  /** How long {@link #close} and {@link #cancel} wait for files being written. */
  static final Duration WRITE_WAIT = Duration.ofSeconds(30);

  private static final Pattern ID = Pattern.compile("[a-z0-9_]{1,64}");
  private static final Set<Scope> INDEX = EnumSet.of(Scope.INDEX);
  private static final Set<Scope> MANAGE = EnumSet.of(Scope.MANAGE);

  private final Corpora corpora;
  private final JobTable table;
  private final JobRunners runners;

  private IngestJobs(Path root, Corpora corpora, JobSettings settings, Clock clock) {
    this.corpora = corpora;
    this.table = new JobTable(root, settings, clock);
    this.runners = new JobRunners(corpora, table);
  }

  /**
   * Opens the jobs of {@code dataDir}, resumes every job that had not ended (its files without an
   * outcome are queued again), and starts the runners.
   *
   * @throws QuarryException UNAVAILABLE when the jobs folder cannot be read
   */
  public static IngestJobs open(Path dataDir, Corpora corpora, JobSettings settings) {
    return open(dataDir, corpora, settings, Clock.systemUTC());
  }

  static IngestJobs open(Path dataDir, Corpora corpora, JobSettings settings, Clock clock) {
    Objects.requireNonNull(corpora, "corpora");
    Objects.requireNonNull(settings, "settings");
    if (!corpora.ingestsDocuments()) {
      throw new IllegalArgumentException("ingestion jobs need corpora built with extractors");
    }
    IngestJobs jobs = new IngestJobs(dataDir.resolve(FOLDER), corpora, settings, clock);
    try {
      jobs.table.load();
      jobs.runners.resume();
    } catch (IOException | RuntimeException e) {
      jobs.runners.shutdown();
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "cannot open the ingestion jobs in "
              + jobs.table.root()
              + ": "
              + (e instanceof IOException io ? FileErrors.why(io) : e.toString()),
          e);
    }
    jobs.runners.start();
    return jobs;
  }

  public JobSettings settings() {
    return table.settings();
  }

  // ----- submitting

  /**
   * A new open job for {@code corpus}. Order: validation, grants ({@code index} on the corpus),
   * existence (CORPUS_NOT_FOUND), CORPUS_REPLACED when {@code expectedCorpusId} differs, then
   * capacity (CAPACITY when {@link JobSettings#maxActiveJobs()} jobs are open or running).
   */
  public JobView create(Access access, String corpus, String expectedCorpusId) {
    return create(access, corpus, expectedCorpusId, null);
  }

  /**
   * As {@link #create(Access, String, String)}, for a job whose files are extracted with OCR {@code
   * ocr} (each file may name its own; null: the server's setting). Whether the server offers OCR is
   * the caller's to check, before the grants, as a single ingest does; a file that asks for it on a
   * server that no longer offers it (restarted without it) fails alone at its extraction.
   */
  public JobView create(Access access, String corpus, String expectedCorpusId, OcrChoice ocr) {
    return create(access, corpus, expectedCorpusId, ocr, null);
  }

  /**
   * As {@link #create(Access, String, String, OcrChoice)}, for a job whose files are recognised
   * with the Tesseract language data {@code ocrLanguages} (null: the server's). A language this
   * server cannot read (no OCR, or its data not installed) is refused at {@code ocrLanguages[i]}
   * first, before the grants; the job remembers the languages across restarts.
   */
  public JobView create(
      Access access,
      String corpus,
      String expectedCorpusId,
      OcrChoice ocr,
      List<String> ocrLanguages) {
    return createJob(access, corpus, expectedCorpusId, ocr, ocrLanguages, List.of(), false)
        .view(settings().retention(), table.now());
  }

  /**
   * An upload of {@code files} to an open job of the caller's: write file {@code i}'s bytes to
   * {@link Upload#part}, then {@link Upload#commit} acknowledges them all at once (or close the
   * upload to drop them). Order: validation, JOB_NOT_FOUND (unknown, or another subject's), grants
   * ({@code index} on every named source), JOB_CLOSED, JOB_TOO_LARGE (files), CAPACITY.
   *
   * @param closeAfter close the job once these files are acknowledged
   */
  public Upload upload(Access access, String jobId, List<JobFile> files, boolean closeAfter) {
    checkFiles(files);
    IngestJob job = find(access, jobId, false);
    for (JobFile f : files) {
      AccessPolicy.requireSource(access, job.corpus, f.source(), INDEX);
    }
    return JobUpload.reserve(table, runners, job, files, closeAfter, false);
  }

  /**
   * One upload that creates a job, holds {@code files} and closes it: nothing exists until {@link
   * Upload#commit}, and closing the upload uncommitted removes the job. Order: validation, grants
   * ({@code index} on the corpus and every source), existence, CORPUS_REPLACED, capacity.
   */
  public Upload submit(Access access, String corpus, String expectedCorpusId, List<JobFile> files) {
    return submit(access, corpus, expectedCorpusId, null, files);
  }

  /**
   * As {@link #submit(Access, String, String, List)}, for a job with OCR choice {@code ocr} (see
   * {@link #create}).
   */
  public Upload submit(
      Access access, String corpus, String expectedCorpusId, OcrChoice ocr, List<JobFile> files) {
    return submit(access, corpus, expectedCorpusId, ocr, null, files);
  }

  /**
   * As {@link #submit(Access, String, String, OcrChoice, List)}, with OCR languages (see {@link
   * #create}).
   */
  public Upload submit(
      Access access,
      String corpus,
      String expectedCorpusId,
      OcrChoice ocr,
      List<String> ocrLanguages,
      List<JobFile> files) {
    checkFiles(files);
    IngestJob job = createJob(access, corpus, expectedCorpusId, ocr, ocrLanguages, files, true);
    try {
      return JobUpload.reserve(table, runners, job, files, true, true);
    } catch (RuntimeException e) {
      table.discard(job);
      throw e;
    }
  }

  /**
   * @param submitting for a submit: the job is stored marked so, and a restart before its upload is
   *     committed removes it, as closing the uncommitted upload does
   */
  private IngestJob createJob(
      Access access,
      String corpus,
      String expectedCorpusId,
      OcrChoice ocr,
      List<String> ocrLanguages,
      List<JobFile> files,
      boolean submitting) {
    List<String> languages = OcrLanguages.check(ocrLanguages, "ocrLanguages");
    OcrLanguages.requireInstalled(
        languages, "ocrLanguages", corpora.ingestsWithOcr(), corpora::missingOcrLanguages);
    CorpusInfo.checkName(corpus, "corpus");
    AccessPolicy.requireCorpus(access, corpus, INDEX);
    for (JobFile f : files) {
      AccessPolicy.requireSource(access, corpus, f.source(), INDEX);
    }
    CorpusDescription description = corpora.readCorpus(access, corpus);
    description.info().requireCorpusId(expectedCorpusId);
    return table.create(
        corpus,
        description.info().corpusId(),
        access,
        ocr,
        languages,
        description.info().settings().hasEmbedding(),
        submitting);
  }

  /**
   * Sources named twice, and OCR languages this server cannot read (at {@code
   * files[i].ocrLanguages[j]}).
   */
  private void checkFiles(List<JobFile> files) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < files.size(); i++) {
      OcrLanguages.requireInstalled(
          files.get(i).ocrLanguages(),
          "files[" + i + "].ocrLanguages",
          corpora.ingestsWithOcr(),
          corpora::missingOcrLanguages);
      if (!seen.add(files.get(i).source())) {
        throw QuarryException.invalid(
            "files[" + i + "].source",
            "source '"
                + files.get(i).source()
                + "' appears twice in this upload; a job holds each source once");
      }
    }
  }

  /**
   * Files of one upload on their way to a job: written by the caller to {@link #part}, then
   * acknowledged together by {@link #commit}. Not thread-safe; one per request. Close it in any
   * case: uncommitted, it deletes what was written (and the job, for a {@link #submit}).
   */
  public sealed interface Upload extends AutoCloseable permits JobUpload {
    String jobId();

    List<JobFile> files();

    /** What all files of this upload may hold together. */
    long maxBytes();

    /**
     * The refusal for an upload past {@link #maxBytes}: JOB_TOO_LARGE, or CAPACITY when the server
     * is the bound.
     */
    QuarryException overBudget();

    /** Where file {@code i}'s bytes are written. */
    Path part(int i);

    /**
     * Acknowledges the files, whose bytes are at {@link #part} and whose SHA-256 and sizes are
     * {@code stored}, in order: fsynced, logged, queued for the runners. After it returns the files
     * are the job's, whatever happens to this process.
     *
     * @throws QuarryException JOB_CLOSED when the job was cancelled meanwhile, JOB_TOO_LARGE or
     *     CAPACITY when concurrent uploads took the room, UNAVAILABLE when the disk failed; nothing
     *     is acknowledged then
     */
    JobView commit(List<StoredFile> stored);

    @Override
    void close();
  }

  /**
   * One file as stored by an upload: its SHA-256 (lowercase hex), its size, and the name the client
   * gave it (its part's {@code filename}, or null), which detection takes as a hint as on a single
   * ingest.
   */
  public record StoredFile(String sha256, long bytes, String fileName) {
    public StoredFile {
      Objects.requireNonNull(sha256, "sha256");
    }

    /** A file stored without a name. */
    public StoredFile(String sha256, long bytes) {
      this(sha256, bytes, null);
    }
  }

  // ----- closing, cancelling, reading

  /**
   * Stops the job taking files; it ends once they all have their outcome. Closing it again changes
   * nothing.
   */
  public JobView close(Access access, String jobId) {
    IngestJob job = find(access, jobId, false);
    synchronized (job) {
      if (job.state == JobState.OPEN) {
        table.closeLocked(job);
      }
    }
    table.maybeEnd(job);
    return job.view(settings().retention(), table.now());
  }

  /**
   * Cancels the job: it takes no more files, files not yet written are never indexed (queued ones
   * at once, those being extracted when their extraction returns), and files already indexed stay.
   * Answers once no file of the job is being written. Cancelling an ended job changes nothing. The
   * job reads as running until the files being extracted return, then as cancelled with its end
   * ({@link IngestJob#view}): cancelled means the work has stopped.
   */
  public JobView cancel(Access access, String jobId) {
    IngestJob job = find(access, jobId, true);
    runners.cancel(job);
    table.maybeEnd(job);
    return job.view(settings().retention(), table.now());
  }

  /**
   * The job and its files with an index above {@code after} (-1 for the first page), at most {@code
   * limit}. Pages are keyset pages: a file's index never changes, files are only appended, and each
   * page shows the files' outcomes as they are when it is read.
   */
  public JobPage read(Access access, String jobId, int after, int limit) {
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    IngestJob job = find(access, jobId, true);
    synchronized (job) {
      List<FileOutcome> page = job.page(after, limit);
      int last = page.isEmpty() ? after : page.get(page.size() - 1).index();
      Integer next = last + 1 < job.files.size() && !page.isEmpty() ? last : null;
      return new JobPage(job.view(settings().retention(), table.now()), page, next);
    }
  }

  /**
   * The jobs the caller may {@link #read}, newest first: those after {@code after} (null: from the
   * newest), at most {@code limit}, narrowed to {@code corpus} and {@code state} when they are not
   * null. A job the caller may not read is never listed, so it cannot be counted either; {@code
   * next} is set only when a readable job follows. Order: validation, then grants (FORBIDDEN when
   * {@code corpus} is named and the caller has no grant on it, as for any request on a corpus).
   */
  public JobListPage list(
      Access access, String corpus, JobState state, JobListPage.Key after, int limit) {
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    if (corpus != null) {
      CorpusInfo.checkName(corpus, "corpus");
      if (!AccessPolicy.anyGrant(access, corpus)) {
        throw AccessPolicy.forbidden();
      }
    }
    // The keys never change, so the jobs are placed by them first; only the jobs the page can hold
    // are then viewed (a view counts every file of its job), one by one in list order until the
    // page is full and one more match shows that another page follows.
    List<IngestJob> candidates = new ArrayList<>();
    for (IngestJob job : table.all()) {
      if ((corpus == null || job.corpus.equals(corpus))
          && (after == null || JobListPage.Key.of(job).compareTo(after) > 0)
          && mayRead(access, job, true)) {
        candidates.add(job);
      }
    }
    candidates.sort(Comparator.comparing(JobListPage.Key::of));
    List<JobView> page = new ArrayList<>();
    for (IngestJob job : candidates) {
      JobView view = job.view(settings().retention(), table.now());
      if (state != null && view.state() != state) {
        continue;
      }
      if (page.size() == limit) {
        return new JobListPage(page, JobListPage.Key.of(page.get(limit - 1)));
      }
      page.add(view);
    }
    return new JobListPage(page, null);
  }

  /**
   * The caller's job: its own, or any on a corpus it may manage when {@code manageMayRead}.
   * Everything else is JOB_NOT_FOUND, worded as for an id that never existed.
   */
  private IngestJob find(Access access, String jobId, boolean manageMayRead) {
    checkId(jobId);
    IngestJob job = table.get(jobId);
    if (job != null && mayRead(access, job, manageMayRead)) {
      return job;
    }
    throw new QuarryException(
        ErrorCode.JOB_NOT_FOUND, "no ingestion job '" + jobId + "' that this token may see");
  }

  /**
   * Whether the caller may see {@code job}: it needs a grant on the job's corpus, and must be the
   * submitting subject or, when {@code manageMayRead}, hold {@code manage} on that corpus. One rule
   * for reading, cancelling and listing.
   */
  private static boolean mayRead(Access access, IngestJob job, boolean manageMayRead) {
    if (!AccessPolicy.anyGrant(access, job.corpus)) {
      return false;
    }
    if (job.access.subject().equals(access.subject())) {
      return true;
    }
    if (manageMayRead) {
      try {
        AccessPolicy.requireCorpus(access, job.corpus, MANAGE);
        return true;
      } catch (QuarryException notManager) {
        return false;
      }
    }
    return false;
  }

  /** INVALID_REQUEST naming {@code job} unless {@code id} could be a job id. */
  public static void checkId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw QuarryException.invalid("job", "job must be a job id as a job's answer gave it");
    }
  }

  /**
   * Stops the runners: files being ingested finish (up to {@link #WRITE_WAIT}), the others stay
   * queued on disk for the next start. Call before closing the corpora.
   */
  @Override
  public void close() {
    runners.close();
  }
}
