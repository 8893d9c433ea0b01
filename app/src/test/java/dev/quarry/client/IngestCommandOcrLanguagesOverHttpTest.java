package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.cli.QuarryCli;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TestScans;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.TestTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry ingest ... --ocr-languages deu,eng} against real servers: the languages go with the
 * job (shown by the server as the job's {@code ocrLanguages}), or with each file when the server
 * runs no jobs, or to the extractors of a data folder; a name that is not language data, or given
 * twice, is a usage error naming the option, and so is the option with {@code --watch} or with
 * {@code --data} but without {@code --ocr auto}. With Tesseract's English and German data installed
 * (skipped otherwise), a German scan ingested with {@code deu} is read with its eszett, each way,
 * and a language without data ({@code tlh}) is refused naming {@code ocrLanguages[1]} before any
 * file is stored.
 */
class IngestCommandOcrLanguagesOverHttpTest {
  static final String OCR =
      "\"extraction\": {\"ocr\": \"auto\", \"ocrLanguages\": [\"eng\"]},"
          + " \"limits\": {\"extractionTimeoutMillis\": 120000}";

  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static Path folder;

  record Run(int code, String out, String err) {
    int count(String row) {
      Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(row) + "\\s+(\\d+)$").matcher(out);
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
  }

  static Run quarry(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        QuarryCli.commandLine()
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  static Run ingest(String url, String corpus, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "ingest",
                "--url",
                url,
                "--token",
                TestTokens.ADMIN,
                "--corpus",
                corpus,
                "--create"));
    args.addAll(List.of(more));
    args.add(folder.toString());
    return quarry(args);
  }

  static ServerConfig config(String json) {
    return ServerConfig.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  static String text(QuarryClient client, String corpus, String source) {
    return client.readChunks(corpus, source, null, null, 100).chunks().stream()
        .map(SourceText.Chunk::text)
        .collect(Collectors.joining("\n"));
  }

  @BeforeAll
  static void start() throws Exception {
    folder = Files.createDirectories(dir.resolve("scans"));
    Files.write(
        folder.resolve("faust.png"), TestScans.encode(TestScans.lines(TestScans.FAUST), "png"));
  }

  static void assumeGerman() {
    assumeTrue(
        Tesseract.onPath().available()
            && Tesseract.onPath().missingLanguages(List.of("deu")).isEmpty(),
        "tesseract with English and German data is not installed (Debian: tesseract-ocr-eng, -deu); skipping");
  }

  @Test
  void badNamesAndMisplacedUses_areUsageErrors_namingTheOption() {
    Run plus = ingest(server.url(), "usage", "--ocr-languages", "eng+deu");
    assertEquals(2, plus.code(), plus::toString);
    assertTrue(
        plus.err().contains("--ocr-languages[0]") && plus.err().contains("'eng+deu'"),
        plus::toString);
    Run twice = ingest(server.url(), "usage", "--ocr-languages", "deu,eng,deu");
    assertEquals(2, twice.code(), twice::toString);
    assertTrue(twice.err().contains("--ocr-languages[2]"), twice::toString);
    Run watch =
        quarry(
            List.of(
                "ingest",
                "--url",
                server.url(),
                "--token",
                TestTokens.ADMIN,
                "--watch",
                "job_1",
                "--ocr-languages",
                "deu"));
    assertEquals(2, watch.code(), watch::toString);
    assertTrue(watch.err().contains("--ocr-languages"), watch::toString);
    Run local =
        quarry(
            List.of(
                "ingest",
                "--data",
                dir.resolve("unused").toString(),
                "--corpus",
                "usage",
                "--create",
                "--ocr-languages",
                "deu",
                folder.toString()));
    assertEquals(2, local.code(), local::toString);
    assertTrue(
        local.err().contains("--ocr-languages with --data takes --ocr auto"), local::toString);
    assertFalse(Files.exists(dir.resolve("unused")), "no data folder was opened");
    assertEquals(
        0,
        server.client(TestTokens.ADMIN).listCorpora(null, null).items().stream()
            .filter(c -> c.corpus().equals("usage"))
            .count(),
        "nothing was sent");
  }

  @Test
  void withoutOcrOnTheServer_theLanguagesAreRefusedNamingTheField() {
    Run deu = ingest(server.url(), "no-ocr", "--ocr-languages", "deu");
    assertEquals(1, deu.code(), deu::toString);
    assertTrue(deu.err().contains("quarry ingest: INVALID_REQUEST: "), deu::toString);
    assertEquals(
        List.of(),
        server.client(TestTokens.ADMIN).listJobs("no-ocr", null, null, null).items(),
        "no job was created");
  }

  @Test
  void asAJob_theLanguagesAreTheJobs_andGermanReadsTheEszett() {
    assumeGerman();
    try (RealServer jobs = new RealServer(dir.resolve("ocr-jobs"), config("{" + OCR + "}"))) {
      QuarryClient client = jobs.client(TestTokens.ADMIN);
      Run deu = ingest(jobs.url(), "de", "--ocr-languages", "deu,eng");
      assertEquals(0, deu.code(), deu::toString);
      assertEquals(1, deu.count("ingested"), deu::toString);
      assertEquals(
          List.of(List.of("deu", "eng")),
          client.listJobs("de", null, null, null).items().stream().map(Job::ocrLanguages).toList(),
          "the job carries the languages");
      String german = text(client, "de", "faust.png");
      assertTrue(german.contains(TestScans.GERMAN_ONLY), german);

      Run tlh = ingest(jobs.url(), "tlh", "--ocr-languages", "deu,tlh");
      assertEquals(1, tlh.code(), tlh::toString);
      assertTrue(
          tlh.err().contains("quarry ingest: INVALID_REQUEST: ") && tlh.err().contains("'tlh'"),
          tlh::toString);
      assertEquals(
          List.of(), client.listJobs("tlh", null, null, null).items(), "no job was created");
      assertEquals(
          List.of(), client.listSources("tlh", null, null, null).items(), "no file was sent");
    }
  }

  @Test
  void fileByFile_theLanguagesGoWithEachFile() {
    assumeGerman();
    try (RealServer noJobs =
        new RealServer(
            dir.resolve("ocr-no-jobs"),
            config("{" + OCR + ", \"features\": {\"ingestion-jobs\": false}}"))) {
      Run deu = ingest(noJobs.url(), "de", "--ocr-languages", "deu");
      assertEquals(0, deu.code(), deu::toString);
      assertTrue(deu.err().contains("sending the files one by one"), deu::toString);
      String german = text(noJobs.client(TestTokens.ADMIN), "de", "faust.png");
      assertTrue(german.contains(TestScans.GERMAN_ONLY), german);
      Run tlh = ingest(noJobs.url(), "tlh", "--ocr-languages", "tlh");
      assertEquals(1, tlh.code(), tlh::toString);
      assertEquals(
          1, tlh.count("INVALID_REQUEST"), "the file is refused for its languages: " + tlh);
    }
  }

  @Test
  void intoADataFolder_theExtractorsReadWithTheLanguages() {
    assumeGerman();
    Path local = dir.resolve("local");
    Run tlh =
        quarry(
            List.of(
                "ingest",
                "--data",
                local.resolve("data").toString(),
                "--corpus",
                "de",
                "--create",
                "--ocr",
                "auto",
                "--ocr-languages",
                "tlh",
                folder.toString()));
    assertEquals(1, tlh.code(), tlh::toString);
    assertTrue(tlh.err().contains("'tlh'"), tlh::toString);
    Run deu =
        quarry(
            List.of(
                "ingest",
                "--data",
                local.resolve("data").toString(),
                "--corpus",
                "de",
                "--create",
                "--ocr",
                "auto",
                "--ocr-languages",
                "deu",
                folder.toString()));
    assertEquals(0, deu.code(), deu::toString);
    assertEquals(1, deu.count("ingested"), deu::toString);
    try (RealServer over = new RealServer(local)) {
      String german = text(over.client(TestTokens.ADMIN), "de", "faust.png");
      assertTrue(german.contains(TestScans.GERMAN_ONLY), german);
    }
  }
}
