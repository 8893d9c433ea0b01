package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results are ordered by exact score, ties by source then chunk, with per-source caps. */
class SearchRankingTest {
  @TempDir Path dir;

  private static SearchResult search(TestCorpus corpus, SearchRequest request) throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      return corpus.newSearcher().search(snapshot, request);
    } finally {
      snapshot.release();
    }
  }

  private static SearchRequest top(String query, int k, Integer maxPerSource) {
    return new SearchRequest(query, SourceScope.ALL, List.of(), k, null, maxPerSource, false);
  }

  @Test
  void equalScores_areOrderedBySourceThenChunk_whateverTheDocOrder() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      // Written in reverse name order over several segments, so docIDs run against the expected
      // order, and with far more tied chunks than the ranker's first candidate set.
      for (int batch = 7; batch >= 0; batch--) {
        List<Source> sources = new ArrayList<>();
        for (int i = batch * 25 + 24; i >= batch * 25; i--) {
          sources.add(
              new Source(String.format("src-%03d", i), "tied words here", "tied words here"));
        }
        corpus.index(sources.toArray(Source[]::new));
      }
      List<String> expected =
          List.of("src-000#0", "src-000#1", "src-001#0", "src-001#1", "src-002#0");
      assertEquals(expected, Results.sourcesAndChunks(search(corpus, top("tied", 5, null))));
      corpus.forceMerge(1);
      assertEquals(expected, Results.sourcesAndChunks(search(corpus, top("tied", 5, null))));
    }
  }

  @Test
  void sourceOrder_isCodePointOrder() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(
          new Source("\uD83D\uDE00", "same"),
          new Source("\uFB01", "same"),
          new Source("b", "same"));
      assertEquals(
          List.of("b#0", "\uFB01#0", "\uD83D\uDE00#0"),
          Results.sourcesAndChunks(search(corpus, top("same", 10, null))));
    }
  }

  @Test
  void maxChunksPerSource_keepsEachSourcesBestAndStillFillsTopK() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      List<String> heavy =
          IntStream.range(0, 60).mapToObj(i -> "lake lake lake chunk " + i).toList();
      corpus.index(new Source("big", null, heavy, Map.of(), null));
      for (int i = 0; i < 8; i++) {
        corpus.index(new Source("small-" + i, "lake shore number " + i, "nothing"));
      }
      SearchResult result = search(corpus, top("lake", 5, 2));
      List<Hit> hits = result.hits();
      assertEquals(5, hits.size());
      Map<String, Integer> perSource = new HashMap<>();
      hits.forEach(h -> perSource.merge(h.source(), 1, Integer::sum));
      assertEquals(2, perSource.get("big"));
      assertTrue(perSource.values().stream().allMatch(n -> n <= 2));
      assertEquals("big", hits.get(0).source());
      assertEquals("big", hits.get(1).source());
      List<Hit> uncapped = search(corpus, top("lake", 5, null)).hits();
      assertTrue(
          uncapped.stream().allMatch(h -> h.source().equals("big")),
          "without a cap 'big' fills the top");
    }
  }

  @Test
  void titleMatches_count_andTitleWeightZeroIgnoresThem() throws IOException {
    CorpusSettings weighted =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            CorpusSettings.Chunking.DEFAULT,
            new CorpusSettings.Ranking(0.9, 0.4, 2.0));
    CorpusSettings untitled =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            CorpusSettings.Chunking.DEFAULT,
            new CorpusSettings.Ranking(0.9, 0.4, 0.0));
    Source titled = new Source("titled", "a note on holidays").withTitle("Vacation policy");
    Source plain =
        new Source("plain", "vacation is mentioned once in this longer note about other things");
    Source[] others =
        IntStream.range(0, 5)
            .mapToObj(i -> new Source("other" + i, "unrelated text " + i).withTitle("Other topic"))
            .toArray(Source[]::new);
    try (TestCorpus corpus = new TestCorpus(dir.resolve("w"), weighted)) {
      corpus.index(titled, plain);
      corpus.index(others);
      assertEquals(
          List.of("titled#0", "plain#0"),
          Results.sourcesAndChunks(search(corpus, top("vacation", 10, null))));
    }
    try (TestCorpus corpus = new TestCorpus(dir.resolve("u"), untitled)) {
      corpus.index(titled, plain);
      corpus.index(others);
      assertEquals(
          List.of("plain#0"), Results.sourcesAndChunks(search(corpus, top("vacation", 10, null))));
    }
  }

  @Test
  void scores_equalLuceneCombinedFieldQuery_onAnIndexWithoutHistory() throws IOException {
    // Default settings: BM25F with the title weighing 2, k1 0.9, b 0.4.
    assertScoresEqualLucene(CorpusSettings.DEFAULT, Map.of("text", 1f, "title", 2f), 0.9f);
  }

  @Test
  void scores_withTitleWeightBelowOne_equalLuceneWithScaledWeightsAndK1() throws IOException {
    // Lucene's weights must be at least 1: title 0.5 is text 2, title 1, with k1 doubled.
    assertScoresEqualLucene(ranked(0.5), Map.of("text", 2f, "title", 1f), 1.8f);
  }

  @Test
  void scores_withTitleWeightZero_equalLuceneBm25OverTheTextAlone() throws IOException {
    assertScoresEqualLucene(ranked(0), Map.of("text", 1f), 0.9f);
  }

  private static CorpusSettings ranked(double titleWeight) {
    return new CorpusSettings(
        CorpusSettings.Language.ENGLISH,
        CorpusSettings.Chunking.DEFAULT,
        new CorpusSettings.Ranking(0.9, 0.4, titleWeight));
  }

  /**
   * Quarry's scores on a corpus without history equal Lucene's CombinedFieldQuery (one per term,
   * summed) with {@code weights} and {@code k1}. Texts and titles stay under 24 words, the lengths
   * norms encode exactly, so Lucene's summed field lengths equal the revision's (which sum decoded
   * norms) and the average lengths agree.
   */
  private void assertScoresEqualLucene(
      CorpusSettings settings, Map<String, Float> weights, float k1) throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir, settings)) {
      List<Source> sources = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String text = "graph " + "node ".repeat(i % 4) + "edge ".repeat(i % 3) + "filler" + i;
        String title =
            switch (i % 5) {
              case 0 -> "graph theory";
              case 1 -> "edges and nodes of a graph, and more edges";
              case 2 -> "unrelated heading";
              default -> null;
            };
        sources.add(new Source("s" + i, text).withTitle(title));
      }
      sources.add(new Source("title-only", "nothing here").withTitle("node"));
      corpus.index(sources.toArray(Source[]::new));
      Map<String, Float> ours = new HashMap<>();
      search(corpus, top("graph node edge node", 100, null))
          .hits()
          .forEach(h -> ours.put(h.source(), h.score()));

      IndexSnapshot snapshot = corpus.snapshot();
      try {
        IndexSearcher raw = new IndexSearcher(snapshot.latest());
        raw.setSimilarity(new BM25Similarity(k1, 0.4f));
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        for (String word : List.of("edg", "graph", "node")) {
          CombinedFieldQuery.Builder combined = new CombinedFieldQuery.Builder();
          weights.forEach(combined::addField);
          Query term = combined.addTerm(new BytesRef(word)).build();
          query.add(
              word.equals("node") ? new BoostQuery(term, 2f) : term, BooleanClause.Occur.SHOULD);
        }
        ScoreDoc[] hits = raw.search(query.build(), 100).scoreDocs;
        assertEquals(ours.size(), hits.length);
        for (ScoreDoc hit : hits) {
          String source = raw.storedFields().document(hit.doc).get("source");
          assertEquals(hit.score, ours.get(source), hit.score * 1e-5f, source);
        }
      } finally {
        snapshot.release();
      }
    }
  }
}
