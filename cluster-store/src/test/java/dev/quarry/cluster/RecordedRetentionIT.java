package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceOperation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every front of one deployment runs with the same {@code retainedRevisions}, on a real node: the
 * first front records its value, a front with another one refuses to start naming the key, and a
 * front left running after the record changed reclaims nothing.
 */
class RecordedRetentionIT {
  OpenSearchCorpusStore first;
  OpenSearchCorpusStore second;

  @AfterEach
  void close() {
    TestIndexes.close(first, second);
  }

  private static EngineConfig retaining(int n) {
    return EngineConfig.builder().retainedRevisions(n).build();
  }

  @Test
  void aFrontWithAnotherRetention_refusesToStartNamingTheKey() throws Exception {
    OpenSearchSettings settings = TestIndexes.onSingleNode("retention");
    first = new OpenSearchCorpusStore(settings, retaining(5));
    QuarryException e =
        assertThrows(
            QuarryException.class, () -> new OpenSearchCorpusStore(settings, retaining(7)));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals("retainedRevisions", e.field());
    assertTrue(
        e.getMessage().contains("retainedRevisions is 7") && e.getMessage().contains("kept with 5"),
        e.getMessage());

    // The same value starts, and sees the first front's corpora; the record is no corpus.
    first.create("kept", CorpusSettings.DEFAULT);
    second = new OpenSearchCorpusStore(settings, retaining(5));
    assertEquals(List.of("kept"), second.names(null, 100));
    assertTrue(second.info(RecordedRetention.ID).isEmpty());
  }

  @Test
  void aFrontLeftRunningAfterTheRecordChanged_reclaimsNothing() throws Exception {
    OpenSearchSettings settings = TestIndexes.onSingleNode("retention");
    first = new OpenSearchCorpusStore(settings, retaining(2));
    first.create("churn", CorpusSettings.DEFAULT);
    ClusterCorpusIndex index = first.withCorpus("churn", ix -> (ClusterCorpusIndex) ix);
    index.reclaimSettle(Duration.ZERO);
    for (int r = 1; r <= 4; r++) {
      String text = "version " + r;
      first.withCorpus(
          "churn",
          ix ->
              ix.apply(
                  Mutation.of(
                      SourceOperation.Index.text("s", null, text, Metadata.EMPTY), "tester")));
    }
    // Another value recorded (as an operator changing it would): this front's setting is stale.
    ClusterHttp http = new ClusterHttp(settings);
    String registry = settings.indexPrefix() + "-registry";
    http.json(
            "PUT",
            "/" + registry + "/_doc/" + RecordedRetention.ID + "?refresh=true",
            ClusterHttp.MAPPER
                .createObjectNode()
                .put("kind", "retention")
                .put("retainedRevisions", 10))
        .require("test");
    assertEquals(-1L, (long) index.reclaimExpired().get());
    // With its own value recorded again, it reclaims the two expired versions (chunk and record
    // each).
    http.json(
            "PUT",
            "/" + registry + "/_doc/" + RecordedRetention.ID + "?refresh=true",
            ClusterHttp.MAPPER
                .createObjectNode()
                .put("kind", "retention")
                .put("retainedRevisions", 2))
        .require("test");
    assertEquals(4L, (long) index.reclaimExpired().get());
  }
}
