package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TestScans;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OCR languages of a request ({@link IngestRequest#withOcrLanguages}, {@link
 * QuarryClient#submitJob(String, String, String, List, List)}, {@link JobFile#withOcrLanguages})
 * against a real server whose default is English: a German scan sent with {@code deu} is read with
 * its eszett, which English misses; a language the server has no data for ({@code tlh}) is the
 * typed refusal naming {@code ocrLanguages[i]}, and nothing is stored. Skipped when Tesseract lacks
 * the English or German data (Debian: tesseract-ocr-eng, -deu).
 */
class ClientOcrLanguagesOverHttpTest {

  @TempDir static Path dir;
  static RealServer server;
  static QuarryClient admin;
  static Path faust;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Tesseract.onPath().available()
            && Tesseract.onPath().missingLanguages(List.of("deu")).isEmpty(),
        "tesseract with English and German data is not installed (Debian: tesseract-ocr-eng, -deu); skipping");
    server =
        new RealServer(
            dir.resolve("server"),
            ServerConfig.parse(
                ("{\"extraction\": {\"ocr\": \"auto\","
                        + " \"ocrLanguages\": [\"eng\"]}, \"limits\": {\"extractionTimeoutMillis\": 120000}}")
                    .getBytes(StandardCharsets.UTF_8)));
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("de", null);
    faust =
        Files.write(
            dir.resolve("faust.png"), TestScans.encode(TestScans.lines(TestScans.FAUST), "png"));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static String text(String source) {
    return admin.readChunks("de", source, null, null, 100).chunks().stream()
        .map(SourceText.Chunk::text)
        .collect(Collectors.joining("\n"));
  }

  static Job awaitEnd(String job) throws InterruptedException {
    for (int i = 0; i < 1200; i++) {
      Job j = admin.readJob(job, null, 1).job();
      if (!j.state().equals("open") && !j.state().equals("running")) {
        return j;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("job " + job + " did not end in 120 s");
  }

  @Test
  void singleIngest_withGerman_readsTheEszett_theEnglishDefaultDoesNot() {
    admin.ingest(IngestRequest.of("de", "faust-deu.png").withOcrLanguages(List.of("deu")), faust);
    String german = text("faust-deu.png");
    assertTrue(german.contains(TestScans.GERMAN_ONLY), german);
    admin.ingest(IngestRequest.of("de", "faust-eng.png"), faust);
    String english = text("faust-eng.png");
    assertFalse(
        english.contains(TestScans.GERMAN_ONLY),
        () -> "the English default read the eszett: " + english);
  }

  @Test
  void singleIngest_withALanguageNotInstalled_isRefusedNamingIt_andStoresNothing() {
    ApiException.InvalidRequestException tlh =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () ->
                admin.ingest(
                    IngestRequest.of("de", "tlh.png").withOcrLanguages(List.of("deu", "tlh")),
                    faust));
    assertEquals(400, tlh.status());
    assertEquals("INVALID_REQUEST", tlh.code());
    assertEquals("ocrLanguages[1]", tlh.field(), tlh::getMessage);
    assertTrue(tlh.error().message().contains("'tlh'"), tlh::getMessage);
    assertEquals(
        "SOURCE_NOT_FOUND",
        assertThrows(ApiException.NotFoundException.class, () -> admin.readSource("de", "tlh.png"))
            .code(),
        "a refused ingest creates nothing");
  }

  @Test
  void job_withGerman_readsTheScan_andAFilesOwnLanguagesOverrideTheJobs() throws Exception {
    Job submitted =
        admin.submitJob(
            "de",
            null,
            null,
            List.of("deu", "eng"),
            List.of(
                JobFile.of(faust, "job-deu.png"),
                JobFile.of(faust, "job-eng.png").withOcrLanguages(List.of("eng"))));
    assertEquals(List.of("deu", "eng"), submitted.ocrLanguages(), "the job carries its languages");
    Job ended = awaitEnd(submitted.id());
    assertEquals("completed", ended.state(), ended::toString);
    assertEquals(List.of("deu", "eng"), ended.ocrLanguages());
    assertEquals(
        List.of(List.of("deu", "eng"), List.of("eng")),
        admin.jobFiles(submitted.id()).map(JobPage.FileOutcome::ocrLanguages).toList(),
        "each file shows what it is read with: its own, else the job's");
    String german = text("job-deu.png");
    assertTrue(german.contains(TestScans.GERMAN_ONLY), german);
    String english = text("job-eng.png");
    assertFalse(
        english.contains(TestScans.GERMAN_ONLY),
        () -> "the file's own English read the eszett: " + english);
  }

  @Test
  void jobs_withALanguageNotInstalled_areRefusedNamingIt() {
    ApiException.InvalidRequestException create =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () -> admin.createJob("de", null, null, List.of("tlh")));
    assertEquals("ocrLanguages[0]", create.field(), create::getMessage);
    ApiException.InvalidRequestException file =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () ->
                admin.submitJob(
                    "de",
                    null,
                    null,
                    null,
                    List.of(
                        JobFile.of(faust, "ok.png"),
                        JobFile.of(faust, "tlh.png").withOcrLanguages(List.of("eng", "tlh")))));
    assertEquals("files[1].ocrLanguages[1]", file.field(), file::getMessage);
    assertEquals(
        List.of(),
        admin.listJobs("de", null, null, null).items().stream()
            .filter(j -> !j.state().equals("completed"))
            .toList(),
        "no refused job was created");
  }
}
