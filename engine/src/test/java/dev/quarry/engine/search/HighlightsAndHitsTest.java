package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Hit;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hits carry their stored provenance, and highlights mark every match of a query term. */
class HighlightsAndHitsTest {
  @TempDir Path dir;

  private static SearchResult search(TestCorpus corpus, String query, boolean highlight)
      throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      return corpus
          .newSearcher()
          .search(
              snapshot,
              new SearchRequest(query, SourceScope.ALL, List.of(), 10, null, null, highlight));
    } finally {
      snapshot.release();
    }
  }

  private static List<String> marked(Hit hit) {
    return hit.highlights().stream().map(r -> hit.text().substring(r[0], r[1])).toList();
  }

  @Test
  void highlights_markEveryOccurrenceOfEveryTerm_inOrder() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      String text =
          "Running shoes: the runner runs. Shoe care for runners who run, and more running!";
      corpus.index(new Source("a", text));
      Hit hit = search(corpus, "running shoe", true).hits().get(0);
      // English stemming: running, runs and run are one term; runner and runners another.
      assertEquals(List.of("Running", "shoes", "runs", "Shoe", "run", "running"), marked(hit));
      int previousEnd = -1;
      for (int[] range : hit.highlights()) {
        assertTrue(range[0] >= previousEnd && range[0] < range[1], "ordered, non-overlapping");
        previousEnd = range[1];
      }
      List<String> stems =
          marked(search(corpus, "runs", true).hits().get(0)).stream()
              .map(w -> w.toLowerCase(Locale.ROOT))
              .toList();
      assertEquals(List.of("running", "runs", "run", "running"), stems);
      assertEquals(
          List.of("runner", "runners"), marked(search(corpus, "runner", true).hits().get(0)));
    }
  }

  @Test
  void highlights_ofCjkBigrams_areMergedWhereTheyOverlap() throws IOException {
    CorpusSettings cjk =
        new CorpusSettings(
            CorpusSettings.Language.CJK,
            CorpusSettings.Chunking.DEFAULT,
            CorpusSettings.Ranking.DEFAULT);
    try (TestCorpus corpus = new TestCorpus(dir, cjk)) {
      corpus.index(new Source("a", "私は日本語を話します。日本語"));
      Hit hit = search(corpus, "日本語", true).hits().get(0);
      assertEquals(List.of("日本語", "日本語"), marked(hit));
    }
  }

  @Test
  void highlights_areEmptyWhenNotRequested_orWhenOnlyTheTitleMatched() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(
          new Source("a", "apples and pears"), new Source("b", "nothing here").withTitle("Apples"));
      for (Hit hit : search(corpus, "apples", false).hits()) {
        assertEquals(List.of(), hit.highlights());
      }
      SearchResult result = search(corpus, "apples", true);
      Hit titleOnly =
          result.hits().stream().filter(h -> h.source().equals("b")).findFirst().orElseThrow();
      assertEquals(List.of(), titleOnly.highlights());
    }
  }

  @Test
  void hit_carriesStoredProvenance() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(
          new Source(
                  "doc.pdf",
                  null,
                  List.of("intro words", "second page words"),
                  Map.of(
                      "dept",
                      "hr",
                      "year",
                      2024L,
                      "ratio",
                      0.25,
                      "ok",
                      true,
                      "tags",
                      List.of("x", "y")),
                  List.of(new int[] {1, 1}, new int[] {2, 3}))
              .withTitle("A Title"));
      long rev = corpus.index(new Source("plain", "plain words"));
      SearchResult result = search(corpus, "second", true);
      Hit hit = result.hits().get(0);
      assertEquals("doc.pdf", hit.source());
      assertEquals(1, hit.sourceRevision());
      assertEquals(1, hit.chunk());
      assertEquals("second page words", hit.text());
      assertEquals("A Title", hit.title());
      assertEquals("text/plain", hit.mediaType());
      assertEquals(new PageRange(2, 3), hit.pages());
      assertEquals(13, hit.start());
      assertEquals(13 + "second page words".length(), hit.end());
      assertEquals("sha-doc.pdf-1", hit.contentSha256());
      assertEquals(
          Map.of("dept", "hr", "year", 2024L, "ratio", 0.25, "ok", true, "tags", List.of("x", "y")),
          hit.metadata().values());
      assertEquals(rev, result.revision());
      assertEquals("test", result.corpus());
      assertEquals("test-id", result.corpusId());

      Hit plain = search(corpus, "plain", true).hits().get(0);
      assertNull(plain.title());
      assertNull(plain.pages());
      assertTrue(plain.metadata().isEmpty());
    }
  }
}
