package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.SourceState;
import dev.quarry.engine.embed.VectorLists;
import dev.quarry.engine.spi.StoreRules;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.OpenSearchNodes;
import dev.quarry.testing.TestSeed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same random sequence of writes on the embedded store and on a real OpenSearch node, then the
 * same reads of both: receipts, revisions, sources, history, and every search (latest and pinned at
 * each retained revision) must agree on which chunks match, with the same provenance and text, also
 * when revisions expire meanwhile and the cluster store reclaims their versions, in the same order
 * and with the same scores to the bit: the node has Quarry's scoring plugin, so the cluster store
 * scores each revision with its own statistics (docs/scale-out.md). A front that does not use the
 * plugin must still find the same chunks (compared as sets). The corpus's ranking (k1, b, title
 * weight, including 0 and below 1) is drawn at random too. Searches by a grant of some sources only
 * (drawn at random: prefixes and ids), whose statistics count only the visible chunks of those
 * sources, must agree to the bit as well. A hybrid corpus (the engine's test embedder) must answer
 * every semantic and hybrid search alike: hits, order, scores and score parts to the bit. Replay a
 * failure with {@code -Dtests.seed=<hex>} ({@link TestSeed}).
 */
@ExtendWith(TestSeed.class)
class StoresDifferentialIT {
  static final String[] WORDS =
      ("apple banana cherry delta echo fjord glacier harbor island jungle kelp lagoon "
              + "meadow nectar orchard prairie quarry river summit tundra upland valley willow xenon yarrow zephyr")
          .split(" ");

  @TempDir Path dir;

  @Test
  void randomWrites_answerTheSameOnBothStores(Random random) throws Exception {
    randomWrites(random, EngineConfig.builder().build(), 40, "t-diff-", 2, 12, 1);
  }

  /**
   * Three shards: each holds a third of the chunks and would score with its own statistics; the
   * revision's are counted over all of them, so scores still match the embedded store's to the bit.
   */
  @Test
  void randomWritesOnThreeShards_scoreTheSameAsTheEmbeddedStore(Random random) throws Exception {
    randomWrites(random, EngineConfig.builder().build(), 40, "t-diffshards-", 2, 12, 3);
  }

  /**
   * A front that does not use the scoring plugin (as on a cluster without it) says so, and still
   * finds the same chunks at every revision; its scores are the cluster's own, so only the sets of
   * hits are compared.
   */
  @Test
  void randomWritesWithoutTheScoringPlugin_matchTheSameChunks(Random random) throws Exception {
    randomWrites(random, EngineConfig.builder().build(), 30, "t-diffplain-", 2, 12, 3, false);
  }

  /**
   * Retention short enough that revisions expire during the sequence: the cluster store deletes the
   * versions no retained revision sees in the background, between the writes, and every retained
   * revision still answers as the embedded store's.
   */
  @Test
  void randomWritesUnderShortRetention_answerTheSameOnBothStores(Random random) throws Exception {
    randomWrites(
        random, EngineConfig.builder().retainedRevisions(10).build(), 70, "t-diffret-", 2, 12, 1);
  }

  /**
   * Retention so short that sources deleted a few revisions ago have only expired versions left,
   * which the cluster may not have reclaimed yet, and purges of them (few sources, many deletes, so
   * that they happen): both stores answer DELETED while a source's latest history entry is not a
   * purge, ABSENT once it is (or it has none). Long enough that the embedded store prunes its
   * history twice (every 64 expired revisions), which keeps each source's latest entry.
   */
  @Test
  void randomWritesAndPurgesUnderVeryShortRetention_answerTheSameOnBothStores(Random random)
      throws Exception {
    randomWrites(
        random, EngineConfig.builder().retainedRevisions(3).build(), 220, "t-diffpurge-", 5, 5, 1);
  }

  /**
   * A hybrid corpus on one shard: every semantic and hybrid search (latest and pinned, each fusion,
   * with and without a per-source cap, by a token granted only some sources) returns the same hits
   * in the same order with the same scores and score parts to the bit on both stores: the plugin's
   * {@code quarry_dense} query computes the embedded store's exact semantic score, and the front
   * fuses with the embedded store's fusion.
   */
  @Test
  void hybridRandomWrites_answerTheSameOnBothStores(Random random) throws Exception {
    randomHybridWrites(random, 1, "t-diffhyb-");
  }

  /**
   * The same on three shards: each returns its best candidates in result order, merged by the
   * cluster.
   */
  @Test
  void hybridRandomWritesOnThreeShards_answerTheSameOnBothStores(Random random) throws Exception {
    randomHybridWrites(random, 3, "t-diffhybshards-");
  }

  /**
   * A hybrid corpus with the coded first pass ({@code index: "codes"}, centred codes of 1 to 4
   * bits, 100 candidates) on one shard, holding well over 100 chunks, so that the first pass
   * chooses: the plugin's {@code quarry_coded} estimates choose the embedded store's candidates,
   * and every semantic and hybrid search (and those with {@code exact}) answers the same to the
   * bit.
   */
  @Test
  void codedHybridRandomWrites_answerTheSameOnBothStores(Random random) throws Exception {
    randomHybridWrites(random, 1, "t-diffcoded-", codedFirstPass(random));
  }

  /** The same on three shards: each returns its best estimates, merged by the cluster. */
  @Test
  void codedHybridRandomWritesOnThreeShards_answerTheSameOnBothStores(Random random)
      throws Exception {
    randomHybridWrites(random, 3, "t-diffcodedshards-", codedFirstPass(random));
  }

  /**
   * The same with an inverted file ({@code firstPass.probes}: 1 to all of the test model's lists)
   * on two shards: the first pass estimates only the chunks filed in the lists the embedded store
   * reads (the nearest ones, and more when those hold fewer chunks in scope than the candidates, as
   * they often do here for a token granted a few sources), so the answers are the same to the bit.
   */
  @Test
  void codedHybridWithListsRandomWrites_answerTheSameOnBothStores(Random random) throws Exception {
    CorpusSettings.FirstPass firstPass =
        new CorpusSettings.FirstPass(
            1 + random.nextInt(4),
            CorpusSettings.FirstPass.MIN_CANDIDATES,
            CorpusSettings.FirstPass.Code.CENTRED,
            null,
            random.nextLong(),
            null,
            1 + random.nextInt(LISTS));
    randomHybridWrites(random, 2, "t-difflists-", firstPass);
  }

  /** The lists the test model ships. */
  private static final int LISTS = VectorLists.countFor(new HashingEmbedder().sha256());

  /**
   * Equal estimates at the first pass's boundary (sources of the same text have the same vector and
   * code): the cluster store chooses the embedded store's candidates, ties by source and chunk,
   * both when the tied chunks fit in what it asks the cluster for (it breaks the ties itself) and
   * when they run past it (it asks again, sorted by the cluster). The exact scores of the chosen
   * tie too, so the answers show which were chosen.
   */
  @Test
  void codedTiesAtTheBoundary_areBrokenAsOnTheEmbeddedStore() throws Exception {
    EngineConfig config =
        EngineConfig.builder().embeddingModels(EmbeddingModels.of(new HashingEmbedder())).build();
    CorpusSettings.FirstPass firstPass =
        new CorpusSettings.FirstPass(
            2,
            CorpusSettings.FirstPass.MIN_CANDIDATES,
            CorpusSettings.FirstPass.Code.CENTRED,
            null,
            CorpusSettings.FirstPass.DEFAULT.seed());
    OpenSearchCorpusStore cluster =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(OpenSearchNodes.single().urls())
                .withReplicas(0)
                .withShards(2)
                .withPrefix("t-diffties-" + System.nanoTime()),
            config);
    CorpusInfo info =
        cluster.create(
            "ties", CorpusSettings.DEFAULT.withEmbedding(CodedEmbeddings.hashing(firstPass)));
    try (CorpusIndex embedded = CorpusIndex.open(dir.resolve("ties"), info, config)) {
      ClusterCorpusIndex remote = cluster.withCorpus("ties", ix -> (ClusterCorpusIndex) ix);
      // 105 sources of one text (ties within the 116 chunks the cluster is asked for), then 160
      // of another (ties past them), written in an order unlike their ids', and some others.
      List<SourceOperation> ops = new ArrayList<>();
      for (int i = 0; i < 105; i++) {
        ops.add(
            SourceOperation.Index.text(
                "a-" + (i * 37 % 105), null, "glacier harbor island kelp", Metadata.EMPTY));
      }
      for (int i = 0; i < 160; i++) {
        ops.add(
            SourceOperation.Index.text(
                "b-" + (i * 61 % 160), null, "meadow nectar orchard river", Metadata.EMPTY));
      }
      for (int i = 0; i < 30; i++) {
        ops.add(
            SourceOperation.Index.text("c-" + i, null, text(new Random(i), 12), Metadata.EMPTY));
      }
      Mutation m = new Mutation(ops, "tester", null, null);
      assertEquals(outcome(embedded, m), outcome(remote, m));
      for (String words : List.of("glacier harbor island kelp", "meadow nectar orchard river")) {
        for (SearchRequest.Mode mode :
            List.of(SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID)) {
          for (int topK : new int[] {10, 100}) {
            SearchRequest request =
                new SearchRequest(
                    words, SourceScope.ALL, List.of(), topK, null, null, false, mode, null);
            List<String> expected = ranked(embedded, request);
            assertEquals(expected, ranked(remote, request), words + " " + mode + " " + topK);
            assertEquals(topK, expected.size());
          }
        }
      }
    } finally {
      cluster.delete("ties");
      cluster.close();
    }
  }

  private static CorpusSettings.FirstPass codedFirstPass(Random random) {
    return new CorpusSettings.FirstPass(
        1 + random.nextInt(4),
        CorpusSettings.FirstPass.MIN_CANDIDATES,
        CorpusSettings.FirstPass.Code.CENTRED,
        null,
        random.nextLong());
  }

  private void randomHybridWrites(Random random, int shards, String prefix) throws Exception {
    randomHybridWrites(random, shards, prefix, null);
  }

  /**
   * @param firstPass the corpus's coded first pass, or null for exact semantic search; with one,
   *     the corpus is first given 60 sources of several chunks each
   */
  private void randomHybridWrites(
      Random random, int shards, String prefix, CorpusSettings.FirstPass firstPass)
      throws Exception {
    EngineConfig config =
        EngineConfig.builder().embeddingModels(EmbeddingModels.of(new HashingEmbedder())).build();
    CorpusSettings.Normalization normalization =
        random.nextBoolean()
            ? CorpusSettings.Normalization.MINMAX
            : CorpusSettings.Normalization.THEORETICAL;
    CorpusSettings settings =
        new CorpusSettings(
            random.nextBoolean()
                ? CorpusSettings.Language.ENGLISH
                : CorpusSettings.Language.STANDARD,
            new CorpusSettings.Chunking(16, 4),
            CorpusSettings.Ranking.DEFAULT,
            new CorpusSettings.Embedding(
                HashingEmbedder.MODEL,
                null,
                0.1 * random.nextInt(11),
                firstPass == null
                    ? CorpusSettings.VectorIndex.EXACT
                    : CorpusSettings.VectorIndex.CODES,
                normalization,
                firstPass));
    OpenSearchCorpusStore cluster =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(OpenSearchNodes.single().urls())
                .withReplicas(0)
                .withShards(shards)
                .withPrefix(prefix + random.nextInt(1_000_000)),
            config);
    assertTrue(cluster.searchesSemantically(), "the test node has the quarry-scoring plugin");
    CorpusInfo info = cluster.create("diff", settings);
    try (CorpusIndex embedded = CorpusIndex.open(dir.resolve("index"), info, config)) {
      ClusterCorpusIndex remote = cluster.withCorpus("diff", ix -> (ClusterCorpusIndex) ix);
      int sources = 10;
      if (firstPass != null) {
        sources = 60;
        List<SourceOperation> many = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
          many.add(
              SourceOperation.Index.text(
                  "doc-" + i, null, text(random, 40 + random.nextInt(40)), Metadata.EMPTY));
        }
        Mutation m = new Mutation(many, "tester", null, null);
        assertEquals(outcome(embedded, m), outcome(remote, m), "the first sources");
      }
      for (int step = 0; step < 30; step++) {
        Mutation m = randomMutation(random, step, 2, sources);
        assertEquals(
            outcome(embedded, m), outcome(remote, m), "step " + step + ": " + m.operations());
      }
      if (firstPass != null) {
        // The comparison means something: the first pass chooses 100 of many more chunks.
        int chunks =
            embedded.listSources(null, null, 1000, x -> true).sources().stream()
                .mapToInt(SourceState::chunks)
                .sum();
        assertTrue(chunks > 2 * firstPass.candidates(), "chunks at the latest revision: " + chunks);
      }
      long latest = embedded.revision();
      long oldest = embedded.oldestRetainedRevision();
      assertEquals(sources(embedded), sources(remote));
      List<SourceScope> grants =
          List.of(
              SourceScope.ALL,
              new SourceScope(List.of("doc-1*")),
              new SourceScope(List.of("doc-2", "doc-4*")));
      SearchRequest.Fusion[] fusions = {
        null,
        new SearchRequest.Fusion(SearchRequest.Fusion.Method.RRF, null),
        new SearchRequest.Fusion(SearchRequest.Fusion.Method.CONVEX, 0.3),
        new SearchRequest.Fusion(
            SearchRequest.Fusion.Method.CONVEX, 0.7, CorpusSettings.Normalization.THEORETICAL),
        new SearchRequest.Fusion(
            SearchRequest.Fusion.Method.CONVEX, 0.5, CorpusSettings.Normalization.MINMAX)
      };
      int fusedOfBoth = 0;
      for (int q = 0; q < 40; q++) {
        String words =
            WORDS[random.nextInt(WORDS.length)]
                + (random.nextBoolean() ? "" : " " + WORDS[random.nextInt(WORDS.length)])
                + (q % 7 == 0 ? " nowhere" : "");
        Long at =
            random.nextBoolean() ? null : oldest + random.nextInt((int) (latest - oldest) + 1);
        SearchRequest.Mode mode =
            q % 3 == 0
                ? SearchRequest.Mode.SEMANTIC
                : random.nextBoolean() ? null : SearchRequest.Mode.HYBRID;
        SearchRequest.Fusion fusion =
            mode == SearchRequest.Mode.SEMANTIC ? null : fusions[random.nextInt(fusions.length)];
        int topK = new int[] {1, 3, 10, 40}[random.nextInt(4)];
        Integer cap = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : null;
        SourceScope grant = grants.get(random.nextInt(grants.size()));
        SearchRequest request =
            new SearchRequest(
                    words, grant, List.of(), topK, at, cap, random.nextBoolean(), mode, fusion)
                .withStatistics(grant);
        if (firstPass != null && random.nextInt(5) == 0) {
          request = request.withExact(true);
        }
        if (random.nextBoolean()) {
          request = request.withSnippets(new SearchRequest.Snippets(40, null));
        }
        List<String> expected = ranked(embedded, request);
        assertEquals(
            expected,
            ranked(remote, request),
            "search '"
                + words
                + "' "
                + mode
                + " "
                + fusion
                + " topK "
                + topK
                + " cap "
                + cap
                + " at "
                + at
                + " granted "
                + grant.entries());
        fusedOfBoth +=
            expected.stream().anyMatch(h -> h.contains("/1 ") && !h.contains(" -/")) ? 1 : 0;
      }
      // The comparison means something: hybrid searches found chunks ranked by both sides.
      assertTrue(fusedOfBoth > 3, "hybrid searches with hits ranked by both sides: " + fusedOfBoth);
      if (firstPass != null && firstPass.probes() > 0 && firstPass.probes() < LISTS) {
        // Both ways of choosing the lists read were compared: more lists after counting every
        // list's chunks in scope (a grant of a few sources always needs more than the nearest),
        // and, when the nearest lists are many, those alone.
        long nearest = remote.listPasses(true);
        long counted = remote.listPasses(false);
        String passes =
            "first passes from the nearest lists / after counting, probes "
                + firstPass.probes()
                + ": "
                + nearest
                + " / "
                + counted;
        assertTrue(counted > 0, passes);
        assertTrue(nearest > 0 || firstPass.probes() < LISTS / 2, passes);
      }
    } finally {
      cluster.delete("diff");
      cluster.close();
    }
  }

  /**
   * A search's hits in order, each with its score's and its parts' bits, its provenance, text,
   * highlights and snippet.
   */
  private static List<String> ranked(CorpusIndex index, SearchRequest request) {
    List<String> out = new ArrayList<>();
    for (Hit h : index.search(request).hits()) {
      Hit.ScoreParts p = h.parts();
      out.add(
          h.score()
              + " ("
              + Integer.toHexString(Float.floatToIntBits(h.score()))
              + ") "
              + h.source()
              + "#"
              + h.chunk()
              + "@"
              + h.sourceRevision()
              + " parts "
              + (p == null
                  ? "none"
                  : bits(p.lexicalScore())
                      + "/"
                      + p.lexicalRank()
                      + " "
                      + bits(p.semanticScore())
                      + "/"
                      + p.semanticRank())
              + " "
              + h.text()
              + " highlights "
              + ranges(h.highlights())
              + " snippet "
              + (h.snippet() == null
                  ? "none"
                  : h.snippet().text()
                      + " ["
                      + h.snippet().start()
                      + ","
                      + h.snippet().end()
                      + ") "
                      + ranges(h.snippet().highlights())));
    }
    return out;
  }

  private static List<String> ranges(List<int[]> ranges) {
    return ranges.stream().map(r -> r[0] + "-" + r[1]).toList();
  }

  private static String bits(Float f) {
    return f == null ? "-" : f + "=" + Integer.toHexString(Float.floatToIntBits(f));
  }

  /**
   * @param deletes in ten operations, how many delete (a quarter or so of them purge)
   * @param sources how many sources the operations choose from
   * @param shards the corpus index's primary shards
   */
  private void randomWrites(
      Random random,
      EngineConfig config,
      int steps,
      String prefix,
      int deletes,
      int sources,
      int shards)
      throws Exception {
    randomWrites(random, config, steps, prefix, deletes, sources, shards, true);
  }

  /**
   * @param exact whether the front uses the node's scoring plugin, and the scores are compared
   */
  private void randomWrites(
      Random random,
      EngineConfig config,
      int steps,
      String prefix,
      int deletes,
      int sources,
      int shards,
      boolean exact)
      throws Exception {
    CorpusSettings.Ranking[] rankings = {
      CorpusSettings.Ranking.DEFAULT,
      new CorpusSettings.Ranking(0.9, 0.4, 0.5),
      new CorpusSettings.Ranking(1.5, 0.9, 0),
      new CorpusSettings.Ranking(1.2, 0.75, 3.0)
    };
    // Any language the cluster serves: the cluster indexes the terms of Quarry's own analysis. It
    // refuses `auto` (a language detected per source) and analyses that stack terms.
    List<CorpusSettings.Language> languages =
        Arrays.stream(CorpusSettings.Language.values())
            .filter(l -> l != CorpusSettings.Language.AUTO && !StoreRules.stacksTerms(l))
            .toList();
    CorpusSettings settings =
        new CorpusSettings(
            random.nextBoolean()
                ? CorpusSettings.Language.ENGLISH
                : languages.get(random.nextInt(languages.size())),
            new CorpusSettings.Chunking(16, 4),
            rankings[random.nextInt(rankings.length)]);
    OpenSearchCorpusStore cluster =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(OpenSearchNodes.single().urls())
                .withReplicas(0)
                .withShards(shards)
                .withPrefix(prefix + random.nextInt(1_000_000)),
            config,
            dev.quarry.corpora.CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA,
            exact);
    assertEquals(exact, cluster.scoresExactly(), "the test node has the quarry-scoring plugin");
    CorpusInfo info = cluster.create("diff", settings);
    try (CorpusIndex embedded = CorpusIndex.open(dir.resolve("index"), info, config)) {
      // Held across the whole run, longer than one operation's deadline: outside withCorpus, so
      // each of its requests has a timeout of its own.
      ClusterCorpusIndex remote = cluster.withCorpus("diff", ix -> (ClusterCorpusIndex) ix);
      // Versions go as soon as their revisions expire, between the writes.
      remote.reclaimSettle(Duration.ZERO);
      run(random, embedded, remote, steps, deletes, sources, exact);
    } finally {
      cluster.delete("diff");
      cluster.close();
    }
  }

  private static void run(
      Random random,
      CorpusIndex embedded,
      CorpusIndex remote,
      int steps,
      int deletes,
      int sources,
      boolean exact) {
    for (int step = 0; step < steps; step++) {
      Mutation m = randomMutation(random, step, deletes, sources);
      Object local = outcome(embedded, m);
      Object cluster = outcome(remote, m);
      assertEquals(local, cluster, "step " + step + ": " + m.operations());
      assertEquals(embedded.revision(), remote.revision());
    }
    long latest = embedded.revision();
    long oldest = embedded.oldestRetainedRevision();
    assertEquals(oldest, remote.oldestRetainedRevision());
    assertEquals(sources(embedded), sources(remote));
    assertEquals(history(embedded, oldest), history(remote, oldest));
    // sources/chunks: every source (live, deleted, never written), latest and pinned, page by page;
    // and the same refusals of a revision above the latest or past retention.
    for (int s = 0; s < sources; s++) {
      for (Long at :
          new Long[] {
            null,
            oldest,
            oldest + (latest - oldest) / 2,
            Math.max(oldest, latest - 1),
            latest + 1,
            oldest - 1
          }) {
        assertEquals(
            chunks(embedded, "doc-" + s, at),
            chunks(remote, "doc-" + s, at),
            "chunks of doc-" + s + " at " + at);
      }
    }
    List<SourceScope> grants =
        List.of(
            new SourceScope(List.of("doc-1*")),
            new SourceScope(List.of("doc-2", "doc-4*")),
            new SourceScope(List.of("doc-0", "doc-3", "doc-1")));
    SourceScope grant = grants.get(random.nextInt(grants.size()));
    for (String word : WORDS) {
      for (Long at :
          new Long[] {
            null,
            oldest + (latest - oldest) / 2,
            oldest + random.nextInt((int) (latest - oldest) + 1),
            Math.max(oldest, latest - 1),
            oldest
          }) {
        assertEquals(
            matches(embedded, word, at, exact),
            matches(remote, word, at, exact),
            "search '" + word + "' at " + at);
      }
      if (exact) {
        for (Long at : new Long[] {null, oldest + random.nextInt((int) (latest - oldest) + 1)}) {
          assertEquals(
              matches(embedded, word, at, grant),
              matches(remote, word, at, grant),
              "search '" + word + "' at " + at + " granted " + grant.entries());
        }
      }
    }
    for (int q = 0; q < 5; q++) {
      // Several words, one perhaps twice (a term written twice weighs twice), latest and pinned.
      String first = WORDS[random.nextInt(WORDS.length)];
      String words =
          first
              + " "
              + WORDS[random.nextInt(WORDS.length)]
              + " "
              + (q == 4 ? first : WORDS[random.nextInt(WORDS.length)]);
      Long at = q % 2 == 0 ? null : oldest + random.nextInt((int) (latest - oldest) + 1);
      assertEquals(
          matches(embedded, words, at, exact),
          matches(remote, words, at, exact),
          "search '" + words + "' at " + at);
      if (exact) {
        // The best three of many: the cluster skips chunks that cannot reach the third's score.
        assertEquals(
            best(embedded, words, at, 3),
            best(remote, words, at, 3),
            "best of '" + words + "' at " + at);
      }
    }
  }

  private static Mutation randomMutation(Random random, int step, int deletes, int sources) {
    int n = random.nextInt(10) == 0 ? 2 + random.nextInt(3) : 1;
    List<SourceOperation> ops = new ArrayList<>();
    TreeSet<String> used = new TreeSet<>();
    while (ops.size() < n) {
      String source = "doc-" + random.nextInt(sources);
      if (!used.add(source)) {
        continue;
      }
      int kind = random.nextInt(10);
      if (kind < deletes) {
        // A purge now and then: of a live source, a deleted one still retained, or one long
        // expired.
        ops.add(
            new SourceOperation.Delete(source, null, kind < deletes / 2 && random.nextBoolean()));
      } else if (kind == deletes && step > 0) {
        // The same text as one written before (perhaps unchanged).
        ops.add(
            SourceOperation.Index.text(
                source, null, text(new Random(source.hashCode()), 20), Metadata.EMPTY));
      } else {
        String title = random.nextBoolean() ? null : WORDS[random.nextInt(WORDS.length)] + " notes";
        ops.add(
            random.nextInt(4) == 0
                ? withTable(source, title, random)
                : SourceOperation.Index.text(
                    source, title, text(random, 5 + random.nextInt(60)), Metadata.EMPTY));
      }
    }
    return new Mutation(ops, "tester", null, null);
  }

  /**
   * A source of prose, a table of rows of named cells, and more prose: its table chunks hold whole
   * rows.
   */
  private static SourceOperation.Index withTable(String source, String title, Random random) {
    StringBuilder b = new StringBuilder(text(random, 3 + random.nextInt(20))).append("\n\n");
    int start = b.length();
    List<Integer> rows = new ArrayList<>();
    for (int r = 0, n = 1 + random.nextInt(12); r < n; r++) {
      if (r > 0) {
        b.append("\n\n");
      }
      rows.add(b.length());
      b.append("Item = ")
          .append(WORDS[random.nextInt(WORDS.length)])
          .append("; Note = ")
          .append(text(random, 1 + random.nextInt(8)));
    }
    int end = b.length();
    b.append("\n\n").append(text(random, 3 + random.nextInt(10)));
    return new SourceOperation.Index(
        source,
        title,
        b.toString(),
        null,
        null,
        Metadata.EMPTY,
        null,
        null,
        null,
        null,
        null,
        List.of(new SourceOperation.Table(start, end, rows)));
  }

  private static String text(Random random, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(i == 0 ? "" : i % 9 == 0 ? ". " : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return b.append('.').toString();
  }

  /** A mutation's receipts (status, revisions, hash, chunks), or its error code. */
  private static Object outcome(CorpusIndex index, Mutation m) {
    try {
      MutationResult r = index.apply(m);
      List<String> out = new ArrayList<>();
      out.add("revision " + r.revision());
      for (Receipt receipt : r.receipts()) {
        out.add(
            receipt.source()
                + " "
                + receipt.status()
                + " "
                + receipt.revision()
                + " "
                + receipt.sourceRevision()
                + " "
                + receipt.contentSha256()
                + " "
                + receipt.chunks());
      }
      return out;
    } catch (QuarryException e) {
      return e.code();
    }
  }

  private static List<String> sources(CorpusIndex index) {
    List<String> out = new ArrayList<>();
    for (SourceState s : index.listSources(null, null, 1000, x -> true).sources()) {
      out.add(
          s.source()
              + " "
              + s.sourceRevision()
              + " "
              + s.contentSha256()
              + " "
              + s.title()
              + " "
              + s.mediaType()
              + " "
              + s.chunks()
              + " "
              + s.characters()
              + " "
              + s.pages());
    }
    return out;
  }

  /**
   * Every chunk of {@code source} at {@code revision}, read in pages of two (each page's provenance
   * and next cursor with it); "absent" when it did not exist then, or the refusal's code.
   */
  private static List<String> chunks(CorpusIndex index, String source, Long revision) {
    List<String> out = new ArrayList<>();
    int after = -1;
    try {
      while (true) {
        java.util.Optional<dev.quarry.engine.SourceChunks> page =
            index.readChunks(source, revision, after, 2);
        if (page.isEmpty()) {
          out.add("absent");
          return out;
        }
        dev.quarry.engine.SourceChunks p = page.get();
        out.add(
            p.revision()
                + " "
                + p.source()
                + "@"
                + p.sourceRevision()
                + " "
                + p.title()
                + " "
                + p.mediaType()
                + " "
                + p.contentSha256()
                + " next "
                + p.nextAfter());
        for (dev.quarry.engine.SourceChunks.Chunk c : p.chunks()) {
          out.add(
              c.chunk()
                  + " ["
                  + c.start()
                  + ","
                  + c.end()
                  + ") "
                  + c.pages()
                  + " "
                  + c.metadata().values()
                  + " "
                  + c.section()
                  + " "
                  + c.table()
                  + " "
                  + c.text());
        }
        if (p.nextAfter() == null) {
          return out;
        }
        after = p.nextAfter();
      }
    } catch (QuarryException e) {
      out.add(e.code().name());
      return out;
    }
  }

  /** The history of the retained revisions, from {@code oldest} on. */
  private static List<String> history(CorpusIndex index, long oldest) {
    List<String> out = new ArrayList<>();
    for (HistoryEntry e : index.history(Math.max(0, oldest - 1), 10_000, x -> true).entries()) {
      out.add(
          e.revision()
              + " "
              + e.operation()
              + " "
              + e.source()
              + " "
              + e.contentSha256()
              + " "
              + e.subject());
    }
    return out;
  }

  /**
   * The best {@code k} chunks of a search, each with its score's bits, in the order of the hits.
   */
  private static List<String> best(CorpusIndex index, String query, Long revision, int k) {
    List<String> out = new ArrayList<>();
    for (Hit h :
        index
            .search(new SearchRequest(query, SourceScope.ALL, List.of(), k, revision, null, false))
            .hits()) {
      out.add(
          h.source()
              + "#"
              + h.chunk()
              + " "
              + Integer.toHexString(Float.floatToIntBits(h.score()))
              + " "
              + h.section()
              + " "
              + h.table());
    }
    return out;
  }

  /**
   * Every chunk a search matches, with its provenance and text: with its score (its bits) in the
   * order of the hits when {@code exact}, else without scores in source and chunk order.
   */
  private static java.util.Collection<String> matches(
      CorpusIndex index, String query, Long revision, boolean exact) {
    return matches(
        index,
        new SearchRequest(
            query, SourceScope.ALL, List.of(), SearchRequest.MAX_TOP_K, revision, null, false),
        exact);
  }

  /**
   * Every chunk a search by {@code grant} matches, scored with the statistics of the grant's
   * sources.
   */
  private static java.util.Collection<String> matches(
      CorpusIndex index, String query, Long revision, SourceScope grant) {
    return matches(
        index,
        new SearchRequest(query, grant, List.of(), SearchRequest.MAX_TOP_K, revision, null, false)
            .withStatistics(grant),
        true);
  }

  private static java.util.Collection<String> matches(
      CorpusIndex index, SearchRequest request, boolean exact) {
    List<Hit> hits = index.search(request).hits();
    if (hits.size() >= SearchRequest.MAX_TOP_K) {
      throw new IllegalStateException("more matches than topK: the sets cannot be compared");
    }
    java.util.Collection<String> out = exact ? new ArrayList<>() : new TreeSet<>();
    for (Hit h : hits) {
      String score =
          exact
              ? h.score() + " (" + Integer.toHexString(Float.floatToIntBits(h.score())) + ") "
              : "";
      out.add(
          score
              + h.source()
              + "#"
              + h.chunk()
              + "@"
              + h.sourceRevision()
              + " ["
              + h.start()
              + ","
              + h.end()
              + ") "
              + h.title()
              + " "
              + h.contentSha256()
              + " "
              + h.text());
    }
    return out;
  }
}
