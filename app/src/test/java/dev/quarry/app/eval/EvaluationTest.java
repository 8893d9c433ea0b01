package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.SearchRequest;
import dev.quarry.testing.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EvaluationTest {
  private static final double EXACT = 1e-9;

  /** One evaluation shared by the tests: each reads a different property of its report. */
  private EvalReport report;

  @BeforeAll
  void evaluate(@TempDir Path dir) throws IOException {
    report =
        new Evaluation(EngineConfig.defaults())
            .run(collection(), CorpusSettings.DEFAULT, dir.resolve("index"), Integer.MAX_VALUE);
  }

  /**
   * Three sources with disjoint vocabularies: each query can only match one source, so every metric
   * is known exactly.
   */
  private static BeirCollection collection() {
    return new BeirCollection(
        "tiny",
        List.of(
            new BeirDocument(
                "volcano", "Volcanoes", "Magma erupts through the crust of a volcano."),
            new BeirDocument(
                "glacier", "Glaciers", "Ice sheets carve valleys as glaciers advance."),
            new BeirDocument("reef", "", "Coral reefs shelter fish in warm shallow seas.")),
        List.of(
            new BeirQuery("q-hit", "magma eruption"),
            new BeirQuery("q-miss", "coral fish"),
            new BeirQuery("q-unjudged", "glaciers")),
        new Judgments(
            Map.of(
                "q-hit", Map.of("volcano", 1),
                "q-miss", Map.of("glacier", 1))));
  }

  @Test
  void run_scoresEachJudgedQueryOnQuarrysRanking() {
    // q-hit finds its one relevant source first; q-miss only finds the reef, which is not relevant.
    assertEquals(
        List.of(new QueryScores("q-hit", 1, 1, 1), new QueryScores("q-miss", 0, 0, 0)),
        report.perQuery());
    assertEquals(0.5, report.ndcgAt10(), EXACT);
    assertEquals(0.5, report.recallAt100(), EXACT);
    assertEquals(0.5, report.mrrAt10(), EXACT);
  }

  @Test
  void run_indexesEveryDocumentAsOneSource() {
    assertEquals(3, report.documents());
    assertEquals(3, report.chunks());
  }

  @Test
  void aKeptIndexIsSearchedAgainWithoutIndexing_andOnlyWithTheSameIndexSettings(@TempDir Path dir)
      throws IOException {
    Path index = dir.resolve("kept");
    EvalReport first =
        new Evaluation(EngineConfig.defaults())
            .run(collection(), CorpusSettings.DEFAULT, index, Integer.MAX_VALUE);
    assertTrue(EvalIndex.existsIn(index), "a finished index is recorded");
    // Search-time settings may differ: BM25's k1 here.
    CorpusSettings otherK1 =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            CorpusSettings.Chunking.DEFAULT,
            new CorpusSettings.Ranking(1.2, 0.4, 2.0));
    EvalReport again =
        new Evaluation(EngineConfig.defaults())
            .run(collection(), otherK1, index, Integer.MAX_VALUE);
    assertEquals(first.perQuery(), again.perQuery());
    assertEquals(first.chunks(), again.chunks());
    assertEquals(java.time.Duration.ZERO, again.indexing(), "nothing was indexed");
    assertTrue(
        ReportFormat.text(again).contains("indexing    none (a kept index, reused)"),
        "the report says the index was reused, not a rate: " + ReportFormat.text(again));
    assertTrue(
        ReportFormat.text(first).matches("(?s).*indexing    [0-9.]+ s \\([0-9]+ documents/s\\).*"),
        ReportFormat.text(first));
    // Index-time settings may not: other chunks would need another index.
    CorpusSettings otherChunks =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(100, 20),
            CorpusSettings.Ranking.DEFAULT);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Evaluation(EngineConfig.defaults())
                    .run(collection(), otherChunks, index, Integer.MAX_VALUE));
    assertTrue(e.getMessage().contains("chunking.maxWords 250"), e::getMessage);
  }

  /**
   * A kept coded index serves exact scans of itself ({@code --exact}) without indexing again; an
   * index kept by an exact run holds no codes, so a coded run does not reuse it.
   */
  @Test
  void aKeptCodedIndexServesExactScans_andAnExactOneIsNotReusedForCodes(@TempDir Path dir)
      throws IOException {
    EngineConfig config =
        EngineConfig.builder().embeddingModels(EmbeddingModels.of(new HashingEmbedder())).build();
    CorpusSettings coded = withIndex(CorpusSettings.VectorIndex.CODES);
    List<SearchRequest.Mode> semantic = List.of(SearchRequest.Mode.SEMANTIC);
    List<SearchRequest.Fusion> noFusion = Collections.singletonList(null);
    Path index = dir.resolve("coded");
    EvalReport codes =
        new Evaluation(config)
            .run(collection(), coded, index, Integer.MAX_VALUE, semantic, noFusion)
            .get(0);
    EvalReport exact =
        new Evaluation(config, true)
            .run(collection(), coded, index, Integer.MAX_VALUE, semantic, noFusion)
            .get(0);
    assertEquals(java.time.Duration.ZERO, exact.indexing(), "the coded index was searched again");
    assertEquals("semantic (exact scan)", exact.mode());
    assertEquals("semantic", codes.mode());
    assertEquals(codes.perQuery(), exact.perQuery(), "three chunks: every one is a candidate");

    Path exactIndex = dir.resolve("exact");
    new Evaluation(config)
        .run(
            collection(),
            withIndex(CorpusSettings.VectorIndex.EXACT),
            exactIndex,
            Integer.MAX_VALUE,
            semantic,
            noFusion);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Evaluation(config)
                    .run(collection(), coded, exactIndex, Integer.MAX_VALUE, semantic, noFusion));
    assertTrue(e.getMessage().contains("embedding.codes none"), e::getMessage);
    assertTrue(e.getMessage().contains("add --index exact"), e::getMessage);
  }

  /** The test model's corpus with vectors indexed by {@code index} (sign codes when coded). */
  private static CorpusSettings withIndex(CorpusSettings.VectorIndex index) {
    return CorpusSettings.DEFAULT.withEmbedding(
        new CorpusSettings.Embedding(
            HashingEmbedder.MODEL,
            null,
            0.5,
            index,
            CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
            index == CorpusSettings.VectorIndex.CODES
                ? new CorpusSettings.FirstPass(1, CorpusSettings.FirstPass.MIN_CANDIDATES)
                : null));
  }

  @Test
  void corpusName_isAValidCorpusNameDerivedFromTheFolder() {
    assertEquals("scifact", Evaluation.corpusName("SciFact"));
    assertEquals("my-set", Evaluation.corpusName("_my set"));
    assertEquals("eval", Evaluation.corpusName("__"));
  }
}
