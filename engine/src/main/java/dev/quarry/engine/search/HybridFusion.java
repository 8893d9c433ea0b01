package dev.quarry.engine.search;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuses a lexical and a semantic ranking of candidates into one.
 *
 * <p>Convex: each side's scores are normalized to [0, 1] and the fused score is {@code w * semantic
 * + (1 - w) * lexical}. Min-max normalization spans each side's candidates (the best becomes 1, the
 * last candidate 0; a chunk outside a side's candidates counts as 0 there); theoretical
 * normalization spans the least score the side's function can give ({@link #LEXICAL_FLOOR}, {@link
 * #SEMANTIC_FLOOR}) to the side's best, and every candidate is normalized from its exact score on
 * both sides. RRF: the sum over sides of {@code 1 / (60 + rank)}. Both are computed in double from
 * the exact per-side scores, in a fixed order, then rounded once to float; ties are broken by
 * source then chunk like every ranking here.
 */
public final class HybridFusion {
  /** RRF's constant from Cormack, Clarke and Büttcher (SIGIR 2009), used unchanged since. */
  static final int RRF_K = 60;

  /** BM25's least score: a chunk without any query term. */
  static final float LEXICAL_FLOOR = 0f;

  /** A cosine's least value: the opposite direction. */
  static final float SEMANTIC_FLOOR = -1f;

  private HybridFusion() {}

  /**
   * A candidate with each side's exact score and its rank (0 when not among that side's
   * candidates).
   */
  record Candidate(
      ScoredChunk chunk,
      float lexicalScore,
      int lexicalRank,
      float semanticScore,
      int semanticRank) {
    Hit.ScoreParts parts() {
      return new Hit.ScoreParts(
          lexicalScore,
          lexicalRank == 0 ? null : lexicalRank,
          semanticScore,
          semanticRank == 0 ? null : semanticRank);
    }
  }

  /**
   * The candidates of both sides by doc, each with its rank on each side.
   *
   * @param lexical the lexical candidates in result order
   * @param semantic the semantic candidates in result order
   */
  public static Map<Integer, int[]> ranks(List<ScoredChunk> lexical, List<ScoredChunk> semantic) {
    Map<Integer, int[]> ranks = new LinkedHashMap<>();
    for (int i = 0; i < lexical.size(); i++) {
      ranks.computeIfAbsent(lexical.get(i).doc(), d -> new int[2])[0] = i + 1;
    }
    for (int i = 0; i < semantic.size(); i++) {
      ranks.computeIfAbsent(semantic.get(i).doc(), d -> new int[2])[1] = i + 1;
    }
    return ranks;
  }

  /**
   * How a request fuses on a corpus whose embedding is {@code embedding}: the request's own fusion
   * where it sets one, the corpus's semantic weight and normalization otherwise.
   */
  public record Options(
      SearchRequest.Fusion.Method method,
      double semanticWeight,
      CorpusSettings.Normalization normalization) {
    public static Options of(SearchRequest request, CorpusSettings.Embedding embedding) {
      SearchRequest.Fusion fusion = request.fusion();
      SearchRequest.Fusion.Method method =
          fusion == null ? SearchRequest.Fusion.Method.CONVEX : fusion.method();
      double weight =
          fusion != null && fusion.semanticWeight() != null
              ? fusion.semanticWeight()
              : embedding.semanticWeight();
      CorpusSettings.Normalization normalization =
          fusion != null && fusion.normalization() != null
              ? fusion.normalization()
              : embedding.normalization();
      return new Options(method, weight, normalization);
    }

    /**
     * Whether fusing reads each candidate's score on the side that did not find it: convex fusion
     * with theoretical normalization does; RRF reads ranks alone, and min-max counts a chunk
     * outside a side's candidates as 0 there.
     */
    public boolean readsOtherSidesScores() {
      return method == SearchRequest.Fusion.Method.CONVEX
          && normalization == CorpusSettings.Normalization.THEORETICAL;
    }
  }

  /** A chunk of the fused ranking: its fused score, and each side's exact score and rank. */
  public record Fused(ScoredChunk chunk, Hit.ScoreParts parts) {}

