package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention on the cluster reclaims the versions no retained revision sees: on a real node, many
 * revisions replacing the same sources leave only the retained versions in the index, every
 * retained revision answers as before, and the versions an unpublished revision replaced survive
 * for its roll-back.
 */
class ExpiredVersionsIT {
  private static final int RETAINED = 3;
  private static final int SOURCES = 5;
  OpenSearchCorpusStore store;
  OpenSearchSettings settings;
  ClusterHttp http;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("expired");
    store =
        new OpenSearchCorpusStore(
            settings, EngineConfig.builder().retainedRevisions(RETAINED).build());
    http = new ClusterHttp(settings.urls(), settings.requestTimeout());
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  /** Revision {@code r}: every source replaced with words of its own. */
  private long writeRevision(long r) {
    List<SourceOperation> ops = new ArrayList<>();
    for (int s = 0; s < SOURCES; s++) {
      String words =
          "harbour lighthouse "
              + "keeper ".repeat(s + 1)
              + "edition"
              + "abcdefghijklmnopqrstuvwxyz".charAt((int) (r % 26));
      ops.add(SourceOperation.Index.text("s" + s, "Notes", words, Metadata.EMPTY));
    }
    return store
        .withCorpus("churn", ix -> ix.apply(new Mutation(ops, "tester", null, null)))
        .revision();
  }

  private record Seen(String source, long sourceRevision, int chunk, float score) {}

  private List<Seen> pinned(long revision) {
    return store
        .withCorpus(
            "churn",
            ix ->
                ix.search(
                        new SearchRequest(
                            "harbour keeper",
                            SourceScope.ALL,
                            List.of(),
                            10,
                            revision,
                            null,
                            false))
                    .hits())
        .stream()
        .map(h -> new Seen(h.source(), h.sourceRevision(), h.chunk(), h.score()))
        .toList();
  }

  private static List<Seen> withoutScores(List<Seen> hits) {
    return hits.stream().map(h -> new Seen(h.source(), h.sourceRevision(), h.chunk(), 0)).toList();
  }

  private long count(String kind) {
    var q = ClusterHttp.MAPPER.createObjectNode();
    q.putObject("query").set("term", ClusterHttp.MAPPER.createObjectNode().put("kind", kind));
    return http.json("POST", "/" + index() + "/_count", q)
        .require("counting")
        .body()
        .path("count")
        .asLong();
  }

  /** The chunks and source records of {@code source} the index holds, of any revision. */
  private long countOf(String source) {
    var q = ClusterHttp.MAPPER.createObjectNode();
    var filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.addObject().putObject("term").put("source", source);
    filter.addObject().putObject("terms").putArray("kind").add("chunk").add("source");
    return http.json("POST", "/" + index() + "/_count", q)
        .require("counting")
        .body()
        .path("count")
        .asLong();
  }

  private String index() {
    return store.withCorpus("churn", ix -> ((ClusterCorpusIndex) ix).indexName());
  }

