package dev.quarry.cluster;

import static dev.quarry.cluster.ClusterWrites.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A search pinned to a revision the front has seen published is sent before the corpus's head is
 * read, and is still answered only as the head allows: refused above the published revision or
 * below the retained ones, and never answered from a corpus deleted (or replaced) since. An
 * unpinned search goes out at the latest revision the front has seen, and is sent again at the
 * head's revision when the head has moved on.
 */
class PinnedSearchOnClusterIT {
  private static final CorpusSettings STANDARD =
      new CorpusSettings(
          CorpusSettings.Language.STANDARD,
          CorpusSettings.Chunking.DEFAULT,
          new CorpusSettings.Ranking(1.2, 0.75, 3.0),
          null);

  OpenSearchSettings settings;
  OpenSearchCorpusStore frontA;
  OpenSearchCorpusStore frontB;
  ClusterHttp http;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("pinned");
    EngineConfig config = EngineConfig.builder().retainedRevisions(2).build();
    frontA = new OpenSearchCorpusStore(settings, config);
    frontB = new OpenSearchCorpusStore(settings, config);
    http = new ClusterHttp(settings.urls(), settings.requestTimeout());
  }

  @AfterEach
  void close() {
    TestIndexes.close(frontA, frontB);
  }

  static SearchRequest request(String q, Long revision) {
    return new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false);
  }

  static SearchResult search(OpenSearchCorpusStore front, String corpus, String q, Long revision) {
    return front.withCorpus(corpus, ix -> ix.search(request(q, revision)));
  }

  static List<String> sources(SearchResult r) {
    return r.hits().stream().map(Hit::source).toList();
  }

  /** The searches the corpus index has answered (one shard: one per search). */
  long searches(String index) {
    return http.get("/" + index + "/_stats/search")
        .require("test")
        .body()
        .path("indices")
        .path(index)
        .path("total")
        .path("search")
        .path("query_total")
        .asLong();
  }

  /**
   * Runs a pinned search on front A's kept index with a head check that, before reading the head,
   * waits up to {@code waitMs} for the index to receive a search: whether it did.
   */
  boolean searchArrivedBeforeTheHeadRead(
      String corpus, String q, long revision, long waitMs, List<String> expected) {
    return searchArrivedBeforeTheHeadRead(corpus, q, revision, revision, waitMs, expected);
  }

  /** The same, pinned to {@code pinned} (null: unpinned), answering {@code revision}. */
  private boolean searchArrivedBeforeTheHeadRead(
      String corpus, String q, Long pinned, long revision, long waitMs, List<String> expected) {
    ClusterCorpusIndex ix = frontA.kept(corpus);
    long before = searches(ix.indexName());
    AtomicBoolean arrived = new AtomicBoolean();
    CallHead call =
        new CallHead(
            () -> {
              long deadline = System.nanoTime() + waitMs * 1_000_000;
              while (System.nanoTime() < deadline && !arrived.get()) {
                arrived.set(searches(ix.indexName()) > before);
              }
              return CorpusHead.find(http, ix.indexName());
            });
    SearchResult r = ix.withHead(call, () -> ix.search(request(q, pinned)));
    assertEquals(expected, sources(r));
    assertEquals(revision, r.revision());
    return arrived.get();
  }

  @Test
  void aSearchPinnedToASeenRevision_goesOutBeforeTheHeadRead_andOneNotSeenYetWaitsForIt() {
    frontA.create("docs", CorpusSettings.DEFAULT);
    write(frontA, "docs", "a", "alpha words");
    write(frontA, "docs", "b", "beta words");
    assertTrue(
        searchArrivedBeforeTheHeadRead("docs", "alpha", 1, 5_000, List.of("a")),
        "revision 1 was seen published: its search is sent at once");
    write(frontB, "docs", "c", "gamma words");
    assertFalse(
        searchArrivedBeforeTheHeadRead("docs", "gamma", 3, 500, List.of("c")),
        "revision 3 was published by another front: the head is read first");
    assertTrue(
        searchArrivedBeforeTheHeadRead("docs", "gamma", 3, 5_000, List.of("c")),
        "and now it was seen");
  }

  /**
   * Runs an unpinned search of front A's kept index as {@link #searchArrivedBeforeTheHeadRead}
   * does: whether a search reached the index before the head was read; it answers {@code revision}.
   */
  boolean unpinnedSearchArrivedBeforeTheHeadRead(
      String corpus, String q, long waitMs, List<String> expected, long revision) {
    return searchArrivedBeforeTheHeadRead(corpus, q, null, revision, waitMs, expected);
  }

  @Test
  void anUnpinnedSearch_goesOutBesideTheHeadRead_andIsSentAgainWhenTheHeadMovedOn() {
    frontA.create("docs", CorpusSettings.DEFAULT);
    write(frontA, "docs", "a", "alpha words");
    assertTrue(
        unpinnedSearchArrivedBeforeTheHeadRead("docs", "alpha", 5_000, List.of("a"), 1),
        "revision 1 was published by this front: the search of it is sent at once");
    write(frontB, "docs", "c", "gamma words");
    write(frontB, "docs", "a", "delta words");
    assertTrue(
        unpinnedSearchArrivedBeforeTheHeadRead("docs", "gamma", 5_000, List.of("c"), 3),
        "the search of revision 1 went out early, and is answered at the head's revision 3");
    ClusterCorpusIndex ix = frontA.kept("docs");
    long before = searches(ix.indexName());
    assertEquals(
        List.of(), sources(search(frontA, "docs", "alpha", null)), "revision 3 replaced a");
    assertEquals(List.of("a"), sources(search(frontA, "docs", "delta", null)));
    assertEquals(
        before + 2, searches(ix.indexName()), "once seen, revision 3 is searched once per search");
  }

  @Test
  void aSearchSentEarly_isAnsweredOnlyAsTheHeadAllows() {
    frontA.create("docs", CorpusSettings.DEFAULT);
    for (String s : List.of("a", "b", "c")) {
      write(frontA, "docs", s, "words of " + s);
    }
    assertEquals(List.of("b"), sources(search(frontA, "docs", "b", 2L)));
    QuarryException expired =
        assertThrows(QuarryException.class, () -> search(frontA, "docs", "words", 1L));
    assertEquals(ErrorCode.REVISION_EXPIRED, expired.code(), "two revisions retained: 2 and 3");
    QuarryException above =
        assertThrows(QuarryException.class, () -> search(frontA, "docs", "words", 4L));
    assertEquals(ErrorCode.INVALID_REQUEST, above.code());
  }

  @Test
  void aSearchSentEarlyToACorpusReplacedOnAnotherFront_isAnsweredAsTheNewCorpus() {
    String oldId = frontA.create("docs", CorpusSettings.DEFAULT).corpusId();
    write(frontA, "docs", "old", "the runners were running an ancient race");
    assertEquals(List.of("old"), sources(search(frontA, "docs", "ancient", 1L)));

    frontB.delete("docs");
    QuarryException gone =
        assertThrows(QuarryException.class, () -> search(frontA, "docs", "ancient", 1L));
    assertEquals(ErrorCode.CORPUS_NOT_FOUND, gone.code());

    // Again, after front A kept the old corpus once more, and with the name taken again meanwhile.
    frontA.create("docs", CorpusSettings.DEFAULT);
    write(frontA, "docs", "old", "the runners were running an ancient race");
    assertEquals(List.of("old"), sources(search(frontA, "docs", "ancient", 1L)));
    frontB.delete("docs");
    String newId = frontB.create("docs", STANDARD).corpusId();
    write(frontB, "docs", "new", "the runners were running a fresh race");
    SearchResult r = search(frontA, "docs", "running", 1L);
    assertEquals(newId, r.corpusId());
    assertEquals(List.of("new"), sources(r), "the new corpus's revision 1, with its analyzer");
    assertTrue(
        sources(search(frontA, "docs", "ancient", 1L)).isEmpty(), "never the old corpus's data");
    assertTrue(!oldId.equals(newId));
  }
}