  /**
   * The fused ranking of the two sides' candidates: every candidate with both its exact scores, the
   * best {@code topK} kept under {@code maxChunksPerSource}. The one home of the fusion both stores
   * answer with.
   *
   * @param lexical the lexical candidates in result order
   * @param semantic the semantic candidates in result order
   * @param docs the candidates' docs in {@link #ranks}' order
   * @param lexicalScores each of {@code docs}' exact lexical score (0 without a query term); NaN
   *     for a chunk outside the lexical candidates when {@link Options#readsOtherSidesScores} is
   *     false (its parts then show NaN, for the caller to replace)
   * @param semanticScores each of {@code docs}' exact semantic score; NaN as for {@code
   *     lexicalScores}
   */
  public static List<Fused> rank(
      List<ScoredChunk> lexical,
      List<ScoredChunk> semantic,
      Map<Integer, int[]> ranks,
      int[] docs,
      float[] lexicalScores,
      float[] semanticScores,
      Options options,
      int topK,
      Integer maxChunksPerSource) {
    Map<Integer, ScoredChunk> chunksByDoc = new HashMap<>();
    lexical.forEach(c -> chunksByDoc.put(c.doc(), c));
    semantic.forEach(c -> chunksByDoc.put(c.doc(), c));
    CorpusSettings.Normalization normalization = options.normalization();
    Range lexicalRange = Range.of(lexical, normalization, LEXICAL_FLOOR);
    Range semanticRange = Range.of(semantic, normalization, SEMANTIC_FLOOR);
    TopChunks fused = new TopChunks(topK, maxChunksPerSource);
    Map<Integer, Candidate> candidatesByDoc = new HashMap<>();
    for (int i = 0; i < docs.length; i++) {
      int[] r = ranks.get(docs[i]);
      ScoredChunk c = chunksByDoc.get(docs[i]);
      Candidate candidate = new Candidate(c, lexicalScores[i], r[0], semanticScores[i], r[1]);
      candidatesByDoc.put(docs[i], candidate);
      float score =
          fuse(
              candidate,
              options.method(),
              options.semanticWeight(),
              normalization,
              lexicalRange,
              semanticRange);
      fused.offer(new ScoredChunk(c.doc(), score, c.source(), c.chunk()));
    }
    List<Fused> out = new ArrayList<>();
    for (ScoredChunk c : fused.results()) {
      out.add(new Fused(c, candidatesByDoc.get(c.doc()).parts()));
    }
    return out;
  }

  /** The fused score of {@code c}. */
  static float fuse(
      Candidate c,
      SearchRequest.Fusion.Method method,
      double semanticWeight,
      CorpusSettings.Normalization normalization,
      Range lexical,
      Range semantic) {
    if (method == SearchRequest.Fusion.Method.RRF) {
      double sum = 0;
      if (c.lexicalRank() > 0) {
        sum += 1.0 / (RRF_K + c.lexicalRank());
      }
      if (c.semanticRank() > 0) {
        sum += 1.0 / (RRF_K + c.semanticRank());
      }
      return (float) sum;
    }
    boolean exactBoth = normalization == CorpusSettings.Normalization.THEORETICAL;
    double lex = exactBoth || c.lexicalRank() > 0 ? lexical.normalize(c.lexicalScore()) : 0;
    double sem = exactBoth || c.semanticRank() > 0 ? semantic.normalize(c.semanticScore()) : 0;
    return (float) (semanticWeight * sem + (1 - semanticWeight) * lex);
  }

  /** The score range of one side's candidates. */
  record Range(float min, float max, double flat) {
    /** A range whose scores, when all equal, count 1 (min-max: every candidate is the best). */
    Range(float min, float max) {
      this(min, max, 1);
    }

    /** From the last candidate's score to the best's. */
    static Range of(List<ScoredChunk> ranked) {
      if (ranked.isEmpty()) {
        return new Range(0, 0);
      }
      return new Range(ranked.get(ranked.size() - 1).score(), ranked.get(0).score());
    }

    /**
     * The range {@code normalization} spans for one side's candidates: {@link #of} for min-max;
     * from {@code floor}, the least score the side's function can give, to the best candidate's for
     * theoretical.
     */
    static Range of(
        List<ScoredChunk> ranked, CorpusSettings.Normalization normalization, float floor) {
      if (normalization != CorpusSettings.Normalization.THEORETICAL) {
        return of(ranked);
      }
      // No candidate above the floor (no chunk has a query term): every score is the least
      // possible, so every candidate counts 0 on this side.
      return new Range(floor, ranked.isEmpty() ? floor : Math.max(floor, ranked.get(0).score()), 0);
    }

    /** {@code score} in [0, 1]; {@link #flat} when the range is empty. */
    double normalize(float score) {
      assert !Float.isNaN(score) : "a score fusion reads was not computed";
      if (max <= min) {
        return flat;
      }
      return Math.max(0, Math.min(1, ((double) score - min) / ((double) max - min)));
    }
  }
}
