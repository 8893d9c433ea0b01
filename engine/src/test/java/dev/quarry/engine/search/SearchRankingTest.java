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
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
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
          sources.add(new Source(String.format("src-%03d", i), "tied words here", "tied words here"));
        }
        corpus.index(sources.toArray(Source[]::new));
      }
      List<String> expected = List.of("src-000#0", "src-000#1", "src-001#0", "src-001#1", "src-002#0");
      assertEquals(expected, Results.sourcesAndChunks(search(corpus, top("tied", 5, null))));
      corpus.forceMerge(1);
      assertEquals(expected, Results.sourcesAndChunks(search(corpus, top("tied", 5, null))));
    }
  }

  @Test
  void sourceOrder_isCodePointOrder() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("\uD83D\uDE00", "same"), new Source("\uFB01", "same"), new Source("b", "same"));
      assertEquals(List.of("b#0", "\uFB01#0", "\uD83D\uDE00#0"),
          Results.sourcesAndChunks(search(corpus, top("same", 10, null))));
    }
  }

  @Test
  void maxChunksPerSource_keepsEachSourcesBestAndStillFillsTopK() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      List<String> heavy = IntStream.range(0, 60).mapToObj(i -> "lake lake lake chunk " + i).toList();
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
      assertTrue(uncapped.stream().allMatch(h -> h.source().equals("big")), "without a cap 'big' fills the top");
    }
  }

  @Test
  void titleMatches_count_andTitleWeightZeroIgnoresThem() throws IOException {
    CorpusSettings weighted = new CorpusSettings(CorpusSettings.Language.ENGLISH, CorpusSettings.Chunking.DEFAULT,
        new CorpusSettings.Ranking(0.9, 0.4, 2.0));
    CorpusSettings untitled = new CorpusSettings(CorpusSettings.Language.ENGLISH, CorpusSettings.Chunking.DEFAULT,
        new CorpusSettings.Ranking(0.9, 0.4, 0.0));
    Source titled = new Source("titled", "a note on holidays").withTitle("Vacation policy");
    Source plain = new Source("plain", "vacation is mentioned once in this longer note about other things");
    Source[] others = IntStream.range(0, 5)
        .mapToObj(i -> new Source("other" + i, "unrelated text " + i).withTitle("Other topic")).toArray(Source[]::new);
    try (TestCorpus corpus = new TestCorpus(dir.resolve("w"), weighted)) {
      corpus.index(titled, plain);
      corpus.index(others);
      assertEquals(List.of("titled#0", "plain#0"), Results.sourcesAndChunks(search(corpus, top("vacation", 10, null))));
    }
    try (TestCorpus corpus = new TestCorpus(dir.resolve("u"), untitled)) {
      corpus.index(titled, plain);
      corpus.index(others);
      assertEquals(List.of("plain#0"), Results.sourcesAndChunks(search(corpus, top("vacation", 10, null))));
    }
  }

  @Test
  void scores_matchRawLuceneBm25_onAnIndexWithoutHistory() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      List<Source> sources = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String text = "graph " + "node ".repeat(i % 4) + "edge ".repeat(i % 3) + "filler" + i;
        sources.add(new Source("s" + i, text).withTitle(i % 5 == 0 ? "graph theory" : null));
      }
      corpus.index(sources.toArray(Source[]::new));
      Map<String, Float> ours = new HashMap<>();
      search(corpus, top("graph node edge", 100, null)).hits().forEach(h -> ours.put(h.source(), h.score()));

      IndexSnapshot snapshot = corpus.snapshot();
      try {
        DirectoryReader reader = snapshot.latest();
        IndexSearcher raw = new IndexSearcher(reader);
        raw.setSimilarity(new BM25Similarity(0.9f, 0.4f));
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        for (String word : List.of("edg", "graph", "node")) {
          query.add(new TermQuery(new Term("text", word)), BooleanClause.Occur.SHOULD);
          query.add(new TermQuery(new Term("title", word)), BooleanClause.Occur.SHOULD);
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
