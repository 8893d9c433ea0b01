package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusSettings.Normalization;
import dev.quarry.engine.SearchRequest.Fusion.Method;
import java.util.List;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/** The arithmetic of convex fusion under both normalizations, and of RRF. */
class HybridFusionTest {
  private static final double EPS = 1e-6;

  private static ScoredChunk chunk(int doc, float score) {
    return new ScoredChunk(doc, score, new BytesRef("s" + doc), 0);
  }

  /** Lexical candidates scoring 10, 6, 2; semantic candidates scoring 0.8, 0.5, 0.2. */
  private static final List<ScoredChunk> LEXICAL =
      List.of(chunk(1, 10f), chunk(2, 6f), chunk(3, 2f));

  private static final List<ScoredChunk> SEMANTIC =
      List.of(chunk(4, 0.8f), chunk(2, 0.5f), chunk(5, 0.2f));

  @Test
  void minMaxSpansEachSidesCandidates() {
    HybridFusion.Range lex =
        HybridFusion.Range.of(LEXICAL, Normalization.MINMAX, HybridFusion.LEXICAL_FLOOR);
    HybridFusion.Range sem =
        HybridFusion.Range.of(SEMANTIC, Normalization.MINMAX, HybridFusion.SEMANTIC_FLOOR);
    assertEquals(new HybridFusion.Range(2f, 10f), lex);
    assertEquals(1.0, lex.normalize(10f), EPS);
    assertEquals(0.5, lex.normalize(6f), EPS);
    assertEquals(0.0, lex.normalize(2f), EPS, "the last candidate becomes 0");
    assertEquals(0.5, sem.normalize(0.5f), EPS);
    // Doc 2 is on both sides: 0.5 lexical, 0.5 semantic.
    assertEquals(0.5, fuse(2, 6f, 2, 0.5f, 2, 0.3, Normalization.MINMAX, lex, sem), EPS);
    // Doc 4 is semantic only: its exact lexical score (1.5) is not used, it counts 0 there.
    assertEquals(0.7 * 1.0, fuse(4, 1.5f, 0, 0.8f, 1, 0.7, Normalization.MINMAX, lex, sem), EPS);
  }

  @Test
  void theoreticalSpansFromTheFunctionsLeastScoreToTheBest() {
    HybridFusion.Range lex =
        HybridFusion.Range.of(LEXICAL, Normalization.THEORETICAL, HybridFusion.LEXICAL_FLOOR);
    HybridFusion.Range sem =
        HybridFusion.Range.of(SEMANTIC, Normalization.THEORETICAL, HybridFusion.SEMANTIC_FLOOR);
    assertEquals(0f, lex.min());
    assertEquals(10f, lex.max());
    assertEquals(-1f, sem.min());
    assertEquals(0.8f, sem.max());
    assertEquals(
        0.2, lex.normalize(2f), EPS, "the last candidate keeps its distance from the floor");
    assertEquals((0.2 + 1) / 1.8, sem.normalize(0.2f), EPS);
    // Doc 2: lexical 6/10, semantic 1.5/1.8, weight 0.3 on the semantic side.
    assertEquals(
        0.3 * (1.5 / 1.8) + 0.7 * 0.6,
        fuse(2, 6f, 2, 0.5f, 2, 0.3, Normalization.THEORETICAL, lex, sem),
        EPS);
    // Doc 4 is semantic only: its exact lexical score counts (1.5 of 10), not 0.
    assertEquals(
        0.5 * 1.0 + 0.5 * 0.15,
        fuse(4, 1.5f, 0, 0.8f, 1, 0.5, Normalization.THEORETICAL, lex, sem),
        EPS);
    // A semantic score above the best candidate's (an approximate search can miss the best) is
    // capped at 1.
    assertEquals(1.0, sem.normalize(0.9f), EPS);
  }

  @Test
  void theoreticalWithoutAnyLexicalCandidateCountsZeroThere() {
    HybridFusion.Range lex =
        HybridFusion.Range.of(List.of(), Normalization.THEORETICAL, HybridFusion.LEXICAL_FLOOR);
    HybridFusion.Range sem =
        HybridFusion.Range.of(SEMANTIC, Normalization.THEORETICAL, HybridFusion.SEMANTIC_FLOOR);
    assertEquals(0.0, lex.normalize(0f), EPS);
    assertEquals(0.5 * 1.0, fuse(4, 0f, 0, 0.8f, 1, 0.5, Normalization.THEORETICAL, lex, sem), EPS);
    // Min-max keeps its old convention: a side whose candidates all score alike counts 1.
    assertEquals(1.0, HybridFusion.Range.of(List.of(chunk(1, 3f))).normalize(3f), EPS);
  }

  @Test
  void rrfIgnoresScoresAndNormalization() {
    HybridFusion.Range any = new HybridFusion.Range(0f, 1f);
    HybridFusion.Candidate c = new HybridFusion.Candidate(chunk(2, 0f), 6f, 2, 0.5f, 3);
    assertEquals(
        1.0 / 62 + 1.0 / 63,
        HybridFusion.fuse(c, Method.RRF, 0.5, Normalization.THEORETICAL, any, any),
        EPS);
  }

  private static double fuse(
      int doc,
      float lexScore,
      int lexRank,
      float semScore,
      int semRank,
      double weight,
      Normalization normalization,
      HybridFusion.Range lex,
      HybridFusion.Range sem) {
    HybridFusion.Candidate c =
        new HybridFusion.Candidate(chunk(doc, 0f), lexScore, lexRank, semScore, semRank);
    return HybridFusion.fuse(c, Method.CONVEX, weight, normalization, lex, sem);
  }
}
