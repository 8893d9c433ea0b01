package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hybrid search with the smallest shipped model through the real runtime, where the model is the
 * point: semantic search finds a text by what it means, and chunks are sized by the model's own
 * tokenizer so that none is cut. The engine's own hybrid tests (revisions, typed errors, caches)
 * run in the engine module with a test embedder.
 */
class HybridMeaningTest {
  private static final EmbeddingModels MODELS =
      EmbeddingModels.of(new OnnxEmbedder(Models.ALL_MINILM_L6_V2));
  private static final String MODEL = Models.ALL_MINILM_L6_V2.name();

  @TempDir Path dir;

  private static EngineConfig config() {
    return EngineConfig.builder().embeddingModels(MODELS).build();
  }

  private static CorpusInfo info(String name) {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(16, 0),
            CorpusSettings.Ranking.DEFAULT,
            new CorpusSettings.Embedding(MODEL, null, 0.5));
    return new CorpusInfo(name, name + "-id", MODELS.resolve(settings), Instant.EPOCH);
  }

  @Test
  void hybridRanksByMeaningAndWords_withPartsFiltersAndCaps() throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir, info("meaning"), config())) {
      index.apply(
          new Mutation(
              List.of(
                  index(
                      "cats",
                      "Cats",
                      "The kitten curled up and slept on the warm rug near the fireplace.",
                      "pets"),
                  index(
                      "dogs",
                      "Dogs",
                      "A puppy chased the ball across the garden all afternoon.",
                      "pets"),
                  index(
                      "stocks",
                      "Markets",
                      "Shares fell sharply after the central bank raised interest rates.",
                      "finance"),
                  index(
                      "bonds",
                      "Markets",
                      "Bond yields rose as investors expected higher rates.",
                      "finance")),
              "t",
              null,
              null));
      List<Hit> semantic =
          index.search(request("a sleeping cat", SearchRequest.Mode.SEMANTIC, null)).hits();
      assertEquals("cats", semantic.get(0).source(), "no word in common, but the same meaning");
      assertNull(semantic.get(0).parts().lexicalScore());
      assertEquals(1, semantic.get(0).parts().semanticRank());

      List<Hit> hybrid = index.search(request("interest rates", null, null)).hits();
      assertEquals("stocks", hybrid.get(0).source());
      Hit.ScoreParts parts = hybrid.get(0).parts();
      assertNotNull(parts.lexicalScore());
      assertNotNull(parts.semanticScore());
      assertEquals(1, parts.lexicalRank());

      SearchRequest finance =
          new SearchRequest(
              "a sleeping cat",
              SourceScope.ALL,
              List.of(new Filter.Equals("topic", "finance")),
              10,
              null,
              null,
              true,
              SearchRequest.Mode.HYBRID,
              null);
      assertTrue(
          index.search(finance).hits().stream()
              .allMatch(h -> h.metadata().values().get("topic").equals("finance")));
      SearchRequest scoped =
          new SearchRequest(
              "cat",
              new SourceScope(List.of("dogs")),
              List.of(),
              10,
              null,
              null,
              true,
              SearchRequest.Mode.SEMANTIC,
              null);
      assertEquals(Set.of("dogs"), sourcesOf(index.search(scoped).hits()));
      SearchRequest rrf =
          new SearchRequest(
              "interest rates",
              SourceScope.ALL,
              List.of(),
              10,
              null,
              null,
              true,
              SearchRequest.Mode.HYBRID,
              new SearchRequest.Fusion(SearchRequest.Fusion.Method.RRF, null));
      List<Hit> fused = index.search(rrf).hits();
      Hit.ScoreParts first = fused.get(0).parts();
      assertEquals(
          (float) (1.0 / (60 + first.lexicalRank()) + 1.0 / (60 + first.semanticRank())),
          fused.get(0).score());
      if (fused.get(0).score() == fused.get(1).score()) {
        assertTrue(fused.get(0).source().compareTo(fused.get(1).source()) < 0, "ties go by source");
      }
      assertTrue(
          hybrid.get(0).highlights().size() > 0,
          "a hybrid hit is highlighted where the words match");
    }
  }

  @Test
  void chunksAreSizedForTheModelsWindow_soNoneIsTruncated_andPagesStayRight() throws Exception {
    CorpusSettings base = info("window").settings();
    // 1,000-word chunks: English prose would take ~1,300 word pieces, numbers far more; the model
    // reads 256.
    CorpusInfo info =
        new CorpusInfo(
            "window",
            "window-id",
            new CorpusSettings(
                base.language(),
                new CorpusSettings.Chunking(1000, 100),
                base.ranking(),
                base.embedding()),
            Instant.EPOCH);
    OnnxEmbedder model = new OnnxEmbedder(Models.ALL_MINILM_L6_V2);
    StringBuilder text = new StringBuilder();
    int[] pageStarts = new int[3];
    for (int page = 0; page < 3; page++) {
      pageStarts[page] = text.length();
      for (int i = 0; i < 60; i++) {
        text.append("Table ")
            .append(page)
            .append('.')
            .append(i)
            .append(" reads 3.14159, 2.71828 and 1.41421. ");
      }
      text.append("\n\n");
    }
    String title = "Constants measured on three pages";
    try (CorpusIndex index = CorpusIndex.open(dir, info, config())) {
      index.apply(
          Mutation.of(
              new SourceOperation.Index(
                  "numbers",
                  title,
                  text.toString(),
                  null,
                  null,
                  null,
                  null,
                  pageStarts,
                  null,
                  null),
              "t"));
      var state = index.readSource("numbers").orElseThrow();
      assertEquals(0, state.truncatedChunks(), "every chunk fits the window");
      assertTrue(
          state.chunks() > 3,
          "the 1,000-word budget was split for a 256-piece window: " + state.chunks());
      List<Hit> hits =
          index
              .search(
                  new SearchRequest(
                      "table reads",
                      SourceScope.ALL,
                      List.of(),
                      100,
                      null,
                      null,
                      false,
                      SearchRequest.Mode.LEXICAL,
                      null))
              .hits();
      assertEquals(state.chunks(), hits.size());
      int covered = 0;
      for (Hit h : hits) {
        assertTrue(
            model.passageTokens(title + "\n\n" + h.text()) <= model.maxTokens(),
            "chunk " + h.chunk() + " fits the window");
        int firstPage = 1 + (h.start() >= pageStarts[2] ? 2 : h.start() >= pageStarts[1] ? 1 : 0);
        assertEquals(
            firstPage,
            h.pages().from(),
            "chunk " + h.chunk() + " starts on the page holding its start");
        covered = Math.max(covered, h.end());
      }
      assertEquals(
          text.toString().strip().length(), covered, "the chunks still cover the whole text");
    }
  }

  private static SearchRequest request(
      String q, SearchRequest.Mode mode, SearchRequest.Fusion fusion) {
    return new SearchRequest(q, SourceScope.ALL, List.of(), 10, null, null, true, mode, fusion);
  }

  private static SourceOperation index(String id, String title, String text, String topic) {
    return new SourceOperation.Index(
        id,
        title,
        text,
        null,
        null,
        Metadata.of(Map.of("topic", topic), "metadata"),
        null,
        null,
        null,
        null);
  }

  private static Set<String> sourcesOf(List<Hit> hits) {
    Set<String> s = new TreeSet<>();
    hits.forEach(h -> s.add(h.source()));
    return s;
  }
}
