package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.TestSeed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Semantic and hybrid search against a model of every revision, with {@link HashingEmbedder}'s
 * vectors: after random writes and forced merges, every retained revision answers exactly (hits,
 * order, scores, parts) as it did when it was the latest; a corpus keeps its model, and bad
 * requests are typed errors. What needs a text's meaning or a real tokenizer is the embeddings
 * module's {@code HybridMeaningTest}.
 */
class HybridRevisionTest {
  private static final EmbeddingModels MODELS = EmbeddingModels.of(new HashingEmbedder());
  private static final String MODEL = HashingEmbedder.MODEL;
  private static final String[] WORDS = {
    "river",
    "otter",
    "bank",
    "delta",
    "stone",
    "bridge",
    "water",
    "salmon",
    "reed",
    "heron",
    "mill",
    "ford",
    "loan",
    "interest",
    "vault"
  };
  private static final List<String> QUERIES =
      List.of("river", "otter in the water", "money in a bank", "heron mill");

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

  /** A hit reduced to what must be identical across repeated searches. */
  record Answer(
      String source,
      long sourceRevision,
      int chunk,
      float score,
      String text,
      Hit.ScoreParts parts) {}

  @Test
  @ExtendWith(TestSeed.class)
  void everyRetainedRevision_answersSemanticAndHybridExactlyAsWhenItWasLatest(Random random)
      throws Exception {
    Map<Long, Map<String, String>> model = new TreeMap<>();
    Map<String, String> current = new TreeMap<>();
    model.put(0L, Map.copyOf(current));
    Map<Long, Map<String, List<Answer>>> answers = new HashMap<>();
    try (CorpusIndex index = CorpusIndex.open(dir, info("hybrid"), config())) {
      answers.put(0L, answerAll(index, 0));
      for (int step = 0; step < Integer.getInteger("hybrid.steps", 20); step++) {
        List<SourceOperation> ops = new ArrayList<>();
        Map<String, String> next = new TreeMap<>(current);
        int n = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
        Set<String> used = new HashSet<>();
        while (ops.size() < n) {
          String source = "s" + random.nextInt(10);
          if (!used.add(source)) {
            continue;
          }
          if (current.containsKey(source) && random.nextInt(4) == 0) {
            ops.add(new SourceOperation.Delete(source, null, false));
            next.remove(source);
          } else {
            String text = randomText(random);
            ops.add(SourceOperation.Index.text(source, null, text, null));
            next.put(source, text);
          }
        }
        MutationResult r = index.apply(new Mutation(ops, "tester", null, null));
        if (!next.equals(current)) {
          current = next;
          model.put(r.revision(), Map.copyOf(current));
          answers.put(r.revision(), answerAll(index, r.revision()));
        }
        if (random.nextInt(5) == 0) {
          ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(2));
        }
        for (Map.Entry<Long, Map<String, String>> at : model.entrySet()) {
          long rev = at.getKey();
          Map<String, List<Answer>> again = answerAll(index, rev);
          assertEquals(
              answers.get(rev), again, "revision " + rev + " answered differently at step " + step);
          checkSemanticSeesEveryChunk(at.getValue(), again, rev);
        }
      }
    }
  }

  /** A semantic search with a large topK returns every chunk visible at the revision, once each. */
  private static void checkSemanticSeesEveryChunk(
      Map<String, String> sources, Map<String, List<Answer>> byQuery, long rev) {
    for (Map.Entry<String, List<Answer>> e : byQuery.entrySet()) {
      if (!e.getKey().startsWith("semantic:")) {
        continue;
      }
      Set<String> got = new TreeSet<>();
      Set<String> keys = new HashSet<>();
      for (Answer a : e.getValue()) {
        got.add(a.source());
        assertTrue(keys.add(a.source() + "#" + a.chunk()), "chunk twice in one answer: " + a);
        assertTrue(
            sources.get(a.source()).contains(a.text()),
            "hit " + a + " is not content of revision " + rev);
        assertNull(a.parts().lexicalScore());
        assertNotNull(a.parts().semanticRank());
      }
      assertEquals(sources.keySet(), got, "semantic sources at revision " + rev);
      for (int i = 1; i < e.getValue().size(); i++) {
        assertTrue(
            e.getValue().get(i - 1).score() >= e.getValue().get(i).score(),
            "semantic hits out of order");
      }
    }
  }

  private static Map<String, List<Answer>> answerAll(CorpusIndex index, long revision) {
    Map<String, List<Answer>> out = new TreeMap<>();
    for (String q : QUERIES) {
      for (SearchRequest.Mode mode :
          List.of(SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID)) {
        List<Answer> list = new ArrayList<>();
        SearchRequest request =
            new SearchRequest(
                q, SourceScope.ALL, List.of(), 100, revision, null, false, mode, null);
        for (Hit h : index.search(request).hits()) {
          list.add(
              new Answer(
                  h.source(), h.sourceRevision(), h.chunk(), h.score(), h.text(), h.parts()));
        }
        out.put(mode.wireName() + ":" + q, list);
      }
    }
    return out;
  }

  /**
   * Every hybrid hit shows both sides' exact scores, whatever the fusion, though min-max and RRF
   * fusion compute a side's score of a chunk it did not find only for the hits: with more chunks
   * than a side's 100 candidates, the hits' parts are what each side's own search gives (a chunk
   * outside a side's candidates scoring no more than its last), and a chunk's parts are the same
   * under every fusion, theoretical normalization computing every candidate's.
   */
  @Test
  @ExtendWith(TestSeed.class)
  void hybridHitsShowBothSidesExactScores_whateverTheFusion(Random random) throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir, info("parts"), config())) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int i = 0; i < 260; i++) {
        String text = randomText(random);
        ops.add(SourceOperation.Index.text("s" + i, null, text, null));
      }
      // A word only three chunks hold: its lexical side has three candidates, so its hybrid hits
      // lie outside that side's candidates whatever the random texts (which share every word).
      for (int i = 0; i < 3; i++) {
        ops.add(
            SourceOperation.Index.text("k" + i, null, "kingfisher " + randomText(random), null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
      int withoutOtherSide = 0;
      List<String> queries = new ArrayList<>(QUERIES);
      queries.add("kingfisher");
      for (String q : queries) {
        List<Hit> lexical = index.search(request(q, SearchRequest.Mode.LEXICAL, null, 100)).hits();
        List<Hit> semantic =
            index.search(request(q, SearchRequest.Mode.SEMANTIC, null, 100)).hits();
        Map<String, Hit.ScoreParts> seen = new HashMap<>();
        for (SearchRequest.Fusion fusion :
            List.of(
                new SearchRequest.Fusion(
                    SearchRequest.Fusion.Method.CONVEX, null, CorpusSettings.Normalization.MINMAX),
                new SearchRequest.Fusion(
                    SearchRequest.Fusion.Method.CONVEX,
                    0.3,
                    CorpusSettings.Normalization.THEORETICAL),
                new SearchRequest.Fusion(SearchRequest.Fusion.Method.RRF, null))) {
          for (Hit h : index.search(request(q, SearchRequest.Mode.HYBRID, fusion, 20)).hits()) {
            Hit.ScoreParts p = h.parts();
            String at = fusion + " " + q + " " + h.source() + "#" + h.chunk();
            checkSide(lexical, h, p.lexicalRank(), p.lexicalScore(), at);
            checkSide(semantic, h, p.semanticRank(), p.semanticScore(), at);
            if (p.lexicalRank() == null) {
              withoutOtherSide++;
              assertTrue(
                  p.lexicalScore() >= 0
                      && p.lexicalScore() <= lexical.get(lexical.size() - 1).score(),
                  "a chunk outside the lexical candidates scores no more than the last: " + at);
            }
            if (p.semanticRank() == null) {
              withoutOtherSide++;
              assertTrue(
                  p.semanticScore() <= semantic.get(semantic.size() - 1).score(),
                  "a chunk outside the semantic candidates scores no more than the last: " + at);
            }
            Hit.ScoreParts before = seen.putIfAbsent(h.source() + "#" + h.chunk(), p);
            assertTrue(before == null || before.equals(p), at + ": " + before + " then " + p);
          }
        }
      }
      assertTrue(withoutOtherSide > 0, "some hit lies outside one side's candidates");
    }
  }

  /** A hit's rank and score on one side: its place and score in that side's own search. */
  private static void checkSide(List<Hit> side, Hit hit, Integer rank, Float score, String at) {
    assertNotNull(score, at);
    if (rank != null) {
      Hit there = side.get(rank - 1);
      assertEquals(hit.source() + "#" + hit.chunk(), there.source() + "#" + there.chunk(), at);
      assertEquals(there.score(), score, 0f, at);
    } else {
      for (Hit h : side) {
        assertTrue(!h.source().equals(hit.source()) || h.chunk() != hit.chunk(), at);
      }
    }
  }

  /** Three to 42 of the test's words: texts that share words in many proportions. */
  static String randomText(Random random) {
    int words = 3 + random.nextInt(40);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  @Test
  void aCorpusKeepsItsModel_andBadRequestsAreTypedErrors() throws Exception {
    CorpusSettings wide = info("typed").settings();
    CorpusInfo info =
        new CorpusInfo(
            "typed",
            "typed-id",
            new CorpusSettings(
                wide.language(),
                new CorpusSettings.Chunking(1000, 0),
                wide.ranking(),
                wide.embedding()),
            Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir, info, config())) {
      String longText = "heron ".repeat(400);
      index.apply(
          Mutation.of(
              new SourceOperation.Index(
                  "long",
                  null,
                  null,
                  List.of(new dev.quarry.engine.Passage(longText, null)),
                  null,
                  null,
                  null,
                  null,
                  null,
                  null),
              "t"));
      assertEquals(
          1,
          index.readSource("long").orElseThrow().truncatedChunks(),
          "a caller's passage longer than the model's window is embedded from its start, and reported");
      QuarryException tooLong =
          assertThrows(
              QuarryException.class,
              () -> index.search(request("word ".repeat(300), SearchRequest.Mode.SEMANTIC, null)));
      assertEquals("query", tooLong.field());
      QuarryException blank =
          assertThrows(
              QuarryException.class,
              () -> index.search(request("   ", SearchRequest.Mode.HYBRID, null)));
      assertEquals("query", blank.field());
    }
    QuarryException missing =
        assertThrows(
            QuarryException.class, () -> CorpusIndex.open(dir, info, EngineConfig.defaults()));
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, missing.code());
    CorpusInfo otherWeights =
        new CorpusInfo(
            "typed",
            "typed-id",
            info.settings().withEmbedding(info.settings().embedding().withSha256("0".repeat(64))),
            Instant.EPOCH);
    assertEquals(
        ErrorCode.EMBEDDING_UNAVAILABLE,
        assertThrows(QuarryException.class, () -> CorpusIndex.open(dir, otherWeights, config()))
            .code());
    QuarryException unknown =
        assertThrows(
            QuarryException.class,
            () ->
                MODELS.resolve(
                    CorpusSettings.DEFAULT.withEmbedding(
                        new CorpusSettings.Embedding("no-such-model", null, 0.5))));
    assertEquals("settings.embedding.model", unknown.field());

    CorpusInfo lexical =
        new CorpusInfo("lexical", "lexical-id", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("lexical"), lexical, config())) {
      QuarryException semantic =
          assertThrows(
              QuarryException.class,
              () -> index.search(request("river", SearchRequest.Mode.SEMANTIC, null)));
      assertEquals(ErrorCode.INVALID_REQUEST, semantic.code());
      assertEquals("mode", semantic.field());
      assertTrue(index.search(SearchRequest.of("river")).hits().isEmpty());
    }
  }

  @Test
  void aQueryEmbeddedAheadOfItsSearch_isNotEmbeddedAgain() throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir, info("ahead"), config())) {
      index.apply(
          Mutation.of(SourceOperation.Index.text("otter", null, "otters in the river", null), "t"));
      assertTrue(index.embedQuery("river animals"));
      var searcherEmbedder = MODELS.find(MODEL).orElseThrow();
      assertTrue(searcherEmbedder instanceof dev.quarry.engine.embed.QueryCachingEmbedder);
      float[] cached = searcherEmbedder.embedQuery("river animals");
      float[] fresh = new HashingEmbedder().embedQuery("river animals");
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          fresh, cached, "a cached vector is the model's own");
      cached[0] = 42;
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          fresh,
          searcherEmbedder.embedQuery("river animals"),
          "a caller cannot change the cached vector");
      assertEquals(
          ErrorCode.INVALID_REQUEST,
          assertThrows(QuarryException.class, () -> index.embedQuery("  ")).code());
    }
    CorpusInfo lexical =
        new CorpusInfo("lexical", "lexical-id", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("lexical"), lexical, config())) {
      assertTrue(!index.embedQuery("river"), "a lexical corpus embeds nothing");
    }
  }

  private static SearchRequest request(
      String q, SearchRequest.Mode mode, SearchRequest.Fusion fusion) {
    return request(q, mode, fusion, 10);
  }

  private static SearchRequest request(
      String q, SearchRequest.Mode mode, SearchRequest.Fusion fusion, int topK) {
    return new SearchRequest(q, SourceScope.ALL, List.of(), topK, null, null, true, mode, fusion);
  }
}
