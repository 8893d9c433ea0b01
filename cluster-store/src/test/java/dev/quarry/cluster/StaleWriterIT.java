package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A front that stalls after marking its revision, past its writer lease, while another front takes
 * the corpus over, rolls that revision back and publishes the same revision number with its own
 * batch: when the stalled front wakes up it writes nothing, so none of its chunks ever becomes
 * visible under the other front's publication.
 */
class StaleWriterIT {
  private static final Duration TTL = Duration.ofSeconds(4);

  OpenSearchSettings settings;
  OpenSearchCorpusStore stalled;
  OpenSearchCorpusStore taker;
  ClusterHttp http;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("stale").withLeaseTtl(TTL);
    stalled = new OpenSearchCorpusStore(settings, EngineConfig.builder().build());
    taker = new OpenSearchCorpusStore(settings, EngineConfig.builder().build());
    http = new ClusterHttp(settings.urls(), settings.requestTimeout());
  }

  @AfterEach
  void close() {
    TestIndexes.close(stalled, taker);
  }

  static Mutation write(String source, String text) {
    return new Mutation(
        List.of(SourceOperation.Index.text(source, null, text, Metadata.EMPTY)),
        "tester",
        null,
        null);
  }

  static List<String> search(OpenSearchCorpusStore front, String q, Long revision) {
    return front.withCorpus(
        "docs",
        ix ->
            ix
                .search(new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false))
                .hits()
                .stream()
                .map(Hit::source)
                .toList());
  }

  @Test
  void aWriterThatStalledPastItsLease_writesNothing_underTheNextWritersRevision() throws Exception {
    stalled.create("docs", CorpusSettings.DEFAULT);
    stalled.withCorpus("docs", ix -> ix.apply(write("base", "base words")));
    CountDownLatch marked = new CountDownLatch(1);
    CountDownLatch takenOver = new CountDownLatch(1);
    stalled
        .kept("docs")
        .beforeWrites(
            () -> {
              marked.countDown();
              try {
                takenOver.await(60, TimeUnit.SECONDS); // the stall: a pause of the whole front
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    CompletableFuture<MutationResult> late =
        stalled.withCorpus(
            "docs",
            ix ->
                ix.submit(
                    new Mutation(
                        List.of(
                            SourceOperation.Index.text(
                                "stale", null, "stale words", Metadata.EMPTY),
                            SourceOperation.Index.text(
                                "base", null, "base words rewritten stale", Metadata.EMPTY)),
                        "tester",
                        null,
                        null)));
    assertTrue(marked.await(30, TimeUnit.SECONDS), "the stalled front marked revision 2");
    Thread.sleep(TTL.toMillis() + 500); // its lease expires
    MutationResult fresh = taker.withCorpus("docs", ix -> ix.apply(write("fresh", "fresh words")));
    assertEquals(
        2, fresh.revision(), "the taker rolled the stalled revision back and published its own 2");
    takenOver.countDown();

    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> late.get(60, TimeUnit.SECONDS));
    QuarryException q = assertInstanceOf(QuarryException.class, failed.getCause());
    assertEquals(ErrorCode.UNAVAILABLE, q.code());
    assertTrue(!q.uncertain(), "nothing of it can ever be published");

    // What the node holds now (refreshed), at every revision: none of the stalled front's
    // documents.
    http.json("POST", "/" + stalled.kept("docs").indexName() + "/_refresh", null).require("test");
    for (Long revision : new Long[] {null, 1L, 2L}) {
      assertTrue(search(taker, "stale", revision).isEmpty(), "revision " + revision);
      assertEquals(List.of("base"), search(taker, "base", revision));
    }
    assertEquals(List.of("fresh"), search(taker, "fresh", 2L));
    taker.withCorpus("docs", ix -> ix.apply(write("after", "after words")));
    assertTrue(search(taker, "stale", null).isEmpty());
    assertTrue(
        search(taker, "rewritten", null).isEmpty(), "the base source is still its first version");
    assertEquals(3L, (long) stalled.<Long>withCorpus("docs", ix -> ix.revision()));
  }
}
