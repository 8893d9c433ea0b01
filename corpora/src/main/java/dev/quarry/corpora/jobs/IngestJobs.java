package dev.quarry.corpora.jobs;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.FileErrors;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Durable ingestion jobs: many document files ingested into one corpus, detached from the
 * connections that sent them, surviving a restart of the process.
 *
 * <p>A job is created for a corpus ({@link #create}), receives files in one or more uploads
 * ({@link #upload}; each file's bytes and SHA-256 are on disk, fsynced, before the upload is
 * acknowledged), and is closed ({@link #close}); {@link #submit} does all three with one upload.
 * Files are ingested as soon as they are acknowledged, by a few runner threads, each through
 * {@link Corpora#ingest} (the path of a single ingest: the extraction pool, then one revision), with
 * an idempotency key of the job and the file's place in it, so a file whose ingestion was cut short
 * by a crash is ingested again after the restart and its first receipt stands if it had been written:
 * every acknowledged file is indexed exactly once. {@link #cancel} keeps every file not yet written
 * out of the corpus; files already indexed stay.
 *
 * <p>Grants: creating and uploading need {@code index} on the corpus and every named source; reading,
 * listing and cancelling need the submitting subject, or {@code manage} on the corpus. Any other
 * caller gets JOB_NOT_FOUND, exactly as for an id that never existed, and {@link #list} leaves such
 * jobs out, so a token never learns of others' jobs.
 * The runner ingests with the grants the submitter had when it created the job.
 *
 * <p>Jobs live under {@code <data>/ingest-jobs/} ({@link JobFolder}); an ended job is removed
 * {@link JobSettings#retention()} after it ended.
 *
 * <p>Thread-safe. One per data folder, opened after the {@link Corpora} and closed before them;
 * {@link #close} lets the files being ingested finish and leaves the rest for the next start.
 */
public final class IngestJobs implements AutoCloseable {
  /** The folder below the data folder that holds every job. */
  public static final String FOLDER = "ingest-jobs";
  /** How long {@link #close} and {@link #cancel} wait for files being written. */
  static final Duration WRITE_WAIT = Duration.ofSeconds(30);
  /** Retryable refusals (a full extraction pool) wait at most this long before the next try. */
  static final long MAX_RETRY_PAUSE_MILLIS = 5_000;
  /** A store that keeps failing (UNAVAILABLE) fails the file after this many tries. */
  static final int MAX_UNAVAILABLE_TRIES = 5;
  private static final Pattern ID = Pattern.compile("[a-z0-9_]{1,64}");
  private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
  private static final Set<Scope> INDEX = EnumSet.of(Scope.INDEX);
  private static final Set<Scope> MANAGE = EnumSet.of(Scope.MANAGE);
  private static final Logger LOG = Logger.getLogger(IngestJobs.class.getName());

  private final Path root;
  private final Corpora corpora;
  private final JobSettings settings;
  private final Clock clock;
  private final ConcurrentMap<String, IngestJob> jobs = new ConcurrentHashMap<>();
  private final LinkedBlockingQueue<Task> queue = new LinkedBlockingQueue<>();
  private final ExecutorService runners;
  private final ScheduledExecutorService timer;
  private final SecureRandom random = new SecureRandom();
  /** Serializes creations, so the active-job bound holds under concurrent submits. */
  private final Object creation = new Object();
  private volatile boolean stopping;

  private record Task(IngestJob job, IngestJob.Entry entry) {}

  private IngestJobs(Path root, Corpora corpora, JobSettings settings, Clock clock) {
    this.root = root;
    this.corpora = corpora;
    this.settings = settings;
    this.clock = clock;
    this.runners = Executors.newFixedThreadPool(settings.workers(), daemon("quarry-ingest-job"));
    this.timer = Executors.newSingleThreadScheduledExecutor(daemon("quarry-ingest-job-timer"));
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
      jobs.recover();
    } catch (IOException | RuntimeException e) {
      jobs.shutdownThreads();
      throw new QuarryException(ErrorCode.UNAVAILABLE, "cannot open the ingestion jobs in " + jobs.root + ": "
          + (e instanceof IOException io ? FileErrors.why(io) : e.toString()), e);
    }
    for (int i = 0; i < settings.workers(); i++) {
      jobs.runners.execute(jobs::runLoop);
    }
    long sweepMillis = Math.max(100, Math.min(60_000,
        Math.min(settings.retention().toMillis(), settings.openIdleTimeout().toMillis()) / 10));
    jobs.timer.scheduleWithFixedDelay(jobs::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    return jobs;
  }

  public JobSettings settings() {
    return settings;
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
   * As {@link #create(Access, String, String)}, for a job whose files are extracted with OCR
   * {@code ocr} (each file may name its own; null: the server's setting). Whether the server offers
   * OCR is the caller's to check, before the grants, as a single ingest does; a file that asks for it
   * on a server that no longer offers it (restarted without it) fails alone at its extraction.
   */
  public JobView create(Access access, String corpus, String expectedCorpusId, OcrChoice ocr) {
    return createJob(access, corpus, expectedCorpusId, ocr, List.of(), false).view(settings.retention());
  }

  /**
   * An upload of {@code files} to an open job of the caller's: write file {@code i}'s bytes to
   * {@link Upload#part}, then {@link Upload#commit} acknowledges them all at once (or close the
   * upload to drop them). Order: validation, JOB_NOT_FOUND (unknown, or another subject's),
   * grants ({@code index} on every named source), JOB_CLOSED, JOB_TOO_LARGE (files), CAPACITY.
   *
   * @param closeAfter close the job once these files are acknowledged
   */
  public Upload upload(Access access, String jobId, List<JobFile> files, boolean closeAfter) {
    checkFiles(files);
    IngestJob job = find(access, jobId, false);
    for (JobFile f : files) {
      AccessPolicy.requireSource(access, job.corpus, f.source(), INDEX);
    }
    return reserve(job, files, closeAfter, false);
  }

  /**
   * One upload that creates a job, holds {@code files} and closes it: nothing exists until {@link
   * Upload#commit}, and closing the upload uncommitted removes the job. Order: validation, grants
   * ({@code index} on the corpus and every source), existence, CORPUS_REPLACED, capacity.
   */
  public Upload submit(Access access, String corpus, String expectedCorpusId, List<JobFile> files) {
    return submit(access, corpus, expectedCorpusId, null, files);
  }

  /** As {@link #submit(Access, String, String, List)}, for a job with OCR choice {@code ocr} (see {@link #create}). */
  public Upload submit(Access access, String corpus, String expectedCorpusId, OcrChoice ocr, List<JobFile> files) {
    checkFiles(files);
    IngestJob job = createJob(access, corpus, expectedCorpusId, ocr, files, true);
    try {
      return reserve(job, files, true, true);
    } catch (RuntimeException e) {
      discard(job);
      throw e;
    }
  }

  /**
   * @param submitting for a submit: the job is stored marked so, and a restart before its upload is
   *     committed removes it, as closing the uncommitted upload does
   */
  private IngestJob createJob(Access access, String corpus, String expectedCorpusId, OcrChoice ocr, List<JobFile> files,
      boolean submitting) {
    CorpusInfo.checkName(corpus, "corpus");
    AccessPolicy.requireCorpus(access, corpus, INDEX);
    for (JobFile f : files) {
      AccessPolicy.requireSource(access, corpus, f.source(), INDEX);
    }
    CorpusDescription description = corpora.readCorpus(access, corpus);
    description.info().requireCorpusId(expectedCorpusId);
    synchronized (creation) {
      long active = jobs.values().stream().filter(j -> j.endedAtOrNull() == null).count();
      if (active >= settings.maxActiveJobs()) {
        throw new QuarryException(ErrorCode.CAPACITY, "the server already runs " + active
            + " ingestion jobs (maxActiveJobs); retry once one has ended");
      }
      IngestJob job = new IngestJob(newId(), corpus, description.info().corpusId(), access, now(), ocr, null);
      job.uncommittedSubmit = submitting;
      try {
        PrivateFolders.create(root);
        IngestJob stored = withFolder(job, JobFolder.create(root, job));
        stored.uncommittedSubmit = submitting;
        jobs.put(stored.id, stored);
        return stored;
      } catch (IOException e) {
        throw new QuarryException(ErrorCode.UNAVAILABLE, "the job could not be stored", e);
      }
    }
  }

  private static IngestJob withFolder(IngestJob job, JobFolder folder) {
    return new IngestJob(job.id, job.corpus, job.corpusId, job.access, job.createdAt, job.ocr, folder);
  }

  private static void checkFiles(List<JobFile> files) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < files.size(); i++) {
      if (!seen.add(files.get(i).source())) {
        throw QuarryException.invalid("files[" + i + "].source", "source '" + files.get(i).source()
            + "' appears twice in this upload; a job holds each source once");
      }
    }
  }

  private Upload reserve(IngestJob job, List<JobFile> files, boolean closeAfter, boolean creates) {
    int queuedElsewhere = 0;
    long queuedBytes = 0;
    for (IngestJob j : jobs.values()) {
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
          throw QuarryException.invalid("files[" + i + "].source", "source '" + files.get(i).source()
              + "' is already in this job; a job holds each source once");
        }
      }
      int total = job.files.size() + job.reservedFiles + files.size();
      if (total > settings.maxFilesPerJob()) {
        throw new QuarryException(ErrorCode.JOB_TOO_LARGE, "the job would hold " + total
            + " files; a job may hold at most " + settings.maxFilesPerJob() + " (maxJobFiles)");
      }
      if (queuedElsewhere + files.size() > settings.maxQueuedFiles() || queuedBytes >= settings.maxQueuedBytes()) {
        throw serverFull();
      }
      job.reservedFiles += files.size();
      long jobRoom = settings.maxBytesPerJob() - job.bytes();
      long serverRoom = settings.maxQueuedBytes() - queuedBytes;
      return new Upload(job, files, closeAfter, creates, Math.min(jobRoom, serverRoom), jobRoom <= serverRoom);
    }
  }

  private QuarryException serverFull() {
    return new QuarryException(ErrorCode.CAPACITY, "the server holds as many queued job files as it may "
        + "(maxQueuedFiles, maxQueuedBytes); retry once some are ingested");
  }

  private static QuarryException closed(IngestJob job) {
    return new QuarryException(ErrorCode.JOB_CLOSED, "job '" + job.id + "' takes no more files: it is "
        + job.state.wireName());
  }

  /**
   * Files of one upload on their way to a job: written by the caller to {@link #part}, then
   * acknowledged together by {@link #commit}. Not thread-safe; one per request. Close it in any
   * case: uncommitted, it deletes what was written (and the job, for a {@link #submit}).
   */
  public final class Upload implements AutoCloseable {
    private final IngestJob job;
    private final List<JobFile> files;
    private final boolean closeAfter;
    private final boolean creates;
    private final long maxBytes;
    private final boolean jobBound;
    private final String uploadId = newId();
    private boolean done;

    private Upload(IngestJob job, List<JobFile> files, boolean closeAfter, boolean creates, long maxBytes,
        boolean jobBound) {
      this.job = job;
      this.files = List.copyOf(files);
      this.closeAfter = closeAfter;
      this.creates = creates;
      this.maxBytes = Math.max(0, maxBytes);
      this.jobBound = jobBound;
    }

    public String jobId() {
      return job.id;
    }

    public List<JobFile> files() {
      return files;
    }

    /** What all files of this upload may hold together. */
    public long maxBytes() {
      return maxBytes;
    }

    /** The refusal for an upload past {@link #maxBytes}: JOB_TOO_LARGE, or CAPACITY when the server is the bound. */
    public QuarryException overBudget() {
      return jobBound
          ? new QuarryException(ErrorCode.JOB_TOO_LARGE, "the job's files would exceed "
              + settings.maxBytesPerJob() + " bytes (maxJobBytes)")
          : serverFull();
    }

    /** Where file {@code i}'s bytes are written. */
    public Path part(int i) {
      Objects.checkIndex(i, files.size());
      return job.folder.part(uploadId, i);
    }

    /**
     * Acknowledges the files, whose bytes are at {@link #part} and whose SHA-256 and sizes are
     * {@code stored}, in order: fsynced, logged, queued for the runners. After it returns the
     * files are the job's, whatever happens to this process.
     *
     * @throws QuarryException JOB_CLOSED when the job was cancelled meanwhile, JOB_TOO_LARGE or
     *     CAPACITY when concurrent uploads took the room, UNAVAILABLE when the disk failed; nothing
     *     is acknowledged then
     */
    public JobView commit(List<StoredFile> stored) {
      if (stored.size() != files.size()) {
        throw new IllegalArgumentException("stored " + stored.size() + " files of " + files.size());
      }
      if (done) {
        throw new IllegalStateException("upload already committed or closed");
      }
      long bytes = stored.stream().mapToLong(StoredFile::bytes).sum();
      if (bytes > maxBytes) {
        throw overBudget();
      }
      List<IngestJob.Entry> entries = new ArrayList<>();
      synchronized (job) {
        if (job.state != JobState.OPEN) {
          throw closed(job);
        }
        if (job.bytes() + bytes > settings.maxBytesPerJob()) {
          throw new QuarryException(ErrorCode.JOB_TOO_LARGE, "the job's files would exceed "
              + settings.maxBytesPerJob() + " bytes (maxJobBytes)");
        }
        for (int i = 0; i < files.size(); i++) {
          entries.add(new IngestJob.Entry(job.files.size() + i, files.get(i).withFileName(stored.get(i).fileName()),
              stored.get(i).sha256(), stored.get(i).bytes()));
        }
        try {
          job.folder.acknowledge(uploadId, entries);
        } catch (IOException e) {
          throw new QuarryException(ErrorCode.UNAVAILABLE, "the files could not be stored", e);
        }
        done = true;
        job.files.addAll(entries);
        job.reservedFiles -= files.size();
        job.lastActivity = now();
        // A submit's job is acknowledged with its files: closing it rewrites job.json without the mark.
        job.uncommittedSubmit = false;
        if (closeAfter) {
          closeLocked(job);
        }
      }
      entries.forEach(e -> queue.add(new Task(job, e)));
      maybeEnd(job);
      return job.view(settings.retention());
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
          LOG.log(Level.WARNING, "could not delete an unacknowledged upload part of job " + job.id, e);
        }
      }
      if (creates) {
        discard(job);
      }
    }
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

  private void discard(IngestJob job) {
    jobs.remove(job.id);
    try {
      job.folder.delete();
      JobFolder.fsyncDir(root);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "could not remove the folder of discarded job " + job.id, e);
    }
  }

  // ----- closing, cancelling, reading

  /** Stops the job taking files; it ends once they all have their outcome. Closing it again changes nothing. */
  public JobView close(Access access, String jobId) {
    IngestJob job = find(access, jobId, false);
    synchronized (job) {
      if (job.state == JobState.OPEN) {
        closeLocked(job);
      }
    }
    maybeEnd(job);
    return job.view(settings.retention());
  }

  private void closeLocked(IngestJob job) {
    assert Thread.holdsLock(job);
    job.state = JobState.RUNNING;
    job.closedAt = now();
    persist(job);
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
    List<IngestJob.Entry> cancelled = new ArrayList<>();
    synchronized (job) {
      if (job.endedAt == null && job.state != JobState.CANCELLED && job.state != JobState.FAILED) {
        job.state = JobState.CANCELLED;
        job.cancelRequested = true;
        if (job.closedAt == null) {
          job.closedAt = now();
        }
        persist(job);
        for (IngestJob.Entry e : job.files) {
          if (e.status == FileStatus.QUEUED) {
            cancelled.add(e);
          }
        }
      }
      for (IngestJob.Entry e : cancelled) {
        finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
      }
      long deadline = System.nanoTime() + WRITE_WAIT.toNanos();
      while (job.writing > 0 && System.nanoTime() < deadline) {
        try {
          job.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    maybeEnd(job);
    return job.view(settings.retention());
  }

  /**
   * The job and its files with an index above {@code after} (-1 for the first page), at most
   * {@code limit}. Pages are keyset pages: a file's index never changes, files are only appended,
   * and each page shows the files' outcomes as they are when it is read.
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
      return new JobPage(job.view(settings.retention()), page, next);
    }
  }

  /**
   * The jobs the caller may {@link #read}, newest first: those after {@code after} (null: from the
   * newest), at most {@code limit}, narrowed to {@code corpus} and {@code state} when they are not
   * null. A job the caller may not read is never listed, so it cannot be counted either; {@code
   * next} is set only when a readable job follows. Order: validation, then grants (FORBIDDEN when
   * {@code corpus} is named and the caller has no grant on it, as for any request on a corpus).
   */
  public JobListPage list(Access access, String corpus, JobState state, JobListPage.Key after, int limit) {
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
    for (IngestJob job : jobs.values()) {
      if ((corpus == null || job.corpus.equals(corpus)) && (after == null || JobListPage.Key.of(job).compareTo(after) > 0)
          && mayRead(access, job, true)) {
        candidates.add(job);
      }
    }
    candidates.sort(Comparator.comparing(JobListPage.Key::of));
    List<JobView> page = new ArrayList<>();
    for (IngestJob job : candidates) {
      JobView view = job.view(settings.retention());
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
    IngestJob job = jobs.get(jobId);
    if (job != null && mayRead(access, job, manageMayRead)) {
      return job;
    }
    throw new QuarryException(ErrorCode.JOB_NOT_FOUND, "no ingestion job '" + jobId + "' that this token may see");
  }

  /**
   * Whether the caller may see {@code job}: it needs a grant on the job's corpus, and must be the
   * submitting subject or, when {@code manageMayRead}, hold {@code manage} on that corpus. One
   * rule for reading, cancelling and listing.
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

  // ----- the runner

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
      if (e.status != FileStatus.QUEUED || jobs.get(job.id) != job) {
        return;
      }
      if (job.state == JobState.CANCELLED) {
        finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
        return;
      }
      if (job.errorCode != null) {
        finishLocked(job, e, FileStatus.FAILED, null, job.errorCode, job.errorMessage);
        return;
      }
      e.status = FileStatus.EXTRACTING;
      if (job.startedAt == null) {
        job.startedAt = now();
      }
    }
    boolean[] writing = {false};
    try {
      MutationResult result = corpora.ingest(job.access, job.corpus, e.spec.toRequest(job.corpusId, job.ocr),
          job.folder.file(e.index), idempotency(job, e), () -> {
            synchronized (job) {
              if (job.state == JobState.CANCELLED) {
                throw new QuarryException(ErrorCode.CANCELLED, "the job was cancelled");
              }
              job.writing++;
              writing[0] = true;
            }
          });
      Receipt receipt = result.single();
      finish(job, e, receipt.status() == Receipt.Status.UNCHANGED ? FileStatus.UNCHANGED : FileStatus.INDEXED,
          receipt, null, null);
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
        LOG.log(Level.SEVERE, "ingesting file " + e.index + " of job " + job.id + " failed unexpectedly", x);
        finish(job, e, FileStatus.FAILED, null, ErrorCode.INTERNAL, "an unexpected fault; see the server log");
      }
    } finally {
      if (writing[0]) {
        synchronized (job) {
          job.writing--;
          job.notifyAll();
        }
      }
    }
    maybeEnd(job);
  }

  private void failed(IngestJob job, IngestJob.Entry e, QuarryException q) {
    switch (q.code()) {
      case CANCELLED -> finish(job, e, FileStatus.CANCELLED, null, null, null);
      // The extraction pool is shared with single ingests: wait for room rather than fail the file.
      case CAPACITY, IDEMPOTENCY_IN_PROGRESS -> requeueLater(job, e, retryPause(e));
      case UNAVAILABLE -> {
        if (e.retries + 1 < MAX_UNAVAILABLE_TRIES) {
          requeueLater(job, e, retryPause(e));
        } else {
          finish(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
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
                job.closedAt = now();
              }
            }
            persist(job);
          }
          finishLocked(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
          for (IngestJob.Entry other : job.files) {
            if (other.status == FileStatus.QUEUED) {
              finishLocked(job, other, FileStatus.FAILED, null, q.code(), q.getMessage());
            }
          }
        }
      }
      default -> finish(job, e, FileStatus.FAILED, null, q.code(), q.getMessage());
    }
  }

  private static long retryPause(IngestJob.Entry e) {
    return Math.min(MAX_RETRY_PAUSE_MILLIS, 100L << Math.min(10, e.retries));
  }

  /** Puts the file back in the queue after {@code pauseMillis}; below 0, only marks it queued (shutting down). */
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
    return new Mutation.Idempotency("ingest-job:" + job.id + ":" + e.index,
        Sha256.ofUtf8("ingest-job\n" + job.id + "\n" + e.index + "\n" + e.spec.source() + "\n" + e.sha256));
  }

  private void finish(IngestJob job, IngestJob.Entry e, FileStatus status, Receipt receipt, ErrorCode code,
      String message) {
    synchronized (job) {
      finishLocked(job, e, status, receipt, code, message);
    }
  }

  private void finishLocked(IngestJob job, IngestJob.Entry e, FileStatus status, Receipt receipt, ErrorCode code,
      String message) {
    assert Thread.holdsLock(job);
    assert status.isOutcome() && !e.status.isOutcome() : "a file gets one outcome: " + e.status + " -> " + status;
    e.status = status;
    e.receipt = receipt;
    e.errorCode = code;
    e.errorMessage = message;
    e.endedAt = now();
    try {
      job.folder.recordOutcome(e);
    } catch (IOException io) {
      // The outcome stands in memory; after a restart the file is ingested again, idempotently.
      LOG.log(Level.WARNING, "could not record the outcome of file " + e.index + " of job " + job.id, io);
    }
  }

  /** Gives the job its final state once it takes no more files and every file has its outcome. */
  private void maybeEnd(IngestJob job) {
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

  private void persist(IngestJob job) {
    assert Thread.holdsLock(job);
    try {
      job.folder.writeJob(job);
    } catch (IOException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "the job's state could not be stored", e);
    }
  }

  // ----- recovery and housekeeping

  private void recover() throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
      for (Path dir : dirs) {
        if (!Files.isDirectory(dir)) {
          continue;
        }
        if (!Files.exists(dir.resolve(JobFolder.JOB_JSON)) || dir.getFileName().toString().startsWith(".")) {
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
    for (IngestJob job : jobs.values()) {
      synchronized (job) {
        for (IngestJob.Entry e : job.files) {
          if (e.status.isOutcome()) {
            continue;
          }
          if (job.state == JobState.CANCELLED) {
            finishLocked(job, e, FileStatus.CANCELLED, null, null, null);
          } else if (job.errorCode != null) {
            finishLocked(job, e, FileStatus.FAILED, null, job.errorCode, job.errorMessage);
          } else {
            queue.add(new Task(job, e));
          }
        }
      }
      maybeEnd(job);
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
          if (job.state == JobState.OPEN && job.reservedFiles == 0
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

  private Instant now() {
    return clock.instant();
  }

  private String newId() {
    char[] id = new char[24];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_ALPHABET[random.nextInt(ID_ALPHABET.length)];
    }
    return "job_" + new String(id);
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Stops the runners: files being ingested finish (up to {@link #WRITE_WAIT}), the others stay
   * queued on disk for the next start. Call before closing the corpora.
   */
  @Override
  public void close() {
    stopping = true;
    shutdownThreads();
  }

  private void shutdownThreads() {
    timer.shutdownNow();
    runners.shutdown();
    try {
      if (!runners.awaitTermination(WRITE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warning("ingestion job runners still busy after " + WRITE_WAIT + "; their files run again at the next start");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
