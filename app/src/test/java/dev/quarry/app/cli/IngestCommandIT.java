package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.app.server.TestScans;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.SourceState;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.TestTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry ingest} over a small folder, both straight into a data folder and through a server
 * process: exit codes, the summary table, unchanged files on a second run, a bad file that fails
 * alone, and {@code --ocr} into a data folder ({@code IngestCommandOcrOverHttpTest} has it over
 * HTTP).
 */
class IngestCommandIT {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));

  @TempDir Path dir;
  Path folder;

  /** What one run of the command printed and returned. */
  record Run(int exitCode, String out, String err) {
    int count(String row) {
      Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(row) + "\\s+(\\d+)$").matcher(out);
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n" + out + "\n" + err;
    }
  }

  static Run quarry(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        QuarryCli.commandLine()
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeEach
  void writeFolder() throws Exception {
    folder = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        folder.resolve("leave.md"), "# Leave\n\nParental leave lasts sixteen weeks.\n");
    Files.createDirectories(folder.resolve("travel"));
    Files.writeString(
        folder.resolve("travel/booking.html"),
        "<html><head><title>Booking</title></head><body><h1>Booking</h1><p>Book trains early.</p></body></html>");
    Files.writeString(folder.resolve("notes.txt"), "Plain notes about the office kitchen.\n");
    Files.writeString(folder.resolve(".hidden.txt"), "never ingested");
  }

  void createCorpus(Path data) throws Exception {
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      corpora.createCorpus(ADMIN, "handbook", null);
    }
  }

  @Test
  void dataFolder_ingestsEveryFile_namedByRelativePath_thenFindsThemUnchanged() throws Exception {
    Path data = dir.resolve("data");
    createCorpus(data);
    Run first =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(0, first.exitCode(), first::toString);
    assertEquals(3, first.count("ingested"), first::toString);
    assertEquals(0, first.count("failed"), first::toString);
    Run second =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(0, second.exitCode(), second::toString);
    assertEquals(3, second.count("unchanged"), second::toString);
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      List<String> sources =
          corpora.listSources(ADMIN, "handbook", null, null, 10).sources().stream()
              .map(SourceState::source)
              .toList();
      assertEquals(List.of("leave.md", "notes.txt", "travel/booking.html"), sources);
    }
  }

  @Test
  void dataFolder_aMarkdownFileOpeningWithAComment_isIndexedAsMarkdown() throws Exception {
    Path data = dir.resolve("data");
    createCorpus(data);
    // Bytes a detector alone takes for XML: only the .md name makes them Markdown.
    Files.writeString(
        folder.resolve("draft.md"),
        "<!-- draft -->\n# Draft\n\nTravel is booked two weeks ahead.\n");
    Run run =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(4, run.count("ingested"), run::toString);
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      assertEquals(
          "text/markdown", corpora.readSource(ADMIN, "handbook", "draft.md").state().mediaType());
    }
  }

  @Test
  void dataFolder_intoAnEmbeddingCorpus_embedsWithTheShippedModels() throws Exception {
    Path data = dir.resolve("data");
    EngineConfig withModels = EngineConfig.builder().embeddingModels(Models.all()).build();
    try (Corpora corpora = Corpora.builder().dataDir(data).engineConfig(withModels).build()) {
      corpora.createCorpus(
          ADMIN,
          "handbook",
          CorpusSettings.DEFAULT.withEmbedding(
              new CorpusSettings.Embedding(Models.ALL_MINILM_L6_V2.name(), null, 0.5)));
    }
    Run run =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(3, run.count("ingested"), run::toString);
    try (Corpora corpora = Corpora.builder().dataDir(data).engineConfig(withModels).build()) {
      SearchRequest semantic =
          new SearchRequest(
              "time off after a baby is born",
              SourceScope.ALL,
              List.of(),
              1,
              null,
              null,
              false,
              SearchRequest.Mode.SEMANTIC,
              null);
      assertEquals(
          List.of("leave.md"),
          corpora.search(ADMIN, "handbook", semantic, null).hits().stream()
              .map(Hit::source)
              .toList(),
          "the ingested chunks carry vectors");
    }
  }

  @Test
  void badFile_failsAlone_withItsCode_andTheExitCodeIsNonZero() throws Exception {
    Path data = dir.resolve("data");
    createCorpus(data);
    byte[] noise = new byte[4096];
    new Random(11).nextBytes(noise);
    Files.write(folder.resolve("noise.bin"), noise);
    Run run =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals(3, run.count("ingested"), run::toString);
    assertEquals(1, run.count("UNSUPPORTED_MEDIA_TYPE"), run::toString);
    assertTrue(run.err().contains("noise.bin"), run::toString);
  }

  @Test
  void dataFolder_ocrAuto_recognisesAnImage_offAndUnsetRefuseIt() throws Exception {
    Path data = dir.resolve("data");
    createCorpus(data);
    Path scans = Files.createDirectories(dir.resolve("scans"));
    Files.write(
        scans.resolve("logbook.png"),
        TestScans.encode(TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 200), "png"));
    Run unset =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", scans.toString());
    assertEquals(
        1,
        unset.count("UNSUPPORTED_MEDIA_TYPE"),
        "a data folder reads without OCR by default: " + unset);
    Run off =
        quarry(
            "ingest",
            "--data",
            data.toString(),
            "--corpus",
            "handbook",
            "--ocr",
            "off",
            scans.toString());
    assertEquals(1, off.count("UNSUPPORTED_MEDIA_TYPE"), off::toString);
    Run bad =
        quarry(
            "ingest",
            "--data",
            data.toString(),
            "--corpus",
            "handbook",
            "--ocr",
            "on",
            scans.toString());
    assertEquals(2, bad.exitCode(), bad::toString);
    assertTrue(bad.err().contains("--ocr must be auto or off; got 'on'"), bad::toString);
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    Run auto =
        quarry(
            "ingest",
            "--data",
            data.toString(),
            "--corpus",
            "handbook",
            "--ocr",
            "auto",
            scans.toString());
    assertEquals(0, auto.exitCode(), auto::toString);
    assertEquals(1, auto.count("ingested"), auto::toString);
    assertTrue(
        auto.out().contains("ocr logbook.png: 1 page recognised, "),
        "the file's OCR report: " + auto);
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      assertEquals(
          "image/png", corpora.readSource(ADMIN, "handbook", "logbook.png").state().mediaType());
    }
  }

  @Test
  void missingCorpus_isReported_beforeAnyFileIsSent_andCreatedWhenAsked() {
    String data = dir.resolve("empty").toString();
    Run run = quarry("ingest", "--data", data, "--corpus", "absent", folder.toString());
    assertEquals(1, run.exitCode(), run::toString);
    assertTrue(run.err().contains("CORPUS_NOT_FOUND"), run::toString);
    assertTrue(run.err().contains("add --create to create it"), run::toString);
    assertEquals(-1, run.count("ingested"), "no summary: nothing was sent");
    Run created =
        quarry("ingest", "--data", data, "--corpus", "absent", "--create", folder.toString());
    assertEquals(0, created.exitCode(), created::toString);
    assertEquals(3, created.count("ingested"), created::toString);
  }

  /** Russian prose long enough for a charset detector, written in the DOS code page IBM866. */
  static Path dosText(Path file) throws Exception {
    String russian =
        ("Текст в старой кодировке DOS должен быть прочитан и проиндексирован целиком, "
                + "а кодировка должна быть названа в отчёте. Отчёт за третий квартал сверен без ошибок.\n")
            .repeat(4);
    return Files.write(file, russian.getBytes(java.nio.charset.Charset.forName("IBM866")));
  }

  @Test
  void legacyCharset_isPrintedPerFile_intoADataFolderAndThroughAServer() throws Exception {
    dosText(folder.resolve("dos.txt"));
    Path data = dir.resolve("data");
    createCorpus(data);
    Run local =
        quarry("ingest", "--data", data.toString(), "--corpus", "handbook", folder.toString());
    assertEquals(0, local.exitCode(), local::toString);
    assertEquals(List.of("encoding dos.txt: IBM866"), encodingLines(local), local::toString);
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("server-data"), TestTokens.write(dir), null, 512)) {
      assertEquals(
          200,
          server
              .client()
              .retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"handbook\"}")
              .status());
      Run remote =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.ADMIN,
              "--corpus",
              "handbook",
              folder.toString());
      assertEquals(0, remote.exitCode(), remote::toString);
      assertEquals(List.of("encoding dos.txt: IBM866"), encodingLines(remote), remote::toString);
    }
  }

  /** The lines of {@code run}'s stdout that report a file's charset; UTF-8 files have none. */
  static List<String> encodingLines(Run run) {
    return run.out().lines().filter(l -> l.startsWith("encoding ")).toList();
  }

  @Test
  void runningServer_ingestsOverHttp_thenFindsThemUnchanged() throws Exception {
    Path tokens = TestTokens.write(dir);
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("server-data"), tokens, null, 512)) {
      assertEquals(
          200,
          server
              .client()
              .retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"handbook\"}")
              .status());
      String[] args = {
        "ingest",
        "--url",
        server.url(),
        "--token",
        TestTokens.ADMIN,
        "--corpus",
        "handbook",
        "--parallel",
        "2",
        folder.toString()
      };
      Run first = quarry(args);
      assertEquals(0, first.exitCode(), first::toString);
      assertEquals(3, first.count("ingested"), first::toString);
      Run second = quarry(args);
      assertEquals(3, second.count("unchanged"), second::toString);
      Run forbidden =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.SEARCH_C1,
              "--corpus",
              "handbook",
              folder.toString());
      assertEquals(1, forbidden.exitCode(), forbidden::toString);
      assertTrue(forbidden.err().contains("FORBIDDEN"), forbidden::toString);
    }
  }

  @Test
  void runningServer_noWait_detaches_thenWatchByIdReportsTheJob_andCancelAnswers()
      throws Exception {
    Path tokens = TestTokens.write(dir);
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("server-data"), tokens, null, 512)) {
      assertEquals(
          200,
          server
              .client()
              .retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"handbook\"}")
              .status());
      Run detached =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.ADMIN,
              "--corpus",
              "handbook",
              "--no-wait",
              folder.toString());
      assertEquals(0, detached.exitCode(), detached::toString);
      Matcher job = Pattern.compile("--watch (job_[a-z0-9]+)").matcher(detached.err());
      assertTrue(job.find(), detached::toString);
      Run watched =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.ADMIN,
              "--watch",
              job.group(1));
      assertEquals(0, watched.exitCode(), watched::toString);
      assertEquals(3, watched.count("ingested"), watched::toString);
      Run cancelled =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.ADMIN,
              "--cancel",
              job.group(1));
      assertEquals(0, cancelled.exitCode(), cancelled::toString);
      assertTrue(cancelled.out().contains("completed: 3 indexed"), cancelled::toString);
      Run notYours =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.PUBLIC_C1,
              "--watch",
              job.group(1));
      assertEquals(1, notYours.exitCode(), notYours::toString);
      assertTrue(notYours.err().contains("JOB_NOT_FOUND"), notYours::toString);
    }
  }
}
