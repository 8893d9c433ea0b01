package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServerConfigTest {
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
    ServerConfig c = parse("""
        {"cors": {"allowedOrigins": ["https://app.example", "http://localhost:3000"]},
         "features": {"retrieval-indexing": false},
         "limits": {"maxTopK": 20, "maxListLimit": 50, "defaultListLimit": 10, "maxJobFiles": 7, "maxJobBytes": 9000},
         "retainedRevisions": 5000, "idempotencyRetentionHours": 48, "maxOpenCorpora": 8,
         "capacity": {"maxInFlight": 4, "maxWaiting": 2, "maxWaitMillis": 100, "maxThreads": 16},
         "extraction": {"workers": 3, "workerHeapMiB": 256, "queueCapacity": 4},
         "jobs": {"workers": 3, "maxActiveJobs": 5, "maxQueuedFiles": 50, "maxQueuedBytes": 123456,
                  "retentionMinutes": 30, "openIdleMinutes": 10}}""");
    assertEquals(List.of("https://app.example", "http://localhost:3000"), c.corsOrigins());
    assertEquals(Set.of(Feature.SCOPED_RETRIEVAL, Feature.DOCUMENT_INGESTION, Feature.PDF_INGESTION,
        Feature.INGESTION_JOBS), c.features());
    assertEquals(new dev.quarry.corpora.jobs.JobSettings(7, 9000, 5, 50, 123456, Duration.ofMinutes(30),
        Duration.ofMinutes(10), 3), c.jobs());
    assertEquals(new ExtractionSettings(3, 256, 4), c.extraction());
    assertEquals(20, c.limits().get(Limit.MAX_TOP_K));
    assertEquals(10, c.limits().get(Limit.DEFAULT_LIST_LIMIT));
    assertEquals(5000, c.retainedRevisions());
    assertEquals(Duration.ofHours(48), c.idempotencyRetention());
    assertEquals(8, c.maxOpenCorpora());
    assertEquals(4, c.maxInFlight());
    assertEquals(16, c.maxThreads());
  }

  @Test
  void limitAboveWhatTheEngineTakes_isRefused() {
    assertTrue(problem("{\"limits\": {\"maxTopK\": 500}}").startsWith("limits.maxTopK"));
  }

  @Test
  void unknownKeysAndFeatures_areNamed() {
    assertTrue(problem("{\"limits\": {\"maxPigs\": 1}}").startsWith("limits.maxPigs"));
    assertTrue(problem("{\"features\": {\"telepathy\": true}}").startsWith("features.telepathy"));
    assertTrue(problem("{\"port\": 80}").startsWith("port"));
  }

  @Test
  void ingestionFeatures_canBeSwitchedOff_andExtractionTuned() {
    ServerConfig c = parse("{\"features\": {\"pdf-ingestion\": false}, \"extraction\": {\"workers\": 3}}");
    assertTrue(c.features().contains(Feature.DOCUMENT_INGESTION));
    assertFalse(c.features().contains(Feature.PDF_INGESTION));
    assertEquals(3, c.extraction().workers());
    assertTrue(problem("{\"extraction\": {\"workers\": 0}}").startsWith("extraction.workers"));
  }

  @Test
  void retainedRevisions_belowTheContractMinimum_isRefused() {
    assertTrue(problem("{\"retainedRevisions\": 10}").startsWith("retainedRevisions"));
  }

  @Test
  void originWithAPath_isRefused() {
    assertTrue(problem("{\"cors\": {\"allowedOrigins\": [\"https://app.example/x\"]}}").startsWith("cors.allowedOrigins[0]"));
  }
}
