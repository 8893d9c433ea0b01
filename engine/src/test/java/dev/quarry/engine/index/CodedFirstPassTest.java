package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.HashingEmbedder;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.TestSeed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coded first pass ({@code index: codes}) against a record of every revision's answers: with
 * more chunks than the pass hands to exact scoring, after random writes, deletes, purges of other
 * sources, forced merges, restarts and random writer configurations, every retained revision
 * answers (hits, order, scores, parts) exactly as it did when it was the latest; every hit's score
 * is its exact score; and with candidates for every chunk the answer is the exact one.
 */
class CodedFirstPassTest {
  private static final EmbeddingModels MODELS = EmbeddingModels.of(new HashingEmbedder());
  private static final String[] WORDS = {"river", "otter", "bank", "delta", "stone", "bridge", "water", "salmon",
      "reed", "heron", "mill", "ford", "loan", "interest", "vault", "meadow", "lark", "copper", "kiln", "weir"};
  private static final List<String> QUERIES = List.of("river", "otter in the water", "money in a bank",
      "heron mill", "copper kiln by the weir");

  @TempDir Path dir;

  private static EngineConfig config() {
    return EngineConfig.builder().embeddingModels(MODELS).build();
  }

  private static CorpusInfo info(CorpusSettings.VectorIndex index, CorpusSettings.FirstPass firstPass) {
    CorpusSettings settings = new CorpusSettings(CorpusSettings.Language.ENGLISH, new CorpusSettings.Chunking(16, 0),
        CorpusSettings.Ranking.DEFAULT, new CorpusSettings.Embedding(HashingEmbedder.MODEL, null, 0.5, index,
            CorpusSettings.Embedding.DEFAULT_NORMALIZATION, firstPass));
    return new CorpusInfo("coded", "coded-id", MODELS.resolve(settings), Instant.EPOCH);
  }

  private static final CorpusInfo CODED = info(CorpusSettings.VectorIndex.CODES,
      new CorpusSettings.FirstPass(1, CorpusSettings.FirstPass.MIN_CANDIDATES));

  record Answer(String source, long sourceRevision, int chunk, float score, Hit.ScoreParts parts) {}

