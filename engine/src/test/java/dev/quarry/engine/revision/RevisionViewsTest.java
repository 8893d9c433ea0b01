package dev.quarry.engine.revision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CacheCounter;
import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A revision view shows the chunks of its revision, with that revision's statistics. */
class RevisionViewsTest {
  @TempDir Path dir;

  private static void withView(
      TestCorpus corpus, RevisionViews views, long revision, Consumer<RevisionView> check)
      throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      check.accept(views.at(snapshot, revision));
    } finally {
      snapshot.release();
    }
  }

  private static TermStatistics stats(RevisionView view, String word) {
    try {
      return view.statistics(SourceScope.ALL).termStatistics(new Term(Fields.TEXT, word));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static CollectionStatistics fieldStats(RevisionView view) {
    try {
      return view.statistics(SourceScope.ALL).collectionStatistics(Fields.TEXT);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Statistics of some sources count the visible chunks of those sources only (ids and prefixes),
   * in any segment; every source's are the view's own, the same object, and one scope written in
   * another order or with an entry twice shares one.
   */
  @Test
  void statisticsOfSomeSources_countOnlyTheirVisibleChunks() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(
          new Source("pub/a", "xenon xenon yak"), new Source("sec/b", "xenon yak yak yak"));
      long r2 = corpus.index(new Source("pub/c", "xenon"), new Source("sec/d", "xenon"));
      long r3 = corpus.delete("pub/c");
      RevisionViews views = new RevisionViews();
      withView(
          corpus,
          views,
          r2,
          view -> {
            try {
              RevisionStatistics pub = view.statistics(new SourceScope(List.of("pub/*")));
              assertEquals(2, pub.termStatistics(new Term(Fields.TEXT, "xenon")).docFreq());
              assertEquals(3, pub.termStatistics(new Term(Fields.TEXT, "xenon")).totalTermFreq());
              assertEquals(1, pub.termStatistics(new Term(Fields.TEXT, "yak")).docFreq());
              assertEquals(2, pub.collectionStatistics(Fields.TEXT).docCount());
              assertEquals(4, pub.collectionStatistics(Fields.TEXT).sumTotalTermFreq());
              assertEquals(2, pub.collectionStatistics(Fields.TEXT).maxDoc());
              RevisionStatistics some = view.statistics(new SourceScope(List.of("sec/d", "pub/a")));
              assertSame(
                  some, view.statistics(new SourceScope(List.of("pub/a", "sec/d", "pub/a"))));
              assertEquals(2, some.termStatistics(new Term(Fields.TEXT, "xenon")).docFreq());
              assertNull(
                  view.statistics(new SourceScope(List.of("none/*")))
                      .collectionStatistics(Fields.TEXT));
              assertSame(
                  view.statistics(SourceScope.ALL), view.statistics(new SourceScope(List.of("*"))));
              assertEquals(
                  4,
                  view.statistics(SourceScope.ALL)
                      .termStatistics(new Term(Fields.TEXT, "xenon"))
                      .docFreq());
            } catch (IOException e) {
              throw new AssertionError(e);
            }
          });
      corpus.forceMerge(1);
      withView(
          corpus,
          views,
          r3,
          view -> {
            try {
              RevisionStatistics pub = view.statistics(new SourceScope(List.of("pub/*")));
              assertEquals(1, pub.termStatistics(new Term(Fields.TEXT, "xenon")).docFreq());
              assertEquals(1, pub.collectionStatistics(Fields.TEXT).docCount());
            } catch (IOException e) {
              throw new AssertionError(e);
            }
          });
    }
  }

  @Test
  void statistics_countOnlyChunksVisibleAtTheRevision() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      long r1 = corpus.index(new Source("a", "xenon xenon yak"), new Source("b", "xenon"));
      long r2 = corpus.index(new Source("a", "yak"));
      long r3 = corpus.delete("b");
      RevisionViews views = new RevisionViews();
      withView(
          corpus,
          views,
          r1,
          view -> {
            assertEquals(2, stats(view, "xenon").docFreq());
            assertEquals(3, stats(view, "xenon").totalTermFreq());
            assertEquals(2, fieldStats(view).docCount());
            assertEquals(4, fieldStats(view).sumTotalTermFreq());
            assertEquals(2, view.reader().numDocs(), "only the two chunks are live");
          });
      withView(
          corpus,
          views,
          r2,
          view -> {
            assertEquals(1, stats(view, "xenon").docFreq());
            assertEquals(1, stats(view, "xenon").totalTermFreq());
            assertEquals(2, fieldStats(view).sumTotalTermFreq());
          });
      corpus.forceMerge(1);
      withView(
          corpus,
          views,
          r3,
          view -> {
            assertNull(stats(view, "xenon"));
            assertEquals(1, stats(view, "yak").docFreq());
            assertEquals(1, fieldStats(view).docCount());
          });
      withView(corpus, views, r1, view -> assertEquals(3, stats(view, "xenon").totalTermFreq()));
    }
  }

  @Test
  void statistics_ofAnEmptyRevision_areAbsent() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "words"));
      withView(
          corpus,
          new RevisionViews(),
          0,
          view -> {
            assertNull(fieldStats(view));
            assertNull(stats(view, "word"));
            assertEquals(0, view.reader().numDocs());
          });
    }
  }

  @Test
  void unchangedSegment_sharesItsVisibilityAsTheLatestRevisionAdvances() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "first segment"));
      RevisionViews views = new RevisionViews();
      LeafVisibility[] first = new LeafVisibility[1];
      withView(corpus, views, corpus.revision(), view -> first[0] = leaf(view, 0).visibility());
      corpus.index(new Source("b", "second segment"));
      withView(
          corpus,
          views,
          corpus.revision(),
          view -> {
            assertEquals(2, view.reader().leaves().size());
            assertSame(first[0], leaf(view, 0).visibility());
          });
    }
  }

  @Test
  void termCounts_areKeptOnlyForSegmentsThatHideChunks_andAreTheSameEitherWay() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      long r1 = corpus.index(new Source("a", "xenon xenon yak"), new Source("b", "xenon"));
      corpus.index(new Source("c", "xenon zebra"));
      long r3 = corpus.index(new Source("a", "yak"));
      RevisionViews views = new RevisionViews();
      withView(
          corpus,
          views,
          r3,
          view -> {
            assertEquals(
                2,
                stats(view, "xenon").docFreq(),
                "b's and c's chunks; a's first version is superseded");
            assertEquals(2, stats(view, "xenon").totalTermFreq());
            assertEquals(1, stats(view, "zebra").docFreq());
            LeafVisibility first = leaf(view, 0).visibility();
            LeafVisibility second = leaf(view, 1).visibility();
            assertTrue(
                !first.complete() && second.complete(),
                "the first segment hides a's first version");
            assertEquals(
                2, first.cachedTermCounts(), "a walk over the postings is kept, xenon and zebra");
            assertEquals(0, second.cachedTermCounts(), "Lucene's own counts are not copied");
          });
      withView(
          corpus,
          views,
          r1,
          view -> {
            assertEquals(2, stats(view, "xenon").docFreq());
            assertEquals(3, stats(view, "xenon").totalTermFreq());
            assertNull(stats(view, "zebra"));
          });
    }
  }

  @Test
  void caches_areDroppedWhenTheirReadersClose() throws IOException {
    RevisionViews views = new RevisionViews();
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "words"));
      corpus.index(new Source("b", "words"));
      IndexSnapshot snapshot = corpus.snapshot();
      assertSame(
          views.at(snapshot, 1),
          views.at(snapshot, 1),
          "a view is reused while its snapshot lives");
      views.at(snapshot, 2);
      assertEquals(2, views.cachedViews());
      assertTrue(views.cachedSegments() >= 2);
      snapshot.release();
      assertEquals(0, views.cachedViews());
    }
    assertEquals(0, views.cachedSegments());
  }

  @Test
  void counters_countHitsMissesEvictionsAndHeldEntries_backToNoneWhenTheReadersClose()
      throws IOException {
    CacheCounter viewCounter = new CacheCounter();
    CacheCounter termCounter = new CacheCounter();
    CacheCounter visibilityCounter = new CacheCounter();
    RevisionViews views = new RevisionViews(2, viewCounter, termCounter, visibilityCounter);
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "words"));
      corpus.index(new Source("b", "words"));
      corpus.index(new Source("c", "words"));
      IndexSnapshot snapshot = corpus.snapshot();
      stats(views.at(snapshot, 1), "words");
      stats(views.at(snapshot, 1), "words");
      stats(views.at(snapshot, 2), "words");
      assertEquals(
          new CacheCounts(1, 2, 0, 2), termCounter.counts(), "one term in each of two views");
      assertEquals(new CacheCounts(1, 2, 0, 2), viewCounter.counts());
      views.at(
          snapshot, 3); // a third view: the bound of two pushes the least recently used one out
      assertEquals(new CacheCounts(1, 3, 1, 2), viewCounter.counts());
      assertEquals(
          1, termCounter.counts().size(), "the evicted view's term statistics are held no more");
      CacheCounts visibilities = visibilityCounter.counts();
      assertTrue(visibilities.misses() >= 3 && visibilities.size() >= 3, visibilities::toString);
      assertEquals(
          visibilities.misses() - visibilities.evictions(),
          visibilities.size(),
          visibilities::toString);
      snapshot.release();
      assertEquals(0, viewCounter.counts().size(), "the views of a closed reader are held no more");
      assertEquals(0, termCounter.counts().size(), "nor their term statistics");
    }
    assertEquals(0, visibilityCounter.counts().size(), "nor the visibilities of closed segments");
    assertEquals(new CacheCounts(1, 3, 1, 0), viewCounter.counts(), "the counts stay");
  }

  /**
   * More grants in rotation than a view and a segment keep: each scope's statistics stay exact, a
   * scope's statistics ask each segment for its chunks once (new terms do not ask again), and the
   * segments' counter counts the scopes they keep, their evictions, and none once the readers
   * close.
   */
  @Test
  void moreScopesThanKept_stayExact_askEachSegmentOnce_andAreCounted() throws IOException {
    CacheCounter termCounter = new CacheCounter();
    CacheCounter visibilityCounter = new CacheCounter();
    RevisionViews views =
        new RevisionViews(
            RevisionViews.DEFAULT_MAX_VIEWS, new CacheCounter(), termCounter, visibilityCounter);
    int scopes = RevisionView.MAX_CACHED_SCOPES + 4;
    try (TestCorpus corpus = new TestCorpus(dir)) {
      // Two segments: the odd sources visible in the first, the even ones (written again) in the
      // second, so every scope of two neighbours counts one chunk of each.
      Source[] sources = new Source[scopes + 1];
      for (int i = 0; i <= scopes; i++) {
        sources[i] =
            new Source("s" + i, "xenon ".repeat(i % 3 + 1) + "yak" + (i % 2 == 1 ? " odd" : ""));
      }
      corpus.index(sources);
      corpus.index(
          IntStream.rangeClosed(0, scopes)
              .filter(i -> i % 2 == 0)
              .mapToObj(i -> new Source("s" + i, "xenon ".repeat(i % 3 + 1) + "yak"))
              .toArray(Source[]::new));
      IndexSnapshot snapshot = corpus.snapshot();
      try {
        RevisionView view = views.at(snapshot, corpus.revision());
        for (int pass = 0; pass < 3; pass++) {
          for (int i = 0; i < scopes; i++) {
            RevisionStatistics scoped =
                view.statistics(new SourceScope(List.of("s" + (i + 1), "s" + i)));
            CacheCounts before = visibilityCounter.counts();
            assertEquals(
                2, scoped.termStatistics(new Term(Fields.TEXT, "xenon")).docFreq(), "scope " + i);
            assertEquals(
                i % 3 + 1 + (i + 1) % 3 + 1,
                scoped.termStatistics(new Term(Fields.TEXT, "xenon")).totalTermFreq(),
                "scope " + i);
            assertEquals(
                1, scoped.termStatistics(new Term(Fields.TEXT, "odd")).docFreq(), "scope " + i);
            assertEquals(2, scoped.collectionStatistics(Fields.TEXT).docCount(), "scope " + i);
            CacheCounts after = visibilityCounter.counts();
            // The view keeps fewer scopes than rotate, so each use builds the scope's statistics
            // again.
            assertEquals(
                2,
                after.hits() + after.misses() - before.hits() - before.misses(),
                "each segment asked once for the scope's chunks: " + before + " then " + after);
            assertEquals(after.misses() - after.evictions(), after.size(), after::toString);
          }
        }
        CacheCounts counts = visibilityCounter.counts();
        assertTrue(
            counts.evictions() >= 2 * (scopes - RevisionView.MAX_CACHED_SCOPES), counts::toString);
        assertEquals(2, view.reader().leaves().size());
        assertEquals(
            2 + 2 * RevisionView.MAX_CACHED_SCOPES,
            counts.size(),
            "each segment's visibility and the scopes it keeps: " + counts);
      } finally {
        snapshot.release();
      }
      assertEquals(
          0, termCounter.counts().size(), "the views of a closed reader hold no term statistics");
    }
    assertEquals(0, visibilityCounter.counts().size(), "nor the segments their scopes");
  }

  private static VisibleLeafReader leaf(RevisionView view, int ord) {
    return (VisibleLeafReader) view.reader().leaves().get(ord).reader();
  }
}