  /**
   * Waits for the reclaim queued behind the last publication: the count of {@code kind} documents
   * reaches {@code expected}.
   */
  private void awaitCount(String kind, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    long n;
    while ((n = count(kind)) != expected && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(expected, n, kind + " documents in the index");
  }

  /**
   * A corpus that stops being written before a reclaim is due (fewer than EVERY expired revisions)
   * still loses its expired versions: the front's periodic idle check reclaims them, as a
   * publication would have.
   */
  @Test
  void anIdleCorpus_losesItsExpiredVersionsWithoutAnotherWrite() throws Exception {
    store.close();
    // Idle checks every request timeout: a short one, so that the test waits seconds, not minutes.
    OpenSearchSettings quick =
        new OpenSearchSettings(
            settings.urls(),
            TestIndexes.prefix("idle"),
            1,
            0,
            settings.leaseTtl(),
            Duration.ofSeconds(3));
    store =
        new OpenSearchCorpusStore(
            quick, EngineConfig.builder().retainedRevisions(RETAINED).build());
    store.create("churn", CorpusSettings.DEFAULT);
    store.withCorpus(
        "churn",
        ix -> {
          ((ClusterCorpusIndex) ix).reclaimSettle(Duration.ZERO);
          return null;
        });
    long last = RETAINED + 4;
    for (long r = 1; r <= last; r++) {
      writeRevision(r);
    }
    // Four revisions expired: no reclaim is due after a publication yet.
    assertTrue(last - RETAINED < ExpiredVersions.EVERY);
    // No further write: the idle check deletes them (it runs every few seconds here).
    awaitCount("chunk", (long) RETAINED * SOURCES);
    awaitCount("source", (long) RETAINED * SOURCES);
    assertEquals(SOURCES, pinned(last - RETAINED + 1).size());
    assertEquals(
        ErrorCode.REVISION_EXPIRED,
        assertThrows(QuarryException.class, () -> pinned(last - RETAINED)).code());
  }

  /**
   * Purging a source whose versions all expired, but are not reclaimed yet, is DELETED (a new
   * revision) on both stores, as while a retained revision still saw a version: the answer follows
   * the source's history, never retention nor when the cluster's reclaim or the embedded store's
   * merges ran. The cluster then holds no version of it and its history entries keep no hash nor
   * subject. Purging it again, or a source that never existed, is ABSENT on both.
   */
  @Test
  void purgingASourceWhoseVersionsAllExpired_isDeletedOnBothStores_andErasesWhatIsLeft(
      @TempDir Path dir) throws Exception {
    EngineConfig config = EngineConfig.builder().retainedRevisions(RETAINED).build();
    var info = store.create("churn", CorpusSettings.DEFAULT);
    try (CorpusIndex embedded = CorpusIndex.open(dir.resolve("index"), info, config)) {
      store.withCorpus(
          "churn",
          cluster -> {
            for (CorpusIndex ix : List.of(embedded, cluster)) {
              String store = ix.getClass().getSimpleName();
              ix.apply(
                  Mutation.of(
                      SourceOperation.Index.text("gone", null, "lighthouse text", Metadata.EMPTY),
                      "author-of-gone"));
              ix.apply(
                  Mutation.of(new SourceOperation.Delete("gone", null, false), "author-of-gone"));
              ix.apply(
                  Mutation.of(
                      SourceOperation.Index.text("recent", null, "harbour text", Metadata.EMPTY),
                      "t"));
              ix.apply(
                  Mutation.of(
                      SourceOperation.Index.text("other", null, "first words", Metadata.EMPTY),
                      "t"));
              ix.apply(Mutation.of(new SourceOperation.Delete("recent", null, false), "t"));
              ix.apply(
                  Mutation.of(
                      SourceOperation.Index.text("other", null, "second words", Metadata.EMPTY),
                      "t"));
              // Revisions 4 to 6 are retained: 4 sees "recent"'s version (deleted at 5); none sees
              // "gone"'s (deleted at 2), which the cluster still holds (no reclaim ran).
              if (ix == cluster) {
                assertEquals(2, countOf("gone"));
              }
              assertEquals(6, ix.revision());
              assertEquals(4, ix.oldestRetainedRevision());
              var gone = ix.apply(Mutation.of(new SourceOperation.Delete("gone", null, true), "t"));
              assertEquals(Receipt.Status.DELETED, gone.single().status(), store);
              assertEquals(7, gone.revision(), store);
              if (ix == cluster) {
                assertEquals(0, countOf("gone"));
                assertEquals(List.of("index::", "delete::", "purge::t"), historyOf("gone"));
              }
              var again =
                  ix.apply(Mutation.of(new SourceOperation.Delete("gone", null, true), "t"));
              assertEquals(Receipt.Status.ABSENT, again.single().status(), store);
              assertEquals(7, again.revision(), store);
              var never =
                  ix.apply(Mutation.of(new SourceOperation.Delete("never", null, true), "t"));
              assertEquals(Receipt.Status.ABSENT, never.single().status(), store);
              assertEquals(7, never.revision(), store);
              var recent =
                  ix.apply(Mutation.of(new SourceOperation.Delete("recent", null, true), "t"));
              assertEquals(Receipt.Status.DELETED, recent.single().status(), store);
              assertEquals(8, recent.revision(), store);
            }
            return null;
          });
    }
  }

  /**
   * The history documents of {@code source} in the index, oldest first, as "operation:sha:subject".
   */
  private List<String> historyOf(String source) {
    var q = ClusterHttp.MAPPER.createObjectNode();
    q.put("size", 100);
    var filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.addObject().putObject("term").put("source", source);
    filter.addObject().putObject("term").put("kind", "history");
    q.putArray("sort").addObject().put("added", "asc");
    List<String> entries = new ArrayList<>();
    for (var hit :
        http.json("POST", "/" + index() + "/_search", q)
            .require("reading history")
            .body()
            .path("hits")
            .path("hits")) {
      var s = hit.path("_source");
      entries.add(
          s.path("operation").asText()
              + ":"
              + java.util.Objects.toString(CorpusDocs.text(s, "sha"), "")
              + ":"
              + java.util.Objects.toString(CorpusDocs.text(s, "subject"), ""));
    }
    return entries;
  }

  @Test
  void aRevisionJustExpired_keepsItsVersionsWhileASearchPinnedToItMayStillRun() throws Exception {
    store.create("churn", CorpusSettings.DEFAULT);
    long last = ExpiredVersions.EVERY + RETAINED + 1;
    for (long r = 1; r <= last; r++) {
      writeRevision(r);
    }
    // Expired, but only just (the settle time is four request timeouts): nothing goes yet.
    assertEquals(
        0L,
        (long) store.withCorpus("churn", ix -> ((ClusterCorpusIndex) ix).reclaimExpired()).get());
    assertEquals(last * SOURCES, count("chunk"));
    store.withCorpus(
        "churn",
        ix -> {
          ((ClusterCorpusIndex) ix).reclaimSettle(Duration.ZERO);
          return null;
        });
    assertEquals(
        2L * (last - RETAINED) * SOURCES,
        (long) store.withCorpus("churn", ix -> ((ClusterCorpusIndex) ix).reclaimExpired()).get());
    assertEquals((long) RETAINED * SOURCES, count("chunk"));
  }

  @Test
  void replacedVersionsGo_retainedRevisionsAnswerAsBefore_andRolledBackVersionsSurvive()
      throws Exception {
    store.create("churn", CorpusSettings.DEFAULT);
    // Reclaim as soon as a revision expires (no search pinned to it is running).
    store.withCorpus(
        "churn",
        ix -> {
          ((ClusterCorpusIndex) ix).reclaimSettle(Duration.ZERO);
          return null;
        });
    // A reclaim is due once the oldest retained revision moved EVERY revisions: at revision
    // 2 * EVERY + RETAINED - 1 it becomes 2 * EVERY, the second one.
    long last = 2L * ExpiredVersions.EVERY + RETAINED - 1;
    for (long r = 1; r < last; r++) {
      assertEquals(r, writeRevision(r));
    }
    List<Seen> before1 = pinned(last - 2);
    List<Seen> before2 = pinned(last - 1);
    assertEquals(SOURCES, before1.size());
    assertTrue(before1.stream().allMatch(h -> h.sourceRevision() == last - 2));

    assertEquals(last, writeRevision(last));
    // Only the versions retained revisions see are left: three per source (one of them live).
    awaitCount("chunk", (long) RETAINED * SOURCES);
    awaitCount("source", (long) RETAINED * SOURCES);

    // The same hits in the same order (the new revision's documents changed the scores'
    // statistics).
    assertEquals(withoutScores(before1), withoutScores(pinned(last - 2)));
    assertEquals(withoutScores(before2), withoutScores(pinned(last - 1)));
    assertTrue(pinned(last).stream().allMatch(h -> h.sourceRevision() == last));
    QuarryException expired = assertThrows(QuarryException.class, () -> pinned(last - RETAINED));
    assertEquals(ErrorCode.REVISION_EXPIRED, expired.code());
    QuarryException cursor =
        assertThrows(
            QuarryException.class,
            () -> store.withCorpus("churn", ix -> ix.history(0, 100, s -> true)));
    assertEquals(ErrorCode.CURSOR_EXPIRED, cursor.code());
    // History is never reclaimed: every retained revision's entries are there.
    assertEquals(
        RETAINED * SOURCES,
        store
            .withCorpus("churn", ix -> ix.history(last - RETAINED, 100, s -> true))
            .entries()
            .size());

    // One more revision (no reclaim due yet), then a reclaim of its expired versions alone: the
    // retained revisions answer exactly as before it, scores included.
    assertEquals(last + 1, writeRevision(last + 1));
    List<List<Seen>> retained = new ArrayList<>();
    for (long r = last + 2 - RETAINED; r <= last + 1; r++) {
      retained.add(pinned(r));
    }
    assertEquals((long) (RETAINED + 1) * SOURCES, count("chunk"));
    assertEquals(
        2L * SOURCES,
        (long) store.withCorpus("churn", ix -> ((ClusterCorpusIndex) ix).reclaimExpired()).get());
    assertEquals((long) RETAINED * SOURCES, count("chunk"));
    for (long r = last + 2 - RETAINED; r <= last + 1; r++) {
      assertEquals(retained.get((int) (r - (last + 2 - RETAINED))), pinned(r));
    }
    long top = last + 1;

    // A front that died writing revision top + 1 replaced s0's live version; a reclaim meanwhile
    // (another front's, or this one's) must leave that version for the roll-back to revive.
    String index = index();
    CorpusHead head = CorpusHead.read(http, index);
    assertTrue(head.mark(http, index, top + 1, "dead-front/1").done().isPresent());
    var partial = ClusterHttp.MAPPER.createObjectNode();
    partial.putObject("doc").put("superseded", top + 1);
    http.json("POST", "/" + index + "/_update/" + ClusterWriter.chunkId("s0", top, 0), partial)
        .require("test");
    http.json("POST", "/" + index + "/_update/" + ClusterWriter.recordId("s0", top), partial)
        .require("test");
    http.json("POST", "/" + index + "/_refresh", null).require("test");
    long deleted =
        store.withCorpus("churn", ix -> ((ClusterCorpusIndex) ix).reclaimExpired()).get();
    assertEquals(0, deleted);
    assertEquals((long) RETAINED * SOURCES, count("chunk"));

    // The next writer rolls the dead front's revision back: s0's version is live again.
    long next =
        store
            .withCorpus(
                "churn",
                ix ->
                    ix.apply(
                        new Mutation(
                            List.of(
                                SourceOperation.Index.text(
                                    "other", null, "unrelated words", Metadata.EMPTY)),
                            "tester",
                            null,
                            null)))
            .revision();
    assertEquals(top + 1, next);
    List<Hit> hits =
        store.withCorpus(
            "churn",
            ix ->
                ix.search(
                        new SearchRequest(
                            "harbour keeper", SourceScope.ALL, List.of(), 10, null, null, false))
                    .hits());
    assertEquals(SOURCES, hits.size());
    assertTrue(hits.stream().anyMatch(h -> h.source().equals("s0") && h.sourceRevision() == top));
    assertEquals(
        top, store.withCorpus("churn", ix -> ix.readSource("s0")).orElseThrow().sourceRevision());
  }
}
