package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ocrLanguages} per request on a server whose default is English: a German scan ingested
 * with {@code ["deu"]} is read with its umlauts and eszett, by a single ingest and by a job (which
 * keeps the languages across a {@code kill -9}); a name that is not language data, or whose data
 * this server lacks, is a 400 naming {@code ocrLanguages[i]} and the name, and nothing is stored.
 * Skipped when Tesseract lacks the English or German data (Debian: tesseract-ocr-eng, -deu).
 */
class OcrLanguagesOverHttpIT {
  static final String T = TestTokens.ADMIN;
  static final List<String> GERMAN_WORDS =
      List.of("Philosophie", "Theologie", "heißem", "Bemühn", "zuvor");
  static final String CONFIG =
      "{\"extraction\": {\"ocr\": \"auto\", \"ocrLanguages\": [\"eng\"]}, \"limits\": {\"extractionTimeoutMillis\": 120000}}";

  @TempDir static Path dir;
  static ServerProcess server;
  static ApiClient api;
  static byte[] faust;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Tesseract.onPath().available()
            && Tesseract.onPath().missingLanguages(List.of("deu")).isEmpty(),
        "tesseract with English and German data is not installed (Debian: tesseract-ocr-eng, -deu); skipping");
    Path tokens = TestTokens.write(dir);
    server =
        ServerProcess.serve(
            dir.resolve("data"),
            tokens,
            Files.writeString(dir.resolve("config.json"), CONFIG),
            512);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"de\"}"));
    faust = TestScans.encode(TestScans.lines(TestScans.FAUST), "png");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Answer ingest(ApiClient a, String request) {
    return Upload.send(a, T, request, "faust.png", faust);
  }

  /** The source's text as it was indexed, chunk after chunk. */
  static String text(ApiClient a, String source) {
    StringBuilder out = new StringBuilder();
    ok(a.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"de\", \"source\": \"" + source + "\", \"limit\": 100}"))
        .get("chunks")
        .forEach(c -> out.append(c.get("text").asText()).append('\n'));
    return out.toString();
  }

  static void assertGerman(String text) {
    for (String word : GERMAN_WORDS) {
      assertTrue(text.contains(word), word + " in: " + text);
    }
  }

  static void assertRefused(Answer a, String field, String name) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
    assertTrue(a.json().at("/error/message").asText().contains("'" + name + "'"), a::toString);
  }

  static void assertAbsent(String source) {
    Answer read =
        api.retrieval("sources/read", T, "{\"corpus\": \"de\", \"source\": \"" + source + "\"}");
    assertEquals("SOURCE_NOT_FOUND", read.code(), read::toString);
  }

  @Test
  void singleIngest_withGerman_readsTheUmlautsTheEnglishDefaultMisses() {
    ok(
        ingest(
            api,
            "{\"corpus\": \"de\", \"source\": \"faust-deu.png\", \"ocrLanguages\": [\"deu\"]}"));
    assertGerman(text(api, "faust-deu.png"));
    ok(ingest(api, "{\"corpus\": \"de\", \"source\": \"faust-default.png\"}"));
    String english = text(api, "faust-default.png");
    assertFalse(
        english.contains("heißem"), () -> "the English default read the eszett: " + english);
  }

  @Test
  void singleIngest_aLanguageNotInstalled_orNotLanguageData_isRefusedByIndex_andNothingIsStored() {
    assertRefused(
        ingest(
            api,
            "{\"corpus\": \"de\", \"source\": \"tlh.png\", \"ocrLanguages\": [\"deu\", \"tlh\"]}"),
        "ocrLanguages[1]",
        "tlh");
    assertAbsent("tlh.png");
    assertRefused(
        ingest(
            api, "{\"corpus\": \"de\", \"source\": \"bad.png\", \"ocrLanguages\": [\"eng+deu\"]}"),
        "ocrLanguages[0]",
        "eng+deu");
    assertRefused(
        ingest(
            api,
            "{\"corpus\": \"de\", \"source\": \"bad.png\", \"ocrLanguages\": [\"deu\", \"deu\"]}"),
        "ocrLanguages[1]",
        "deu");
    Answer empty =
        ingest(api, "{\"corpus\": \"de\", \"source\": \"bad.png\", \"ocrLanguages\": []}");
    assertEquals(400, empty.status(), empty::toString);
    assertEquals("ocrLanguages", empty.field(), empty::toString);
    Answer notAList =
        ingest(api, "{\"corpus\": \"de\", \"source\": \"bad.png\", \"ocrLanguages\": \"deu\"}");
    assertEquals(400, notAList.status(), notAList::toString);
    assertEquals("ocrLanguages", notAList.field(), notAList::toString);
    assertAbsent("bad.png");
  }

  @Test
  void job_withGerman_readsTheScan_andShowsItsLanguages() throws Exception {
    JsonNode job =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \"de\","
                        + " \"ocrLanguages\": [\"deu\", \"eng\"], \"files\": [{\"source\": \"job-faust.png\"}]}",
                    List.of("faust.png"),
                    List.of(faust))))
            .get("job");
    assertEquals("[\"deu\",\"eng\"]", job.get("ocrLanguages").toString(), job::toString);
    JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, job.get("id").asText());
    assertEquals("indexed", ended.at("/files/0/status").asText(), ended::toString);
    assertEquals(
        "[\"deu\",\"eng\"]", ended.at("/files/0/ocrLanguages").toString(), ended::toString);
    assertGerman(text(api, "job-faust.png"));
  }

  /**
   * A file's own languages override its job's: the same scan read with English in a German job
   * misses the eszett.
   */
  @Test
  void aFilesOwnLanguages_overrideTheJobs() throws Exception {
    JsonNode job =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \"de\","
                        + " \"ocrLanguages\": [\"deu\"], \"files\": [{\"source\": \"file-deu.png\"},"
                        + " {\"source\": \"file-eng.png\", \"ocrLanguages\": [\"eng\"]}]}",
                    List.of("a.png", "b.png"),
                    List.of(faust, faust))))
            .get("job");
    JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, job.get("id").asText());
    assertEquals("[\"deu\"]", ended.at("/files/0/ocrLanguages").toString(), ended::toString);
    assertEquals("[\"eng\"]", ended.at("/files/1/ocrLanguages").toString(), ended::toString);
    assertGerman(text(api, "file-deu.png"));
    String english = text(api, "file-eng.png");
    assertFalse(english.contains("heißem"), () -> "read with English: " + english);
  }

  @Test
  void job_aLanguageNotInstalled_isRefusedByIndex_andNoJobIsCreated() {
    int before = ok(api.retrieval("jobs/list", T, "{}")).get("jobs").size();
    assertRefused(
        api.retrieval("jobs/create", T, "{\"corpus\": \"de\", \"ocrLanguages\": [\"tlh\"]}"),
        "ocrLanguages[0]",
        "tlh");
    assertRefused(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/submit",
            Upload.namedBody(
                "{\"corpus\": \"de\","
                    + " \"ocrLanguages\": [\"eng\", \"tlh\"], \"files\": [{\"source\": \"job-tlh.png\"}]}",
                List.of("faust.png"),
                List.of(faust))),
        "ocrLanguages[1]",
        "tlh");
    assertRefused(
        api.retrieval("jobs/create", T, "{\"corpus\": \"de\", \"ocrLanguages\": [\"ENG\"]}"),
        "ocrLanguages[0]",
        "ENG");
    assertRefused(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/submit",
            Upload.namedBody(
                "{\"corpus\": \"de\","
                    + " \"files\": [{\"source\": \"job-ok.png\"}, {\"source\": \"job-tlh.png\", \"ocrLanguages\": [\"deu\", \"tlh\"]}]}",
                List.of("a.png", "b.png"),
                List.of(faust, faust))),
        "files[1].ocrLanguages[1]",
        "tlh");
    String open =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"de\"}")).at("/job/id").asText();
    assertRefused(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.namedBody(
                "{\"job\": \""
                    + open
                    + "\","
                    + " \"files\": [{\"source\": \"job-tlh.png\", \"ocrLanguages\": [\"tlh\"]}]}",
                List.of("b.png"),
                List.of(faust))),
        "files[0].ocrLanguages[0]",
        "tlh");
    JsonNode still = ok(api.retrieval("jobs/read", T, "{\"job\": \"" + open + "\"}"));
    assertEquals(0, still.at("/job/counts/files").asInt(), still::toString);
    ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + open + "\"}"));
    before++;
    assertEquals(before, ok(api.retrieval("jobs/list", T, "{}")).get("jobs").size());
    assertAbsent("job-tlh.png");
  }

  /**
   * A job created with German keeps it through a {@code kill -9}: the scan sent after the restart
   * is read in German.
   */
  @Test
  void jobsLanguages_surviveARestart() throws Exception {
    Path tokens = dir.resolve("tokens.json");
    Path data = dir.resolve("restart-data");
    Path config = Files.writeString(dir.resolve("restart.json"), CONFIG);
    String id;
    ServerProcess first = ServerProcess.serve(data, tokens, config, 512);
    try {
      ApiClient a = first.client();
      ok(a.retrieval("corpora/create", T, "{\"corpus\": \"de\"}"));
      id =
          ok(a.retrieval("jobs/create", T, "{\"corpus\": \"de\", \"ocrLanguages\": [\"deu\"]}"))
              .at("/job/id")
              .asText();
    } finally {
      first.kill();
    }
    try (ServerProcess second = ServerProcess.serve(data, tokens, config, 512)) {
      ApiClient a = second.client();
      ok(
          Upload.post(
              a,
              T,
              "/v1/retrieval/jobs/upload",
              Upload.namedBody(
                  "{\"job\": \""
                      + id
                      + "\", \"files\": ["
                      + "{\"source\": \"after.png\"}], \"close\": true}",
                  List.of("faust.png"),
                  List.of(faust))));
      JsonNode ended = JobsOverHttpIT.awaitEnd(a, T, id);
      assertEquals("[\"deu\"]", ended.at("/job/ocrLanguages").toString(), ended::toString);
      assertEquals("indexed", ended.at("/files/0/status").asText(), ended::toString);
      assertGerman(text(a, "after.png"));
    }
  }
}
