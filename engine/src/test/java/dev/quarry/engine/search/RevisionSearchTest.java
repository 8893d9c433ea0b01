package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Searches at a revision see that revision's chunks, scored with that revision's statistics. */
@ExtendWith(TestSeed.class)
class RevisionSearchTest {
  @TempDir Path dir;

  private static SearchRequest at(String query, Long revision) {
    return new SearchRequest(query, SourceScope.ALL, List.of(), 100, revision, null, true);
  }

  private static SearchResult search(
      TestCorpus corpus, RevisionSearcher searcher, SearchRequest request) throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      return searcher.search(snapshot, request);
    } finally {
      snapshot.release();
    }
  }

  @Test
  void pinnedSearch_seesExactlyWhatWasVisibleAtThatRevision() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      long r1 =
          corpus.index(new Source("a", "river otters swim"), new Source("b", "river banks erode"));
      long r2 = corpus.index(new Source("a", "river dolphins swim", "second river chunk"));
      long r3 = corpus.delete("b");
      long r4 = corpus.index(new Source("c", "a river delta"));
      RevisionSearcher searcher = corpus.newSearcher();

      assertEquals(List.of("a#0", "b#0"), sorted(search(corpus, searcher, at("river", r1))));
      assertEquals(List.of("a#0", "a#1", "b#0"), sorted(search(corpus, searcher, at("river", r2))));
      assertEquals(List.of("a#0", "a#1"), sorted(search(corpus, searcher, at("river", r3))));
      assertEquals(List.of("a#0", "a#1", "c#0"), sorted(search(corpus, searcher, at("river", r4))));
      assertEquals(
          List.of("a#0", "a#1", "c#0"), sorted(search(corpus, searcher, at("river", null))));
      SearchResult atR1 = search(corpus, searcher, at("otters", r1));
      assertEquals(1, atR1.hits().size());
      assertEquals("river otters swim", atR1.hits().get(0).text());
      assertEquals(r1, atR1.revision());
      assertEquals(0, search(corpus, searcher, at("otters", r2)).hits().size());
    }
  }

  private static List<String> scored(SearchResult result) {
    return result.hits().stream().map(h -> h.source() + "#" + h.chunk() + "=" + h.score()).toList();
  }

  private static List<String> sorted(SearchResult result) {
    return Results.sourcesAndChunks(result).stream().sorted().toList();
  }

  @Test
  void pinnedSearch_scoresAsWhenThatRevisionWasLatest(Random random) throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir, random)) {
      List<String> words = List.of("apple", "banana", "cherry", "date", "elder", "fig", "grape");
      Map<Long, String> renderedWhenLatest = new HashMap<>();
      RevisionSearcher searcher = corpus.newSearcher();
      for (int round = 0; round < 12; round++) {
        List<Source> batch = new ArrayList<>();
        for (String id : distinctIds(random, "s", 8, 3)) {
          batch.add(
              new Source(id, sentence(random, words, 6), sentence(random, words, 9))
                  .withTitle(sentence(random, words, 2)));
        }
        corpus.index(batch.toArray(Source[]::new));
        if (round % 4 == 3) {
          corpus.delete("s" + random.nextInt(8));
        }
        renderedWhenLatest.put(
            corpus.revision(),
            Results.render(search(corpus, searcher, at("apple cherry fig", null))));
      }
      corpus.forceMerge(1);
      RevisionSearcher fresh = corpus.newSearcher();
      for (Map.Entry<Long, String> e : renderedWhenLatest.entrySet()) {
        assertEquals(
            e.getValue(),
            Results.render(search(corpus, fresh, at("apple cherry fig", e.getKey()))),
            "revision " + e.getKey());
      }
    }
  }

  @Test
  void pinnedSearch_scoresEqualAFreshIndexOfTheRevisionsChunks() throws IOException {
    // Titles count (BM25F): the revision's combined statistics must leave out the superseded and
    // later titles too.
    Source[] first = {
      new Source("a", "solar panels convert light", "panels on roofs").withTitle("Solar panels"),
      new Source("b", "wind turbines and solar farms").withTitle("Wind"),
      new Source("c", "solar solar solar heat")
    };
    long pinned;
    SearchResult pinnedResult;
    try (TestCorpus corpus = new TestCorpus(dir.resolve("history"))) {
      corpus.index(
          new Source("a", "old text about solar power").withTitle("Old solar panels panels"),
          new Source("z", "solar everywhere solar").withTitle("Panels"));
      corpus.index(first);
      corpus.delete("z");
      pinned = corpus.revision();
      corpus.index(
          new Source("b", "nothing relevant").withTitle("Solar panels, solar panels"),
          new Source("d", "solar solar panels panels").withTitle("Solar"));
      pinnedResult = search(corpus, corpus.newSearcher(), at("solar panels", pinned));
    }
    try (TestCorpus clean = new TestCorpus(dir.resolve("clean"))) {
      clean.index(first);
      SearchResult cleanResult = search(clean, clean.newSearcher(), at("solar panels", null));
      assertEquals(Results.sourcesAndChunks(cleanResult), Results.sourcesAndChunks(pinnedResult));
      for (int i = 0; i < cleanResult.hits().size(); i++) {
        assertEquals(cleanResult.hits().get(i).score(), pinnedResult.hits().get(i).score());
      }
      assertTrue(pinnedResult.hits().size() == 4, "all four chunks mention solar or panels");
    }
  }

  @Test
  void termOnlyInASupersededTitle_scoresAsInAFreshIndexOfTheRevision() throws IOException {
    Source renamed = new Source("a", "striped horses").withTitle("Horses");
    Source zebra = new Source("b", "zebra stripes and more zebra facts");
    SearchResult withHistory;
    try (TestCorpus corpus = new TestCorpus(dir.resolve("history"))) {
      corpus.index(new Source("a", "striped horses").withTitle("Zebra zebra"));
      corpus.index(renamed, zebra);
      withHistory = search(corpus, corpus.newSearcher(), at("zebra horses", null));
    }
    try (TestCorpus clean = new TestCorpus(dir.resolve("clean"))) {
      clean.index(renamed, zebra);
      SearchResult fresh = search(clean, clean.newSearcher(), at("zebra horses", null));
      assertEquals(scored(fresh), scored(withHistory));
      assertEquals(List.of("a#0", "b#0"), sorted(withHistory));
    }
  }

  @Test
  void search_afterForceMergeAndLaterRevisions_returnsIdenticalResults(Random random)
      throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir, random)) {
      List<String> words =
          List.of("north", "south", "east", "west", "wind", "rain", "snow", "storm");
      for (int round = 0; round < 10; round++) {
        List<String> ids = distinctIds(random, "doc", 15, 2);
        corpus.index(
            new Source(ids.get(0), sentence(random, words, 8), sentence(random, words, 5)),
            new Source(ids.get(1), sentence(random, words, 12)));
      }
      long pinned = corpus.revision();
      RevisionSearcher searcher = corpus.newSearcher();
      SearchRequest request =
          new SearchRequest("north wind storm", SourceScope.ALL, List.of(), 7, pinned, null, true);
      String before = Results.render(search(corpus, searcher, request));

      corpus.forceMerge(1);
      assertEquals(before, Results.render(search(corpus, searcher, request)));

      for (int round = 0; round < 5; round++) {
        corpus.index(new Source("doc" + random.nextInt(15), sentence(random, words, 8)));
      }
      assertEquals(before, Results.render(search(corpus, searcher, request)));
      corpus.forceMerge(2);
      assertEquals(before, Results.render(search(corpus, corpus.newSearcher(), request)));
    }
  }

  @Test
  void search_aboveLatestRevision_isInvalidRequest() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "text"));
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () -> search(corpus, corpus.newSearcher(), at("text", corpus.revision() + 1)));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
      assertEquals("revision", e.field());
    }
  }

  @Test
  void pinnedSearch_beforeOldestRetained_isRevisionExpired() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("a", "text"));
      corpus.index(new Source("a", "more text"));
      corpus.index(new Source("a", "even more text"));
      IndexSnapshot snapshot = corpus.snapshot(2);
      try {
        RevisionSearcher searcher = corpus.newSearcher();
        QuarryException e =
            assertThrows(QuarryException.class, () -> searcher.search(snapshot, at("text", 1L)));
        assertEquals(ErrorCode.REVISION_EXPIRED, e.code());
        assertEquals("more text", searcher.search(snapshot, at("text", 2L)).hits().get(0).text());
      } finally {
        snapshot.release();
      }
    }
  }

  @Test
  void purgedSource_isGoneFromPinnedSearches() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      long r1 =
          corpus.index(
              new Source("secret", "classified river data"), new Source("open", "river data"));
      corpus.purge("secret");
      List<Hit> hits = search(corpus, corpus.newSearcher(), at("river", r1)).hits();
      assertEquals(List.of("open"), hits.stream().map(Hit::source).toList());
    }
  }

  /**
   * {@code count} distinct ids drawn from {@code prefix + 0 .. prefix + (pool - 1)}: one revision
   * names a source once.
   */
  static List<String> distinctIds(Random random, String prefix, int pool, int count) {
    List<String> ids = new ArrayList<>(pool);
    for (int i = 0; i < pool; i++) {
      ids.add(prefix + i);
    }
    Collections.shuffle(ids, random);
    return ids.subList(0, count);
  }

  static String sentence(Random random, List<String> words, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      sb.append(i == 0 ? "" : " ").append(words.get(random.nextInt(words.size())));
    }
    return sb.toString();
  }
}
