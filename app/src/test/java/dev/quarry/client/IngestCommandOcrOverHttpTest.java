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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry ingest --url ... --ocr auto|off} against real servers: the choice goes with the job
 * (shown by the server as the job's {@code ocr}), or with each file when the server runs no jobs;
 * {@code auto} on a server without OCR is the server's refusal naming {@code ocr}; any other value
 * is a usage error naming the option. With Tesseract installed (skipped otherwise), {@code off}
 * refuses an image a server with OCR would recognise, and {@code auto} recognises it, both as a job
 * and file by file, printing each recognised file's OCR report (pages, words, confidence, and the
 * warning of a page scanned upside down) on stdout.
 */
class IngestCommandOcrOverHttpTest {
  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static QuarryClient admin;
  static Path folder;

  record Run(int code, String out, String err) {
    int count(String row) {
      Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(row) + "\\s+(\\d+)$").matcher(out);
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
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

  @BeforeAll
  static void start() throws Exception {
    admin = server.client(TestTokens.ADMIN);
    folder = Files.createDirectories(dir.resolve("scans"));
    Files.writeString(folder.resolve("notes.txt"), "Notes typed about the northern lighthouse.\n");
    java.awt.image.BufferedImage page = TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 200);
    Files.write(folder.resolve("logbook.png"), TestScans.encode(page, "png"));
    Files.write(
        folder.resolve("upside-down.png"), TestScans.encode(TestScans.turned(page, 180), "png"));
  }

  static Run ingest(String url, String corpus, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
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
    return quarry(args.toArray(String[]::new));
  }

  static ServerConfig config(String json) {
    return ServerConfig.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anotherValue_isAUsageError_namingTheOption() {
    Run maybe = ingest(server.url(), "usage", "--ocr", "maybe");
    assertEquals(2, maybe.code(), maybe::toString);
    assertTrue(maybe.err().contains("--ocr must be auto or off; got 'maybe'"), maybe::toString);
    Run upper = ingest(server.url(), "usage", "--ocr", "AUTO");
    assertEquals(2, upper.code(), "the values are the wire's: " + upper);
    Run watch =
        quarry(
            "ingest",
            "--url",
            server.url(),
            "--token",
            TestTokens.ADMIN,
            "--watch",
            "job_1",
            "--ocr",
            "off");
    assertEquals(2, watch.code(), watch::toString);
    assertTrue(watch.err().contains("--ocr"), watch::toString);
    assertEquals(
        0,
        admin.listCorpora(null, null).items().stream()
            .filter(c -> c.corpus().equals("usage"))
            .count(),
        "nothing was sent");
  }

  @Test
  void asAJob_offIsTheJobsChoice_andAutoWithoutTheFeatureIsRefusedBeforeAnyFile() {
    Run off = ingest(server.url(), "off", "--ocr", "off");
    assertEquals(1, off.code(), off::toString);
    assertEquals(1, off.count("ingested"), off::toString);
    assertEquals(2, off.count("UNSUPPORTED_MEDIA_TYPE"), off::toString);
    assertEquals(
        List.of("off"),
        admin.listJobs("off", null, null, null).items().stream().map(Job::ocr).toList(),
        "the job carries the choice");
    Run unset = ingest(server.url(), "unset");
    assertEquals(1, unset.code(), unset::toString);
    assertEquals(
        java.util.Collections.singletonList(null),
        admin.listJobs("unset", null, null, null).items().stream().map(Job::ocr).toList(),
        "without --ocr the job leaves it to the server");

    Run auto = ingest(server.url(), "auto", "--ocr", "auto");
    assertEquals(1, auto.code(), auto::toString);
    assertTrue(auto.err().contains("quarry ingest: INVALID_REQUEST: "), auto::toString);
    assertTrue(auto.err().contains("ocr"), auto::toString);
    assertEquals(List.of(), admin.listJobs("auto", null, null, null).items(), "no job was created");
    assertEquals(
        List.of(), admin.listSources("auto", null, null, null).items(), "no file was sent");
  }

  @Test
  void fileByFile_theChoiceGoesWithEachFile() {
    try (RealServer noJobs =
        new RealServer(
            dir.resolve("no-jobs"), config("{\"features\": {\"ingestion-jobs\": false}}"))) {
      Run auto = ingest(noJobs.url(), "auto", "--ocr", "auto");
      assertEquals(1, auto.code(), auto::toString);
      assertTrue(auto.err().contains("sending the files one by one"), auto::toString);
      assertEquals(
          3, auto.count("INVALID_REQUEST"), "each file is refused for asking OCR: " + auto);
      Run off = ingest(noJobs.url(), "off", "--ocr", "off");
      assertEquals(1, off.count("ingested"), off::toString);
      assertEquals(2, off.count("UNSUPPORTED_MEDIA_TYPE"), off::toString);
      assertFalse(off.out().contains("ocr "), "no file was read by OCR: " + off);
    }
  }

  @Test
  void withOcrOn_offRefusesTheImage_autoRecognisesIt_asAJobAndFileByFile() {
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    String ocr =
        "\"extraction\": {\"ocr\": \"auto\"}, \"limits\": {\"extractionTimeoutMillis\": 120000}";
    List<Run> autos = new java.util.ArrayList<>();
    try (RealServer jobs = new RealServer(dir.resolve("ocr-jobs"), config("{" + ocr + "}"));
        RealServer noJobs =
            new RealServer(
                dir.resolve("ocr-no-jobs"),
                config("{" + ocr + ", \"features\": {\"ingestion-jobs\": false}}"))) {
      for (RealServer s : List.of(jobs, noJobs)) {
        Run off = ingest(s.url(), "scans", "--ocr", "off");
        assertEquals(1, off.code(), off::toString);
        assertEquals(2, off.count("UNSUPPORTED_MEDIA_TYPE"), off::toString);
        Run auto = ingest(s.url(), "scans", "--ocr", "auto");
        assertEquals(0, auto.code(), auto::toString);
        assertEquals(2, auto.count("ingested"), "the images, the text file unchanged: " + auto);
        assertTrue(
            Pattern.compile(
                    "(?m)^ocr logbook\\.png: 1 page recognised, \\d+ words, mean confidence \\d+\\.\\d$")
                .matcher(auto.out())
                .find(),
            auto::toString);
        assertFalse(auto.out().contains("ocr notes.txt"), "a text file has no OCR report: " + auto);
        QuarryClient client = s.client(TestTokens.ADMIN);
        assertTrue(
            client.search("scans", "lighthouse logbook").results().stream()
                .anyMatch(h -> h.source().equals("logbook.png")),
            "the recognised words are found");
        autos.add(auto);
      }
    }
    assumeTrue(
        Tesseract.onPath().detectsOrientation(),
        "tesseract has no orientation data (osd; Debian: tesseract-ocr-osd); skipping the page scanned upside down");
    for (Run auto : autos) {
      assertTrue(
          Pattern.compile(
                  "(?m)^ocr upside-down\\.png: 1 page recognised, \\d+ words, mean confidence "
                      + "\\d+\\.\\d\\n  OCR_ROTATED \\(page 1\\): .*180 degrees clockwise.*$")
              .matcher(auto.out())
              .find(),
          auto::toString);
    }
  }
}
