package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The opt-in approximate (HNSW) index on real Lucene on disk, with {@link HashingEmbedder}'s
 * 384-dimension vectors (what is compared is the graph against the exact scan): the graph is
 * written only when asked for; on a corpus small enough for the graph to be searched whole it finds
 * what exact search finds, with the same exact scores; and it honours revisions, scope and filters,
 * since those are the reader's live documents and the query's filter.
 */
class ApproximateIndexTest {
  private static final EmbeddingModels MODELS = EmbeddingModels.of(new HashingEmbedder());
  private static final String[] TOPICS = {"rivers", "banks", "birds", "mills"};
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
    "vault",
    "kingfisher",
    "wheel",
    "grain"
  };

  @TempDir Path dir;

  private static CorpusInfo info(String name, CorpusSettings.VectorIndex vectors) {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(24, 0),
            CorpusSettings.Ranking.DEFAULT,
            new CorpusSettings.Embedding(HashingEmbedder.MODEL, null, 0.5, vectors));
    return new CorpusInfo(name, name + "-id", MODELS.resolve(settings), Instant.EPOCH);
  }

  private static List<SourceOperation> sources(long seed, int n) {
    Random random = new Random(seed);
    List<SourceOperation> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < 20 + random.nextInt(40); w++) {
        text.append(WORDS[random.nextInt(WORDS.length)]).append(w % 9 == 8 ? ". " : " ");
      }
      ops.add(
          new SourceOperation.Index(
              "s" + i,
              null,
              text.toString(),
              null,
              null,
              Metadata.of(Map.of("topic", TOPICS[i % TOPICS.length]), "metadata"),
              null,
              null,
              null,
              null));
    }
    return ops;
  }

  private static SearchRequest semantic(String q, List<Filter> filters, Long revision) {
    return new SearchRequest(
        q, SourceScope.ALL, filters, 20, revision, null, false, SearchRequest.Mode.SEMANTIC, null);
  }

  /** Source, chunk and exact score of each hit: what the two indexes must agree on. */
  private static List<String> answer(List<Hit> hits) {
    return hits.stream().map(h -> h.source() + "#" + h.chunk() + "=" + h.score()).toList();
  }

  @Test
  @ExtendWith(TestSeed.class)
  void smallCorpus_findsWhatExactFinds_withExactScores_atEveryRevision_andWithinFilters(
      Random random) throws Exception {
    List<SourceOperation> first = sources(random.nextLong(), 40);
    List<SourceOperation> second = sources(random.nextLong(), 20);
    try (CorpusIndex exact =
            CorpusIndex.open(
                dir.resolve("exact"),
                info("exact", CorpusSettings.VectorIndex.EXACT),
                EngineConfig.builder().embeddingModels(MODELS).build());
        CorpusIndex hnsw =
            CorpusIndex.open(
                dir.resolve("hnsw"),
                info("hnsw", CorpusSettings.VectorIndex.HNSW),
                EngineConfig.builder().embeddingModels(MODELS).build())) {
      for (CorpusIndex index : List.of(exact, hnsw)) {
        index.apply(new Mutation(first, "t", null, null));
        index.apply(
            new Mutation(
                second, "t", null, null)); // rewrites s0..s19: new versions supersede old ones
        index.apply(Mutation.of(new SourceOperation.Delete("s39", null, false), "t"));
      }
      List<Filter> birds = List.of(new Filter.Equals("topic", "birds"));
      for (String q :
          List.of("otters swimming in a river", "money in the bank", "a heron by the mill")) {
        for (Long revision : new Long[] {1L, 2L, null}) {
          assertEquals(
              answer(exact.search(semantic(q, List.of(), revision)).hits()),
              answer(hnsw.search(semantic(q, List.of(), revision)).hits()),
              q + " at " + revision + " (" + TestSeed.replay() + ")");
          List<Hit> filtered = hnsw.search(semantic(q, birds, revision)).hits();
          assertEquals(
              answer(exact.search(semantic(q, birds, revision)).hits()),
              answer(filtered),
              q + " filtered at " + revision + " (" + TestSeed.replay() + ")");
          assertTrue(
              filtered.stream().allMatch(h -> h.metadata().values().get("topic").equals("birds")));
        }
        assertTrue(
            hnsw.search(semantic(q, List.of(), null)).hits().stream()
                .noneMatch(h -> h.source().equals("s39")),
            "a deleted source is not found through the graph");
        assertEquals(
            answer(
                exact
                    .search(
                        new SearchRequest(
                            q,
                            SourceScope.ALL,
                            List.of(),
                            10,
                            null,
                            null,
                            false,
                            SearchRequest.Mode.HYBRID,
                            null))
                    .hits()),
            answer(
                hnsw.search(
                        new SearchRequest(
                            q,
                            SourceScope.ALL,
                            List.of(),
                            10,
                            null,
                            null,
                            false,
                            SearchRequest.Mode.HYBRID,
                            null))
                    .hits()));
      }
    }
    assertEquals(
        384, vectorGraph(dir.resolve("hnsw")).getVectorDimension(), "the graph is on disk");
    assertNull(vectorGraph(dir.resolve("exact")), "an exact corpus pays for no graph");
  }

  /** The graph field as the committed index on disk declares it, or null. */
  private static FieldInfo vectorGraph(Path indexDir) throws Exception {
    try (FSDirectory d = FSDirectory.open(indexDir);
        DirectoryReader r = DirectoryReader.open(d)) {
      return FieldInfos.getMergedFieldInfos(r).fieldInfo(Fields.VECTOR_GRAPH);
    }
  }
}
