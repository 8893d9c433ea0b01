package dev.quarry.benchmarks.contender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.Hit;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneContenderTest {
  private static final SourceDocument GRANITE =
      new SourceDocument(
          "granite",
          "Granite quarries",
          "Granite is cut in quarries. The quarry near the river closed when granite prices fell.");
  private static final SourceDocument SLATE =
      new SourceDocument("slate", "Slate", "Slate splits into thin sheets.");

  @TempDir Path dir;

  @BeforeEach
  void engineChunkerExists() throws Exception {
    assumeTrue(
        Availability.probe(ContenderKind.LUCENE, dir).searches(),
        "the engine's chunker is not implemented yet");
  }

  @Test
  void indexBatch_isVisibleToSearchOnReturn() throws Exception {
    try (Contender lucene = ContenderKind.LUCENE.open(dir.resolve("index"))) {
      lucene.indexBatch(List.of(GRANITE, SLATE));
      List<?> hits = lucene.search("slate");
      assertEquals(1, hits.size());
      assertEquals("slate", ((LuceneHit) hits.get(0)).source());
    }
  }

  @Test
  void search_highlightsEveryMatchOfEveryQueryWordInTheChunk() throws Exception {
    try (Contender lucene = ContenderKind.LUCENE.open(dir.resolve("index"))) {
      lucene.indexBatch(List.of(GRANITE, SLATE));
      LuceneHit hit = (LuceneHit) lucene.search("granite quarry").get(0);
      assertEquals("granite", hit.source());
      assertEquals(4, hit.highlights().size(), "Granite, quarries, quarry, granite");
      for (int[] range : hit.highlights()) {
        String match = hit.text().substring(range[0], range[1]).toLowerCase(Locale.ROOT);
        assertTrue(match.startsWith("granite") || match.startsWith("quarr"), match);
      }
    }
  }

  @Test
  void search_onlyStopWords_findsNothing() throws Exception {
    try (Contender lucene = ContenderKind.LUCENE.open(dir.resolve("index"))) {
      lucene.indexBatch(List.of(GRANITE));
      assertTrue(lucene.search("the").isEmpty());
    }
  }

  /**
   * The baseline ranks with the engine's BM25F (title weight, k1, b): the same chunks, in the same
   * order, with the same scores.
   */
  @Test
  void search_ranksLikeTheEngine() throws Exception {
    SourceDocument basalt =
        new SourceDocument("basalt", "Quarry safety", "Basalt columns form as lava cools.");
    SourceDocument marble =
        new SourceDocument(
            "marble", null, "Marble from the quarry, and more marble from another quarry.");
    List<SourceDocument> documents = List.of(GRANITE, SLATE, basalt, marble);
    try (Contender lucene = ContenderKind.LUCENE.open(dir.resolve("lucene"));
        Contender quarry = ContenderKind.QUARRY.open(dir.resolve("quarry"))) {
      lucene.indexBatch(documents);
      quarry.indexBatch(documents);
      for (String query : List.of("quarry", "granite quarry quarry", "marble lava safety")) {
        List<?> baseline = lucene.search(query);
        List<?> engine = quarry.search(query);
        assertEquals(engine.size(), baseline.size(), query);
        for (int i = 0; i < engine.size(); i++) {
          LuceneHit expected = (LuceneHit) baseline.get(i);
          Hit actual = (Hit) engine.get(i);
          assertEquals(expected.source(), actual.source(), query + " #" + i);
          assertEquals(
              expected.score(), actual.score(), expected.score() * 1e-5f, query + " #" + i);
        }
      }
    }
  }
}
