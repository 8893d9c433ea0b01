package dev.quarry.app.cli;

import dev.quarry.client.QuarryClientException;
import dev.quarry.client.TransportException;
import dev.quarry.corpora.ingest.IngestPipeline;
import dev.quarry.corpora.ingest.OcrLanguages;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.extractors.ocr.OcrMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quarry ingest --corpus NAME PATH...}: ingests document files, folders walked, either
 * through a running server ({@code --url}, as one durable ingestion job: {@link JobIngest}; {@code
 * --watch JOB} and {@code --cancel JOB} act on a job submitted earlier) or straight into a data
 * folder ({@code --data}). Into a data folder, files go {@code --parallel} at a time; progress on
 * stderr (a bar on a terminal, plain lines otherwise) counts files, bytes and failures; files whose
 * bytes their source already holds are skipped as unchanged; one bad file never stops the batch.
 * {@code --ocr auto|off} chooses OCR for every file: the job's choice, each file's over a server
 * without jobs, the extractors' in a data folder; {@code --ocr-languages deu,eng} the Tesseract
 * language data it reads with, the same way. Each text file decoded from a legacy charset gets its
 * {@link DecodingReport} on stdout, each file read by OCR its {@link RecognitionReport}. Ends with
 * a table on stdout (ingested, unchanged, failed by code) and exit code 0, or 1 when any file
 * failed.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = "Ingest document files (PDF, Office, HTML, Markdown, EPUB, ...) into a corpus.")
final class IngestCommand implements Callable<Integer> {
  /** Two at a time: extraction is CPU-bound and the default pool has two workers. */
  static final int DEFAULT_PARALLEL = 2;

  static final String TOKEN_VARIABLE = "QUARRY_TOKEN";

  @Spec CommandSpec spec;

  @Option(
      names = "--corpus",
      paramLabel = "NAME",
      description = "The corpus; it must exist, unless --create is given. Required with PATHs.")
  String corpus;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  /** Where the documents go: a running server, or a data folder opened in this process. */
  static final class Target {
    @Option(
        names = "--url",
        paramLabel = "URL",
        description = "A running server, such as http://127.0.0.1:8080.")
    String url;