  @Test
  @ExtendWith(TestSeed.class)
  void aPinnedSearch_answersTheSameAcrossMergesRestartsWritesAndPurges(Random random) throws Exception {
    Map<Long, Map<String, List<Answer>>> answers = new TreeMap<>();
    Map<Long, Set<String>> visible = new HashMap<>();
    List<String> live = new ArrayList<>();
    CorpusIndex index = RandomWriterConfigs.open(dir, CODED, config(), random);
    try {
      List<SourceOperation> first = new ArrayList<>();
      for (int s = 0; s < 90; s++) {
        first.add(SourceOperation.Index.text("s" + s, null, randomText(random), null));
        live.add("s" + s);
      }
      MutationResult r = index.apply(new Mutation(first, "tester", null, null));
      answers.put(r.revision(), answerAll(index, r.revision()));
      visible.put(r.revision(), Set.copyOf(live));
      for (int step = 0; step < Integer.getInteger("coded.steps", 12); step++) {
        List<SourceOperation> ops = new ArrayList<>();
        for (int n = 1 + random.nextInt(4); ops.size() < n; ) {
          String source = "s" + random.nextInt(120);
          if (ops.stream().anyMatch(o -> o.source().equals(source))) {
            continue;
          }
          if (live.contains(source) && random.nextInt(3) == 0) {
            ops.add(new SourceOperation.Delete(source, null, random.nextBoolean()));
            live.remove(source);
          } else {
            ops.add(SourceOperation.Index.text(source, null, randomText(random), null));
            if (!live.contains(source)) {
              live.add(source);
            }
          }
        }
        r = index.apply(new Mutation(ops, "tester", null, null));
        answers.put(r.revision(), answerAll(index, r.revision()));
        visible.put(r.revision(), Set.copyOf(live));
        switch (random.nextInt(4)) {
          case 0 -> ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(3));
          case 1 -> {
            index.close();
            index = RandomWriterConfigs.open(dir, CODED, config(), random);
          }
          default -> { }
        }
        for (Map.Entry<Long, Map<String, List<Answer>>> at : answers.entrySet()) {
          // A purge erases a source's content from every revision, so revisions that held it change;
          // the others must not.
          if (heldPurged(visible.get(at.getKey()), ops)) {
            answers.put(at.getKey(), answerAll(index, at.getKey()));
            continue;
          }
          assertEquals(at.getValue(), answerAll(index, at.getKey()),
              "revision " + at.getKey() + " answered differently after step " + step);
        }
      }
    } finally {
      index.close();
    }
  }

  private static boolean heldPurged(Set<String> visible, List<SourceOperation> ops) {
    return ops.stream().anyMatch(o -> o instanceof SourceOperation.Delete d && d.purge()
        && visible.contains(d.source()));
  }

  @Test
  @ExtendWith(TestSeed.class)
  void everyHitScoresExactly_andEnoughCandidatesGiveTheExactAnswer(Random random) throws Exception {
    try (CorpusIndex index = RandomWriterConfigs.open(dir, CODED, config(), random)) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int s = 0; s < 120; s++) {
        ops.add(SourceOperation.Index.text("s" + s, null, randomText(random), null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
    }
    Map<String, List<Answer>> coded;
    try (CorpusIndex index = CorpusIndex.open(dir, CODED, config())) {
      coded = answerAll(index, null);
    }
    Map<String, List<Answer>> exact;
    try (CorpusIndex index = CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.EXACT, null), config())) {
      exact = answerAll(index, null);
    }
    Map<String, List<Answer>> wide;
    try (CorpusIndex index = CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.CODES,
        new CorpusSettings.FirstPass(1, CorpusSettings.FirstPass.MAX_CANDIDATES)), config())) {
      wide = answerAll(index, null);
    }
    assertEquals(exact, wide, "with every chunk a candidate, the coded pass is the exact search");
    for (String q : QUERIES) {
      Map<String, Float> exactScores = new HashMap<>();
      exact.get("semantic:" + q).forEach(a -> exactScores.put(a.source() + "#" + a.chunk(), a.score()));
      List<Answer> got = coded.get("semantic:" + q);
      assertEquals(exact.get("semantic:" + q).size(), got.size());
      for (Answer a : got) {
        Float s = exactScores.get(a.source() + "#" + a.chunk());
        if (s != null) {
          assertEquals(s, a.score(), "a coded hit's score is its exact score: " + a);
        }
      }
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void tiesAtTheFirstPassBoundary_goBySourceThenChunk(Random random) throws Exception {
    // Every chunk the same text: every estimate and every exact score ties, so which chunks are
    // candidates is decided by source and chunk alone, whatever the segments.
    try (CorpusIndex index = RandomWriterConfigs.open(dir, CODED, config(), random)) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int s = 0; s < 260; s++) {
        ops.add(SourceOperation.Index.text(String.format("t%03d", (s * 7919) % 260), null, "river otter bank", null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
      ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(3));
    }
    Map<String, List<Answer>> coded;
    try (CorpusIndex index = CorpusIndex.open(dir, CODED, config())) {
      coded = answerAll(index, null);
    }
    try (CorpusIndex index = CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.EXACT, null), config())) {
      assertEquals(answerAll(index, null), coded);
    }
    assertEquals("t000", coded.get("semantic:river").get(0).source());
  }

  @Test
  void aFirstPassSetting_thatCannotApply_isATypedError() {
    assertEquals("settings.embedding.firstPass.bits",
        assertThrows(QuarryException.class, () -> new CorpusSettings.FirstPass(2, 1000)).field());
    assertEquals("settings.embedding.firstPass.candidates",
        assertThrows(QuarryException.class, () -> new CorpusSettings.FirstPass(1, 10)).field());
    assertEquals("settings.embedding.firstPass", assertThrows(QuarryException.class,
        () -> new CorpusSettings.Embedding(HashingEmbedder.MODEL, null, 0.5, CorpusSettings.VectorIndex.EXACT,
            CorpusSettings.Embedding.DEFAULT_NORMALIZATION, CorpusSettings.FirstPass.DEFAULT)).field());
    assertEquals(CorpusSettings.FirstPass.DEFAULT, new CorpusSettings.Embedding(HashingEmbedder.MODEL, null, 0.5,
        CorpusSettings.VectorIndex.CODES).firstPass(), "a coded corpus without parameters gets the defaults");
  }

  private static Map<String, List<Answer>> answerAll(CorpusIndex index, Long revision) {
    Map<String, List<Answer>> out = new TreeMap<>();
    for (String q : QUERIES) {
      for (SearchRequest.Mode mode : List.of(SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID)) {
        List<Answer> list = new ArrayList<>();
        SearchRequest request = new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false, mode,
            null);
        for (Hit h : index.search(request).hits()) {
          list.add(new Answer(h.source(), h.sourceRevision(), h.chunk(), h.score(), h.parts()));
        }
        out.put(mode.wireName() + ":" + q, list);
      }
    }
    return out;
  }

  /** Eight to 80 of the test's words: up to five chunks of 16 words a source. */
  private static String randomText(Random random) {
    int words = 8 + random.nextInt(73);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }
}
