package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchConcurrency;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.TestSeed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exact semantic scan, and a coded first pass's walk over the codes, cut into parts on other
 * threads answer exactly as one thread does: the same hits, order, scores and parts, for every
 * retained revision, with and without filters and a per-source cap. The corpus is written once,
 * searched on the searching thread alone, then opened again with tiny parts (every segment cut into
 * several) and searched again. The vectors are {@link HashingEmbedder}'s: what is compared is the
 * scan, not what the texts mean. Replay a failure with {@code -Dtests.seed=<hex>} ({@link
 * TestSeed}).
 */
class PartitionedScanTest {
  private static final EmbeddingModels MODELS = EmbeddingModels.of(new HashingEmbedder());
  private static final List<String> QUERIES =
      List.of("river otter", "interest on a loan at the bank", "heron mill");

  @TempDir Path dir;

  @Test
  @ExtendWith(TestSeed.class)
  void aScanInParts_answersAsOneThreadDoes(Random random) throws Exception {
    answersInPartsAsOneThread(random, dir.resolve("exact"), null, 8);
  }

  /** The coded first pass's walk over the codes, cut into ranges of documents, likewise. */
  @Test
  @ExtendWith(TestSeed.class)
  void aCodedFirstPassInParts_answersAsOneThreadDoes(Random random) throws Exception {
    answersInPartsAsOneThread(random, dir.resolve("codes"), CorpusSettings.FirstPass.DEFAULT, 8);
  }

  /**
   * Enough chunks (some 300) that the first pass's candidates are more than twice the 128 a part of
   * their exact scoring takes, so those scores are read in parts too (2 to 4 parts, seen with a
   * print when this was written; nothing here counts them): answered as one thread does.
   */
  @Test
  @ExtendWith(TestSeed.class)
  void manyCandidates_answerAsOneThreadDoes(Random random) throws Exception {
    answersInPartsAsOneThread(random, dir.resolve("many"), CorpusSettings.FirstPass.DEFAULT, 80);
  }

  /** The walk over an inverted file's lists, cut into ranges of documents, likewise. */
  @Test
  @ExtendWith(TestSeed.class)
  void anInvertedFileInParts_answersAsOneThreadDoes(Random random) throws Exception {
    answersInPartsAsOneThread(
        random,
        dir.resolve("lists"),
        new CorpusSettings.FirstPass(
            2,
            CorpusSettings.FirstPass.MIN_CANDIDATES,
            CorpusSettings.FirstPass.Code.CENTRED,
            null,
            CorpusSettings.FirstPass.DEFAULT.seed(),
            null,
            2),
        8);
  }

  /**
   * A corpus with the coded first pass {@code pass}, or exact scoring when it is null, written in
   * six batches of {@code perBatch} operations.
   */
  private static void answersInPartsAsOneThread(
      Random random, Path dir, CorpusSettings.FirstPass pass, int perBatch) throws Exception {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(16, 0),
            CorpusSettings.Ranking.DEFAULT,
            new CorpusSettings.Embedding(
                HashingEmbedder.MODEL,
                null,
                0.5,
                pass == null ? CorpusSettings.VectorIndex.EXACT : CorpusSettings.VectorIndex.CODES,
                CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                pass));
    CorpusInfo info = new CorpusInfo("parts", "parts-id", MODELS.resolve(settings), Instant.EPOCH);
    long latest;
    Map<String, List<String>> alone;
    EngineConfig oneThread =
        EngineConfig.builder()
            .embeddingModels(MODELS)
            .searchConcurrency(SearchConcurrency.SEARCHING_THREAD_ONLY)
            .build();
    try (CorpusIndex index = CorpusIndex.open(dir, info, oneThread)) {
      // Several batches, each a segment; some replace or delete earlier sources, so segments hold
      // hidden versions.
      for (int batch = 0; batch < 6; batch++) {
        List<SourceOperation> ops = new ArrayList<>();
        int fresh = perBatch * 5 / 8; // the others replace sources of earlier batches
        for (int i = 0; i < perBatch; i++) {
          String source = "s" + (batch * fresh + i);
          if (batch > 0 && i % 8 == 7) {
            ops.add(new SourceOperation.Delete("s" + random.nextInt(batch * fresh), null, false));
            continue;
          }
          ops.add(
              SourceOperation.Index.text(
                  source,
                  null,
                  HybridRevisionTest.randomText(random),
                  new Metadata(Map.of("topic", random.nextBoolean() ? "a" : "b"))));
        }
        index.apply(new Mutation(distinct(ops), "tester", null, null));
      }
      latest = index.revision();
      alone = answerAll(index, latest);
    }
    AtomicInteger handedOver = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      SearchConcurrency tinyParts =
          new SearchConcurrency(
              task -> {
                handedOver.incrementAndGet();
                pool.execute(task);
              },
              4,
              5);
      EngineConfig inParts =
          EngineConfig.builder().embeddingModels(MODELS).searchConcurrency(tinyParts).build();
      try (CorpusIndex index = CorpusIndex.open(dir, info, inParts)) {
        assertEquals(alone, answerAll(index, latest));
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(handedOver.get() > 0, "the scans were cut into parts run on the pool");
  }

  /**
   * Sources named once per batch: a delete drawn at random may name a source the batch also writes.
   */
  private static List<SourceOperation> distinct(List<SourceOperation> ops) {
    Map<String, SourceOperation> bySource = new TreeMap<>();
    for (SourceOperation op : ops) {
      bySource.putIfAbsent(op.source(), op);
    }
    return List.copyOf(bySource.values());
  }

  /**
   * Every query at every revision, semantic and hybrid, bare, filtered and capped: hits as
   * comparable lines.
   */
  private static Map<String, List<String>> answerAll(CorpusIndex index, long latest) {
    Map<String, List<String>> out = new TreeMap<>();
    for (long revision = 1; revision <= latest; revision++) {
      for (String q : QUERIES) {
        for (SearchRequest.Mode mode :
            List.of(SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID)) {
          for (int variant = 0; variant < 3; variant++) {
            List<Filter> filters =
                variant == 1 ? List.of(new Filter.Equals("topic", "a")) : List.of();
            Integer cap = variant == 2 ? 1 : null;
            SearchRequest request =
                new SearchRequest(
                    q, SourceScope.ALL, filters, 20, revision, cap, false, mode, null);
            List<String> hits = new ArrayList<>();
            for (Hit h : index.search(request).hits()) {
              hits.add(
                  h.source()
                      + "@"
                      + h.sourceRevision()
                      + "#"
                      + h.chunk()
                      + " "
                      + Float.floatToIntBits(h.score())
                      + " "
                      + h.parts());
            }
            out.put(revision + " " + mode.wireName() + " " + variant + " " + q, hits);
          }
        }
      }
    }
    return out;
  }
}
