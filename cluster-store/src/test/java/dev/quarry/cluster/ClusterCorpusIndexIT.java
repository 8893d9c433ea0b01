package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster store's revisions, batches, conflicts, idempotency and history on a real single node.
 */
class ClusterCorpusIndexIT {
  OpenSearchCorpusStore store;
  OpenSearchSettings settings;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("index");
    store = new OpenSearchCorpusStore(settings, EngineConfig.builder().build());
  }

  @AfterEach
  void close() {
    TestIndexes.close(store);
  }

  static SourceOperation.Index doc(String source, String title, String text) {
    return SourceOperation.Index.text(source, title, text, Metadata.EMPTY);
  }

  MutationResult apply(String corpus, SourceOperation... ops) {
    return store.withCorpus(
        corpus, ix -> ix.apply(new Mutation(List.of(ops), "tester", null, null)));
  }

  List<Hit> search(String corpus, String q, Long revision) {
    return store.withCorpus(
        corpus,
        ix ->
            ix.search(new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, true))
                .hits());
  }

  /**
   * One call of withCorpus is one operation with one deadline: its head read and every request of
   * its work share one request timeout (a read after the time went is refused, not given a timeout
   * of its own); the next call has its own.
   */
  @Test
  void oneCallOfTheStore_sharesOneDeadline() {
    Duration timeout = Duration.ofSeconds(2);
    OpenSearchCorpusStore quick =
        new OpenSearchCorpusStore(
            new OpenSearchSettings(
                settings.urls(),
                TestIndexes.prefix("deadline"),
                1,
                0,
                settings.leaseTtl(),
                timeout),
            EngineConfig.builder().build());
    try {
      quick.create("docs", CorpusSettings.DEFAULT);
      assertEquals(
          1,
          quick
              .withCorpus("docs", ix -> ix.apply(Mutation.of(doc("a", null, "words"), "t")))
              .revision());
      QuarryException late =
          assertThrows(
              QuarryException.class,
              () ->
                  quick.withCorpus(
                      "docs",
                      ix -> {
                        long revision = ix.revision();
                        sleep(timeout.plusMillis(200));
                        return ix.readSource("a").map(s -> revision);
                      }));
      assertEquals(ErrorCode.UNAVAILABLE, late.code(), late.getMessage());
      assertTrue(
          quick.withCorpus("docs", ix -> ix.readSource("a")).isPresent(),
          "the next call has a deadline of its own");
    } finally {
      quick.delete("docs");
      quick.close();
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void eachMutationIsOneRevision_andPinnedSearchesSeeTheirRevisionOnly() {
    store.create("docs", CorpusSettings.DEFAULT);
    assertEquals(
        1,
        apply("docs", doc("a", "Alpha", "the quick brown fox"), doc("b", null, "lazy dogs sleep"))
            .revision());
    assertEquals(2, apply("docs", doc("a", "Alpha", "a slow green turtle")).revision());
    assertEquals(List.of("a"), search("docs", "turtle", null).stream().map(Hit::source).toList());
    assertTrue(search("docs", "fox", null).isEmpty());
    assertEquals(List.of("a"), search("docs", "fox", 1L).stream().map(Hit::source).toList());
    assertTrue(search("docs", "turtle", 1L).isEmpty());
    Hit hit = search("docs", "turtle", null).get(0);
    assertEquals(2, hit.sourceRevision());
    assertFalse(hit.highlights().isEmpty());
    assertEquals(
        "turtle", hit.text().substring(hit.highlights().get(0)[0], hit.highlights().get(0)[1]));
    assertEquals(3, apply("docs", new SourceOperation.Delete("b", null, false)).revision());
    assertTrue(search("docs", "dogs", null).isEmpty());
    assertEquals(1, search("docs", "dogs", 2L).size());
    assertEquals(
        Receipt.Status.ABSENT,
        apply("docs", new SourceOperation.Delete("b", null, false)).single().status());
    assertEquals(
        Receipt.Status.UNCHANGED,
        apply("docs", doc("a", "Alpha", "a slow green turtle")).single().status());
    store.withCorpus(
        "docs",
        ix -> {
          assertEquals(3, ix.revision());
          assertEquals(
              List.of("a"),
              ix.listSources(null, null, 10, s -> true).sources().stream()
                  .map(s -> s.source())
                  .toList());
          assertEquals(4, ix.history(0, 100, s -> true).entries().size());
          assertEquals(2, ix.readSource("a").orElseThrow().sourceRevision());
          assertEquals(1, ix.countSources(null));
          assertEquals(
              1, ix.countSources(s -> s.equals("a")), "counted through the visible sources");
          assertEquals(0, ix.countSources(s -> !s.equals("a")));
          return null;
        });
    QuarryException conflict =
        assertThrows(
            QuarryException.class,
            () ->
                apply(
                    "docs",
                    new SourceOperation.Index(
                        "a", null, "x", null, null, null, 1L, null, null, null)));
    assertEquals(ErrorCode.REVISION_CONFLICT, conflict.code());
  }

  @Test
  void aRevisionLeftUnpublished_isRolledBackByTheNextWriter() {
    store.create("crash", CorpusSettings.DEFAULT);
    apply("crash", doc("a", null, "original words"));
    // A front that died mid-batch: revision 2 marked as being written, its documents half there.
    ClusterHttp http = new ClusterHttp(settings.urls(), settings.requestTimeout());
    String index = store.withCorpus("crash", ix -> ((ClusterCorpusIndex) ix).indexName());
    CorpusHead head = CorpusHead.read(http, index);
    assertTrue(head.mark(http, index, 2, "dead-front/1").done().isPresent());
    var chunk =
        ClusterHttp.MAPPER
            .createObjectNode()
            .put("kind", "chunk")
            .put("source", "ghost")
            .put("added", 2)
            .put("superseded", CorpusDocs.LIVE)
            .put("chunk", 0)
            .put("text", "phantom")
            .put("tokens", "phantom");
    // The front died after its bulk write and before its refresh: nothing of it was refreshed.
    http.json("PUT", "/" + index + "/_doc/ghost", chunk).require("test write");
    var partial = ClusterHttp.MAPPER.createObjectNode();
    partial.putObject("doc").put("superseded", 2);
    http.json("POST", "/" + index + "/_update/" + ClusterWriter.chunkId("a", 1, 0), partial)
        .require("test");
    // Nothing of it is visible: the head still says 1.
    assertTrue(search("crash", "phantom", null).isEmpty());
    assertEquals(1, search("crash", "original", null).size());
    // The next writer rolls it back and takes revision 2 itself.
    assertEquals(2, apply("crash", doc("b", null, "fresh text")).revision());
    assertTrue(search("crash", "phantom", null).isEmpty());
    assertEquals(1, search("crash", "original", null).size());
    assertEquals(1, search("crash", "fresh", null).size());
  }

  @Test
  void idempotentReplays_andCorpusLifecycle() {
    store.create("idem", CorpusSettings.DEFAULT);
    assertEquals(
        ErrorCode.CORPUS_EXISTS,
        assertThrows(QuarryException.class, () -> store.create("idem", CorpusSettings.DEFAULT))
            .code());
    Mutation m =
        new Mutation(
            List.of(doc("a", null, "words")), "tester", new Mutation.Idempotency("k1", "f1"), null);
    MutationResult first = store.withCorpus("idem", ix -> ix.apply(m));
    MutationResult again = store.withCorpus("idem", ix -> ix.apply(m));
    assertTrue(again.replayed());
    assertEquals(first.revision(), again.revision());
    Mutation other =
        new Mutation(
            List.of(doc("a", null, "other")), "tester", new Mutation.Idempotency("k1", "f2"), null);
    assertEquals(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        assertThrows(QuarryException.class, () -> store.withCorpus("idem", ix -> ix.apply(other)))
            .code());
    assertTrue(store.names(null, 10).contains("idem"));
    store.delete("idem");
    assertTrue(store.info("idem").isEmpty());
    assertEquals(
        ErrorCode.CORPUS_NOT_FOUND,
        assertThrows(QuarryException.class, () -> store.withCorpus("idem", ix -> null)).code());
  }
}
