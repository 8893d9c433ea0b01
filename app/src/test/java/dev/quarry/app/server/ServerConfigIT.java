package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.app.ServerProcess;
import dev.quarry.extractors.ocr.OcrMode;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigIT {
  static ServerConfig parse(String json) {
    return ServerConfig.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  static String problem(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void emptyConfig_isTheDefault() {
    assertEquals(ServerConfig.DEFAULT, parse("{}"));
  }

  @Test
  void everyKey_isRead() {
    ServerConfig c =
        parse(
            """
        {"cors": {"allowedOrigins": ["https://app.example", "http://localhost:3000"]},
         "features": {"retrieval-indexing": false},
         "limits": {"maxTopK": 20, "maxListLimit": 50, "defaultListLimit": 10, "maxJobFiles": 7, "maxJobBytes": 9000},
         "retainedRevisions": 5000, "idempotencyRetentionHours": 48, "maxOpenCorpora": 8,
         "capacity": {"maxInFlight": 4, "maxWaiting": 2, "maxWaitMillis": 100, "maxThreads": 16},
         "extraction": {"workers": 3, "workerHeapMiB": 256, "queueCapacity": 4, "ocr": "auto"},
         "jobs": {"workers": 3, "maxActiveJobs": 5, "maxQueuedFiles": 50, "maxQueuedBytes": 123456,
                  "retentionMinutes": 30, "openIdleMinutes": 10}}""");
    assertEquals(List.of("https://app.example", "http://localhost:3000"), c.corsOrigins());
    assertEquals(
        Set.of(
            Feature.SCOPED_RETRIEVAL,
            Feature.DOCUMENT_INGESTION,
            Feature.PDF_INGESTION,
            Feature.OCR,
            Feature.INGESTION_JOBS),
        c.features());
    assertEquals(
        new dev.quarry.corpora.jobs.JobSettings(
            7, 9000, 5, 50, 123456, Duration.ofMinutes(30), Duration.ofMinutes(10), 3),
        c.jobs());
    assertEquals(new ExtractionSettings(3, 256, 4, OcrMode.AUTO), c.extraction());
    assertEquals(20, c.limits().get(Limit.MAX_TOP_K));
    assertEquals(10, c.limits().get(Limit.DEFAULT_LIST_LIMIT));
    assertEquals(5000, c.retainedRevisions());
    assertEquals(Duration.ofHours(48), c.idempotencyRetention());
    assertEquals(8, c.maxOpenCorpora());
    assertEquals(4, c.maxInFlight());
    assertEquals(16, c.maxThreads());
  }

  @Test
  void modelFolders_areRead_andMustBeAbsolute() {
    assertEquals(
        List.of(Path.of("/srv/models/multilingual-e5-small")),
        parse("{\"models\": {\"folders\": [\"/srv/models/multilingual-e5-small\"]}}")
            .modelFolders());
    assertTrue(
        problem("{\"models\": {\"folders\": [\"models/e5\"]}}").startsWith("models.folders[0]"));
    assertTrue(problem("{\"models\": {\"folder\": \"/srv/m\"}}").startsWith("models.folder"));
  }

  @Test
  void ocrLanguages_areRead_andABadNameIsRefusedByIndex() {
    assertEquals(
        List.of("deu", "eng"),
        parse("{\"extraction\": {\"ocr\": \"auto\", \"ocrLanguages\": [\"deu\", \"eng\"]}}")
            .extraction()
            .ocrLanguages());
    assertEquals(List.of("eng"), parse("{}").extraction().ocrLanguages());
    assertTrue(
        problem("{\"extraction\": {\"ocrLanguages\": [\"eng\", \"../x\"]}}")
            .startsWith("extraction.ocrLanguages[1]"));
    assertTrue(
        problem("{\"extraction\": {\"ocrLanguages\": []}}").startsWith("extraction.ocrLanguages"));
  }

  @Test
  void limitAboveWhatTheEngineTakes_isRefused() {
    assertTrue(problem("{\"limits\": {\"maxTopK\": 500}}").startsWith("limits.maxTopK"));
  }

  @Test
  void mcp_isOnUnlessTheConfigTurnsItOff() {
    assertTrue(ServerConfig.DEFAULT.mcp());
    assertTrue(parse("{}").mcp());
    assertTrue(parse("{\"mcp\": {}}").mcp());
    assertFalse(parse("{\"mcp\": {\"enabled\": false}}").mcp());
    assertTrue(problem("{\"mcp\": {\"enabled\": \"no\"}}").startsWith("mcp.enabled"));
    assertTrue(problem("{\"mcp\": {\"path\": \"/x\"}}").startsWith("mcp.path"));
  }

  @Test
  void unknownKeysAndFeatures_areNamed() {
    assertTrue(problem("{\"limits\": {\"maxPigs\": 1}}").startsWith("limits.maxPigs"));
    assertTrue(problem("{\"features\": {\"telepathy\": true}}").startsWith("features.telepathy"));
    assertTrue(problem("{\"port\": 80}").startsWith("port"));
  }

  @Test
  void ingestionFeatures_canBeSwitchedOff_andExtractionTuned() {
    ServerConfig c =
        parse("{\"features\": {\"pdf-ingestion\": false}, \"extraction\": {\"workers\": 3}}");
    assertTrue(c.features().contains(Feature.DOCUMENT_INGESTION));
    assertFalse(c.features().contains(Feature.PDF_INGESTION));
    assertEquals(3, c.extraction().workers());
    assertTrue(problem("{\"extraction\": {\"workers\": 0}}").startsWith("extraction.workers"));
    assertEquals(OcrMode.OFF, c.extraction().ocr());
    assertTrue(problem("{\"extraction\": {\"ocr\": \"always\"}}").startsWith("extraction.ocr"));
  }

  @Test
  void ocrOrientationDetection_isOnByDefault_andMaySwitchOff() {
    assertTrue(parse("{}").extraction().ocrDetectOrientation());
    assertTrue(parse("{\"extraction\": {\"ocr\": \"auto\"}}").extraction().ocrDetectOrientation());
    ExtractionSettings off =
        parse("{\"extraction\": {\"ocr\": \"auto\", \"ocrDetectOrientation\": false}}")
            .extraction();
    assertEquals(
        new ExtractionSettings(
            ExtractionSettings.DEFAULT.workers(),
            ExtractionSettings.DEFAULT.workerHeapMiB(),
            ExtractionSettings.DEFAULT.queueCapacity(),
            OcrMode.AUTO,
            false),
        off);
    assertTrue(
        parse("{\"extraction\": {\"ocrDetectOrientation\": true}}")
            .extraction()
            .ocrDetectOrientation());
  }

  @Test
  void ocrOrientationDetection_ofTheWrongType_isRefusedNamingTheField() {
    for (String value : List.of("\"false\"", "0", "null", "{}", "[]")) {
      String problem = problem("{\"extraction\": {\"ocrDetectOrientation\": " + value + "}}");
      assertTrue(problem.startsWith("extraction.ocrDetectOrientation"), value + ": " + problem);
    }
    assertTrue(
        problem("{\"extraction\": {\"ocrDetectOrientations\": false}}")
            .startsWith("extraction.ocrDetectOrientations"));
  }

  @Test
  void ocrOrientationDetection_ofTheWrongType_stopsServe(@TempDir Path dir) throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"extraction\": {\"ocr\": \"auto\", \"ocrDetectOrientation\": \"no\"}}");
    ServerProcess.Ended ended =
        ServerProcess.run(
            List.of(
                "serve",
                "--data",
                dir.resolve("data").toString(),
                "--port",
                "0",
                "--tokens",
                TestTokens.write(dir).toString(),
                "--config",
                config.toString()));
    assertEquals(2, ended.exitCode(), ended.stderr());
    assertTrue(ended.stderr().contains("extraction.ocrDetectOrientation"), ended.stderr());
    assertFalse(Files.exists(dir.resolve("data")), "a refused config created the data folder");
  }

  @Test
  void retainedRevisions_belowTheContractMinimum_isRefused() {
    assertTrue(problem("{\"retainedRevisions\": 10}").startsWith("retainedRevisions"));
  }

  @Test
  void originWithAPath_isRefused() {
    assertTrue(
        problem("{\"cors\": {\"allowedOrigins\": [\"https://app.example/x\"]}}")
            .startsWith("cors.allowedOrigins[0]"));
  }
}
