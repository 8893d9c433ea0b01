package dev.quarry.app.cli;

import dev.quarry.client.ApiException;
import dev.quarry.client.Job;
import dev.quarry.client.JobFile;
import dev.quarry.client.JobPage;
import dev.quarry.client.Page;
import dev.quarry.client.QuarryClient;
import dev.quarry.client.QuarryClientException;
import dev.quarry.client.SourceState;
import dev.quarry.corpora.ingest.IngestPipeline;
import dev.quarry.engine.QuarryException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code quarry ingest --url} as an ingestion job, through the {@link QuarryClient}: files whose
 * bytes their source already holds are skipped, the others are uploaded in batches to one job
 * (closed with the last batch), and the job's counts drive the progress bar until it ends. Ctrl-C
 * detaches: the job goes on on the server (an upload cut short is closed, so the files already sent
 * are still ingested), and the command prints how to watch it again or cancel it. One bad file
 * never stops the batch: a batch the server refuses is sent again file by file, and each refused
 * file fails alone with its code. A refusal of the job itself is thrown as the client's {@link
 * ApiException}, a server out of reach as its {@code TransportException}.
 */
final class JobIngest {
  /**
   * Files per upload request: few requests, and a refused batch costs little to resend file by
   * file.
   */
  static final int BATCH_FILES = 64;

  /** Bytes per upload request, so one request never carries a whole large folder. */
  static final long BATCH_BYTES = 32L << 20;

  static final long POLL_MILLIS = 500;

  /** Sources per page when listing what the corpus already holds. */
  static final int SOURCES_PAGE = 1000;

  /** Files per page when reading a job's outcomes. */
  static final int FILES_PAGE = 1000;

  /**
   * What {@link #run} returns when the server runs no ingestion jobs: ingest file by file instead.
   */
  static final int NO_JOBS = -1;

  private final QuarryClient client;
  private final String baseUrl;
  private final PrintWriter err;

  JobIngest(QuarryClient client, String baseUrl, PrintWriter err) {
    this.client = client;
    this.baseUrl = baseUrl;
    this.err = err;
  }