    @Option(
        names = "--data",
        paramLabel = "DIR",
        description = "A data folder to write directly (no server may hold it).")
    Path data;
  }

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description =
          "Bearer token with the index grant (with --url). Default: the "
              + TOKEN_VARIABLE
              + " variable.")
  String token;

  @Option(
      names = "--create",
      description = "Create the corpus, with default settings, when it does not exist.")
  boolean create;

  @Option(
      names = "--parallel",
      defaultValue = "" + DEFAULT_PARALLEL,
      paramLabel = "N",
      description = "Files ingested at once. Default: ${DEFAULT-VALUE}.")
  int parallel;

  @Option(
      names = "--ocr",
      paramLabel = "auto|off",
      description =
          "Read images and PDF pages without a text layer with OCR (auto; with --url the server must offer "
              + "it, with --data Tesseract must be installed), or never (off). Default: the server's setting; off with --data.")
  String ocr;

  @Option(
      names = "--ocr-languages",
      split = ",",
      paramLabel = "LANG[,LANG...]",
      description =
          "The Tesseract language data OCR reads with, in order, such as deu,eng (with --url the server "
              + "must have it installed; with --data it takes --ocr auto). Default: the server's extraction.ocrLanguages; "
              + "eng with --data.")
  List<String> ocrLanguages;

  @Option(
      names = "--wait",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "With --url: watch the job until it ends (default). --no-wait returns once the files are uploaded.")
  boolean wait;

  @Option(
      names = "--watch",
      paramLabel = "JOB",
      description = "With --url: watch a job submitted earlier until it ends.")
  String watch;

  @Option(
      names = "--cancel",
      paramLabel = "JOB",
      description = "With --url: cancel a job; files already indexed stay.")
  String cancel;

  @Parameters(
      arity = "0..*",
      paramLabel = "PATH",
      description =
          "Files and folders; a file in a folder becomes the "
              + "source named by its path relative to that folder.")
  List<Path> paths = List.of();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (parallel < 1 || parallel > 64) {
      err.println("quarry ingest: --parallel must be between 1 and 64; got " + parallel);
      return 2;
    }
    OcrMode ocrMode = ocr == null ? null : OcrMode.fromWireName(ocr);
    if (ocr != null && ocrMode == null) {
      err.println("quarry ingest: --ocr must be auto or off; got '" + ocr + "'");
      return 2;
    }
    String languagesProblem = checkLanguages(ocrMode);
    if (languagesProblem != null) {
      err.println("quarry ingest: " + languagesProblem);
      return 2;
    }
    if (watch != null || cancel != null) {
      return jobCommand(out, err);
    }
    if (corpus == null || paths.isEmpty()) {
      err.println(
          "quarry ingest: give --corpus NAME and at least one PATH (or --watch JOB, --cancel JOB)");
      return 2;
    }
    List<DocumentFiles.DocumentFile> files;
    try {
      files = DocumentFiles.under(paths);
    } catch (IOException e) {
      err.println("quarry ingest: " + e.getMessage());
      return 2;
    }
    String bearer = token != null ? token : System.getenv(TOKEN_VARIABLE);
    if (target.url != null && (bearer == null || bearer.isBlank())) {
      err.println("quarry ingest: --url needs --token or the " + TOKEN_VARIABLE + " variable");
      return 2;
    }
    try (DocumentIngester ingester =
        target.url != null
            ? new HttpIngester(target.url, bearer, ocr, ocrLanguages)
            : new LocalIngester(target.data, parallel, ocrMode, ocrLanguages)) {
      String problem = ingester.checkCorpus(corpus);
      if (problem != null && create && problem.startsWith(ErrorCode.CORPUS_NOT_FOUND.name())) {
        problem = ingester.createCorpus(corpus);
      }
      if (problem != null) {
        boolean missing = problem.startsWith(ErrorCode.CORPUS_NOT_FOUND.name());
        err.println(
            "quarry ingest: corpus '"
                + corpus
                + "': "
                + problem
                + (missing && !create ? " (add --create to create it)" : ""));
        return 1;
      }
      if (ingester instanceof HttpIngester http) {
        // Over a server, the files go as one durable ingestion job.
        int code =
            new JobIngest(http.client(), http.baseUrl(), err)
                .run(corpus, ocr, ocrLanguages, files, wait, out);
        if (code != JobIngest.NO_JOBS) {
          return code;
        }
        err.println(
            "quarry ingest: the server runs no ingestion jobs; sending the files one by one");
      }
      IngestSummary summary = run(ingester, files, out, err);
      summary.print(out);
      return summary.failed() == 0 ? 0 : 1;
    } catch (QuarryException e) {
      err.println("quarry ingest: " + e.getMessage());
      return 1;
    } catch (QuarryClientException e) {
      return refused(e, err);
    }
  }

  /**
   * A job call that failed: a refusal ({@code CODE: message}) is exit code 1, a server out of reach
   * 2.
   */
  private int refused(QuarryClientException e, PrintWriter err) {
    err.println("quarry ingest: " + HttpIngester.problem(e, target.url));
    return e instanceof TransportException ? 2 : 1;
  }

  /**
   * Why {@code --ocr-languages} cannot be used as given, or null: each name must be language data
   * (a server would refuse it anyway, but only after the corpus check), given once; into a data
   * folder, where OCR is off unless asked for, it needs {@code --ocr auto}.
   */
  private String checkLanguages(OcrMode ocrMode) {
    if (ocrLanguages == null) {
      return null;
    }
    try {
      OcrLanguages.check(ocrLanguages, "--ocr-languages");
    } catch (QuarryException e) {
      return e.getMessage();
    }
    if (target.data != null && ocrMode != OcrMode.AUTO) {
      return "--ocr-languages with --data takes --ocr auto";
    }
    return null;
  }

  /** {@code --watch JOB} and {@code --cancel JOB}: over a server only. */
  private int jobCommand(PrintWriter out, PrintWriter err) {
    if (target.url == null
        || !paths.isEmpty()
        || ocr != null
        || ocrLanguages != null
        || (watch != null && cancel != null)) {
      err.println(
          "quarry ingest: --watch JOB and --cancel JOB take --url (and the token), one of them, and no PATH,"
              + " --ocr or --ocr-languages");
      return 2;
    }
    String bearer = token != null ? token : System.getenv(TOKEN_VARIABLE);
    if (bearer == null || bearer.isBlank()) {
      err.println("quarry ingest: --url needs --token or the " + TOKEN_VARIABLE + " variable");
      return 2;
    }
    try (HttpIngester http = new HttpIngester(target.url, bearer, null, null)) {
      JobIngest jobs = new JobIngest(http.client(), http.baseUrl(), err);
      return watch != null ? jobs.watch(watch, new IngestSummary(), out) : jobs.cancel(cancel, out);
    } catch (QuarryClientException e) {
      return refused(e, err);
    }
  }

  private IngestSummary run(
      DocumentIngester ingester,
      List<DocumentFiles.DocumentFile> files,
      PrintWriter out,
      PrintWriter err) {
    IngestSummary summary = new IngestSummary();
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try (IngestProgress progress =
        IngestProgress.on(System.err, files.size(), Terminal.interactive())) {
      List<Future<IngestOutcome>> outcomes =
          files.stream().map(file -> pool.submit(() -> ingestOne(ingester, file))).toList();
      for (int i = 0; i < files.size(); i++) {
        DocumentFiles.DocumentFile file = files.get(i);
        IngestOutcome outcome = outcomeOf(outcomes.get(i));
        summary.add(outcome, file.bytes());
        if (outcome.isFailure()) {
          err.println("failed: " + file.path() + ": " + outcome.code() + ": " + outcome.message());
        }
        outcome.printReports(file.source(), out);
        progress.fileDone(summary.bytes(), summary.failed());
      }
    } finally {
      pool.shutdownNow();
    }
    err.flush();
    return summary;
  }

  private IngestOutcome ingestOne(DocumentIngester ingester, DocumentFiles.DocumentFile file) {
    String sha256;
    try {
      sha256 = IngestPipeline.sha256Hex(file.path());
    } catch (QuarryException e) {
      return IngestOutcome.failed("UNREADABLE", "the file could not be read");
    }
    return ingester.ingest(corpus, file, sha256);
  }

  private static IngestOutcome outcomeOf(Future<IngestOutcome> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return IngestOutcome.failed("CANCELLED", "interrupted");
    } catch (ExecutionException e) {
      // An ingester never throws for a document; anything here is a fault of this program.
      return IngestOutcome.failed("INTERNAL", String.valueOf(e.getCause()));
    }
  }
}
