package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A front keeps at most {@code maxOpenCorpora} corpora open once calls are done with them; the
 * others are read from the registry again on their next use, and one whose writer has a batch
 * queued or running is never closed under it.
 */
class OpenCorporaBoundIT {
  private static final int BOUND = 2;

  OpenSearchSettings settings;
  OpenSearchCorpusStore store;
  ClusterHttp http;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("bound");
    store = new OpenSearchCorpusStore(settings, EngineConfig.builder().build(), BOUND);
    http = new ClusterHttp(settings.urls(), settings.requestTimeout());
  }

  @AfterEach
  void close() {
    TestIndexes.close(store);
  }

  static Mutation write(String source, String text) {
    return new Mutation(
        List.of(SourceOperation.Index.text(source, null, text, Metadata.EMPTY)),
        "tester",
        null,
        null);
  }

  List<String> search(String corpus, String q) {
    return store.withCorpus(
        corpus,
        ix ->
            ix
                .search(new SearchRequest(q, SourceScope.ALL, List.of(), 10, null, null, false))
                .hits()
                .stream()
                .map(Hit::source)
                .toList());
  }

  @Test
  void moreCorporaThanTheBound_allWork_andTheFrontKeepsAtMostTheBound() {
    List<String> names = List.of("c1", "c2", "c3", "c4", "c5");
    for (String n : names) {
      store.create(n, CorpusSettings.DEFAULT);
    }
    for (int pass = 1; pass <= 2; pass++) {
      for (String n : names) {
        String source = n + "-" + pass;
        Mutation m = write(source, "words of " + n + " pass" + pass);
        MutationResult r = store.withCorpus(n, ix -> ix.apply(m));
        assertEquals(pass, r.revision());
        assertTrue(store.openCount() <= BOUND, "open: " + store.openCount());
        assertEquals(List.of(source), search(n, "pass" + pass));
        assertTrue(store.openCount() <= BOUND, "open: " + store.openCount());
      }
    }
    for (String n : names) {
      assertEquals(2L, (long) store.<Long>withCorpus(n, ix -> ix.revision()));
    }
    assertTrue(store.openCount() <= BOUND);
  }

  @Test
  void aCorpusWhoseWriterIsMidBatch_staysOpen_whileOthersComeAndGo() throws Exception {
    store.create("busy", CorpusSettings.DEFAULT);
    for (String n : List.of("o1", "o2", "o3")) {
      store.create(n, CorpusSettings.DEFAULT);
    }
    store.withCorpus("busy", ix -> ix.revision());
    ClusterCorpusIndex busy = store.kept("busy");
    // Another front holds the writer lease: this front's batch waits for it, queued on its writer.
    ObjectNode lease = ClusterHttp.MAPPER.createObjectNode();
    lease
        .put("kind", "lease")
        .put("owner", "another-front")
        .put("expires", System.currentTimeMillis() + 60_000);
    http.json(
            "PUT", "/" + busy.indexName() + "/_doc/" + CorpusDocs.LEASE_ID + "?refresh=true", lease)
        .require("test");
    CompletableFuture<MutationResult> pending =
        store.withCorpus("busy", ix -> ix.submit(write("b", "waiting words")));
    for (String n : List.of("o1", "o2", "o3", "o1", "o2", "o3")) {
      assertTrue(search(n, "anything").isEmpty());
      assertSame(busy, store.kept("busy"), "a corpus with a batch queued is kept open");
      assertFalse(busy.retired());
    }
    assertFalse(pending.isDone());
    assertTrue(store.openCount() <= BOUND, "the idle ones went: " + store.openCount());
    http.send(
            "DELETE",
            "/" + busy.indexName() + "/_doc/" + CorpusDocs.LEASE_ID + "?refresh=true",
            null,
            null)
        .require("test");
    assertEquals(1, pending.get(60, TimeUnit.SECONDS).revision());
    assertEquals(List.of("b"), search("busy", "waiting"));
    for (String n : List.of("o1", "o2", "o3")) {
      search(n, "anything");
    }
    assertTrue(store.openCount() <= BOUND);
    assertTrue(busy.retired(), "idle once its batch was written, so closed for the bound");
    assertEquals(List.of("b"), search("busy", "waiting"), "and opened again from the registry");
  }
}