  /**
   * Sends {@code files} to {@code corpus} as one job; with {@code wait}, watches it to its end.
   *
   * @param ocr the job's OCR choice for every file, {@code auto} or {@code off}, or null for the
   *     server's setting; {@code auto} on a server without OCR refuses the job before any file is
   *     sent
   * @param ocrLanguages the job's OCR language data, or null for the server's; one not installed
   *     refuses the job before any file is sent
   * @return the exit code, or {@link #NO_JOBS}
   */
  int run(
      String corpus,
      String ocr,
      List<String> ocrLanguages,
      List<DocumentFiles.DocumentFile> files,
      boolean wait,
      PrintWriter out) {
    IngestSummary summary = new IngestSummary();
    Map<String, String> held = contentHashes(corpus);
    List<DocumentFiles.DocumentFile> send = new ArrayList<>();
    for (DocumentFiles.DocumentFile f : files) {
      String sha256;
      try {
        sha256 = IngestPipeline.sha256Hex(f.path());
      } catch (QuarryException e) {
        fail(summary, f, IngestOutcome.failed("UNREADABLE", "the file could not be read"));
        continue;
      }
      if (sha256.equals(held.get(f.source()))) {
        summary.add(IngestOutcome.of(IngestOutcome.UNCHANGED), f.bytes());
      } else {
        send.add(f);
      }
    }
    if (send.isEmpty()) {
      summary.print(out);
      return summary.failed() == 0 ? 0 : 1;
    }
    String job;
    try {
      job = client.createJob(corpus, null, ocr, ocrLanguages).id();
    } catch (ApiException e) {
      if (e.code().equals("INGESTION_JOBS_UNAVAILABLE") || e.code().equals("NOT_FOUND")) {
        return NO_JOBS;
      }
      throw e;
    }
    AtomicBoolean uploaded = new AtomicBoolean();
    AtomicBoolean finished = new AtomicBoolean();
    Thread detach =
        new Thread(
            () -> {
              if (finished.get()) {
                return;
              }
              if (!uploaded.get()) {
                try {
                  client.closeJob(job);
                } catch (QuarryClientException ignored) {
                  // the server closes an idle open job by itself
                }
              }
              detached(System.err, job);
            },
            "quarry-ingest-detach");
    Runtime.getRuntime().addShutdownHook(detach);
    try {
      err.println("job " + job + ": uploading " + send.size() + " files");
      err.flush();
      List<List<DocumentFiles.DocumentFile>> batches = batches(send);
      for (int i = 0; i < batches.size(); i++) {
        upload(job, batches.get(i), i == batches.size() - 1, summary);
      }
      uploaded.set(true);
      if (!wait) {
        finished.set(true);
        err.println("job " + job + " holds the files and runs on the server.");
        err.print(howTo(job));
        err.flush();
        return summary.failed() == 0 ? 0 : 1;
      }
      int code = watch(job, summary, out);
      finished.set(true);
      return code;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(detach);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it prints how to go on
      }
    }
  }

  /** Every source of {@code corpus} the token may see, with its content hash. */
  private Map<String, String> contentHashes(String corpus) {
    Map<String, String> out = new HashMap<>();
    String cursor = null;
    do {
      Page<SourceState> page = client.listSources(corpus, null, cursor, SOURCES_PAGE);
      for (SourceState s : page.items()) {
        if (s.contentSha256() != null) {
          out.put(s.source(), s.contentSha256());
        }
      }
      cursor = page.next();
    } while (cursor != null);
    return out;
  }

  private List<List<DocumentFiles.DocumentFile>> batches(List<DocumentFiles.DocumentFile> files) {
    List<List<DocumentFiles.DocumentFile>> out = new ArrayList<>();
    List<DocumentFiles.DocumentFile> batch = new ArrayList<>();
    long bytes = 0;
    for (DocumentFiles.DocumentFile f : files) {
      if (!batch.isEmpty() && (batch.size() == BATCH_FILES || bytes + f.bytes() > BATCH_BYTES)) {
        out.add(batch);
        batch = new ArrayList<>();
        bytes = 0;
      }
      batch.add(f);
      bytes += f.bytes();
    }
    out.add(batch);
    return out;
  }

  /**
   * Uploads one batch; a refused batch is sent again file by file, and each refused file fails
   * alone.
   */
  private void upload(
      String job, List<DocumentFiles.DocumentFile> batch, boolean last, IngestSummary summary) {
    try {
      send(job, batch, last);
      return;
    } catch (ApiException e) {
      if (e.code().equals("JOB_NOT_FOUND") || e.code().equals("JOB_CLOSED")) {
        throw e; // the job is gone or cancelled: nothing more can be sent to it
      }
      if (batch.size() == 1) {
        failAlone(
            job, batch.get(0), last, summary, IngestOutcome.failed(e.code(), e.error().message()));
        return;
      }
    } catch (UncheckedIOException e) {
      // A file went away since the folder was walked: the client sent nothing of this batch.
      if (batch.size() == 1) {
        failAlone(
            job,
            batch.get(0),
            last,
            summary,
            IngestOutcome.failed(
                "UNREADABLE", "the file could not be read: " + e.getCause().getMessage()));
        return;
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      upload(job, List.of(batch.get(i)), last && i == batch.size() - 1, summary);
    }
  }

  /** One file the job could not take; the job is still closed when it was to come last. */
  private void failAlone(
      String job,
      DocumentFiles.DocumentFile f,
      boolean last,
      IngestSummary summary,
      IngestOutcome outcome) {
    fail(summary, f, outcome);
    if (last) {
      client.closeJob(job);
    }
  }

  private void send(String job, List<DocumentFiles.DocumentFile> batch, boolean close) {
    List<JobFile> files =
        batch.stream()
            .map(
                f -> {
                  JobFile file = JobFile.of(f.path(), f.source());
                  return f.declaredMediaType() == null
                      ? file
                      : file.withMediaType(f.declaredMediaType());
                })
            .toList();
    HttpIngester.retried(
        () -> client.uploadToJob(job, files, close), e -> e.code().equals("CAPACITY"));
  }

  /**
   * The job and a page of its files after {@code cursor} (null: the first page). A read changes
   * nothing, so one refused for a passing reason (a busy server: 429, 503, or a body cut off as too
   * slow, 408) is simply sent again, a few times.
   */
  private JobPage read(String job, String cursor, int limit) {
    return HttpIngester.retried(
        () -> client.readJob(job, cursor, limit),
        e -> e.status() == 408 || e.status() == 429 || e.status() == 503);
  }

  private void fail(IngestSummary summary, DocumentFiles.DocumentFile f, IngestOutcome outcome) {
    summary.add(outcome, f.bytes());
    err.println("failed: " + f.path() + ": " + outcome.code() + ": " + outcome.message());
  }

  /**
   * Watches a job to its end with a progress bar from its counts, then prints its failures, the
   * legacy charset of each text file decoded from one, the OCR report of each file read by OCR, and
   * the table.
   */
  int watch(String job, IngestSummary summary, PrintWriter out) {
    Job state = read(job, null, 1).job();
    try (IngestProgress progress =
        IngestProgress.on(System.err, state.counts().files(), Terminal.interactive())) {
      while (true) {
        progress.progress(
            state.counts().done(), state.counts().failed(), EmbeddingProgress.of(state.progress()));
        if (state.ended()) {
          break;
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return 130;
        }
        state = read(job, null, 1).job();
      }
    }
    String cursor = null;
    do {
      JobPage page = read(job, cursor, FILES_PAGE);
      for (JobPage.FileOutcome f : page.files()) {
        switch (f.status()) {
          case "indexed", "unchanged" -> {
            IngestOutcome outcome =
                IngestOutcome.of(
                    f.status(),
                    RecognitionReport.of(f.receipt()),
                    DecodingReport.of(f.receipt() == null ? null : f.receipt().encoding()));
            summary.add(outcome, f.bytes());
            outcome.printReports(f.source(), out);
          }
          case "cancelled" ->
              summary.add(IngestOutcome.failed("CANCELLED", "the job was cancelled"), f.bytes());
          default -> {
            IngestOutcome failed =
                f.error() == null
                    ? IngestOutcome.failed("FAILED", "")
                    : IngestOutcome.failed(f.error().code(), f.error().message());
            summary.add(failed, f.bytes());
            err.println("failed: " + f.source() + ": " + failed.code() + ": " + failed.message());
          }
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
    err.flush();
    boolean completed = state.state().equals("completed");
    if (!completed) {
      err.println(
          "job "
              + job
              + " "
              + state.state()
              + (state.error() != null
                  ? ": " + state.error().code() + ": " + state.error().message()
                  : ""));
      err.flush();
    }
    summary.print(out);
    return summary.failed() == 0 && completed ? 0 : 1;
  }

  /** Cancels a job and prints what became of it. */
  int cancel(String job, PrintWriter out) {
    Job answer = client.cancelJob(job);
    Job.Counts c = answer.counts();
    out.println(
        "job "
            + job
            + " "
            + answer.state()
            + ": "
            + c.indexed()
            + " indexed, "
            + c.unchanged()
            + " unchanged, "
            + c.failed()
            + " failed, "
            + c.cancelled()
            + " cancelled, "
            + c.extracting()
            + " still extracting");
    out.flush();
    return 0;
  }

  private void detached(PrintStream stream, String job) {
    stream.println();
    stream.println("detached: job " + job + " goes on on the server.");
    stream.print(howTo(job));
    stream.flush();
  }

  /** The commands that watch or cancel {@code job}, a line each. */
  private String howTo(String job) {
    return "  watch it:  quarry ingest --url "
        + baseUrl
        + " --watch "
        + job
        + System.lineSeparator()
        + "  cancel it: quarry ingest --url "
        + baseUrl
        + " --cancel "
        + job
        + System.lineSeparator();
  }
}
