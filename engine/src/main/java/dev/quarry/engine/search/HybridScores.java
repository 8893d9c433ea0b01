package dev.quarry.engine.search;

import dev.quarry.engine.Hit;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import org.apache.lucene.search.TaskExecutor;

/**
 * Both sides' exact scores of a hybrid search's candidates, computed only where they are read. A
 * side's own candidates keep the score that side ranked them by (the same function of the chunk and
 * the query that would score them again). The scores a side lacks (the lexical candidates' semantic
 * scores, the semantic candidates' lexical ones) are computed, the two side by side, for the
 * candidates whose fusion reads them ({@link HybridFusion.Options#readsOtherSidesScores}: every
 * candidate, or none) and for the hits, whose score parts show both.
 */
final class HybridScores {
  private final int[] docs;
  private final Map<Integer, Integer> indexOfDoc;
  private final ExactScorer exact;
  private final DenseScorer dense;
  private final Executor executor;

  /** Each candidate's lexical score, in the order of the docs; NaN until computed. */
  final float[] lexical;

  /** Each candidate's semantic score, in the order of the docs; NaN until computed. */
  final float[] semantic;

  /**
   * The kept scores of {@code docs}, the candidates of both sides, each with its rank on each side
   * in {@code ranks} ({@link HybridFusion#ranks}; 0 outside a side's candidates).
   *
   * @param exact the lexical side's scorer, or null when the query has no lexical terms (every
   *     lexical score is then 0)
   * @param executor where the two sides' missing scores are computed side by side
   */
  HybridScores(
      int[] docs,
      Map<Integer, int[]> ranks,
      List<ScoredChunk> lexicalTop,
      List<ScoredChunk> semanticTop,
      ExactScorer exact,
      DenseScorer dense,
      Executor executor) {
    this.docs = docs;
    this.exact = exact;
    this.dense = dense;
    this.executor = executor;
    this.indexOfDoc = new HashMap<>(docs.length * 2);
    this.lexical = new float[docs.length];
    this.semantic = new float[docs.length];
    for (int i = 0; i < docs.length; i++) {
      indexOfDoc.put(docs[i], i);
      int[] rank = ranks.get(docs[i]);
      lexical[i] =
          rank[0] > 0 ? lexicalTop.get(rank[0] - 1).score() : exact == null ? 0 : Float.NaN;
      semantic[i] = rank[1] > 0 ? semanticTop.get(rank[1] - 1).score() : Float.NaN;
    }
  }

  /** Computes every candidate's missing scores. */
  void completeAll() throws IOException {
    int[] all = new int[docs.length];
    Arrays.setAll(all, i -> i);
    complete(all);
  }

  /**
   * The score parts of the candidate {@code doc}, ranked as {@code ranked} says, with both its
   * scores (computed now if missing).
   */
  Hit.ScoreParts parts(int doc, Hit.ScoreParts ranked) {
    int i = indexOfDoc.get(doc);
    assert !Float.isNaN(lexical[i]) && !Float.isNaN(semantic[i]) : "scores of " + doc;
    return new Hit.ScoreParts(lexical[i], ranked.lexicalRank(), semantic[i], ranked.semanticRank());
  }

  /** Computes the missing scores of the candidates {@code fused} holds. */
  void complete(List<HybridFusion.Fused> fused) throws IOException {
    int[] indexes = new int[fused.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = indexOfDoc.get(fused.get(i).chunk().doc());
    }
    complete(indexes);
  }

  private void complete(int[] candidates) throws IOException {
    int[] lexicalFor = missing(lexical, candidates);
    int[] semanticFor = missing(semantic, candidates);
    // Nothing missing (the hits, once every candidate has both scores): no task handed over.
    if (lexicalFor.length > 0 || semanticFor.length > 0) {
      List<float[]> computed =
          new TaskExecutor(executor)
              .invokeAll(
                  List.<Callable<float[]>>of(
                      () -> lexicalFor.length == 0 ? new float[0] : exact.scores(at(lexicalFor)),
                      () ->
                          semanticFor.length == 0 ? new float[0] : dense.scores(at(semanticFor))));
      fill(lexical, lexicalFor, computed.get(0));
      fill(semantic, semanticFor, computed.get(1));
    }
    assert keptAsComputed(candidates) : "a candidate's kept score differs from its exact score";
  }

  /** Whether each side's kept scores of {@code candidates} are what its scorer computes. */
  private boolean keptAsComputed(int[] candidates) throws IOException {
    int[] of = at(candidates);
    float[] lexicalOf = exact == null ? new float[of.length] : exact.scores(of);
    float[] semanticOf = dense.scores(of);
    for (int i = 0; i < candidates.length; i++) {
      if (Float.compare(lexical[candidates[i]], lexicalOf[i]) != 0
          || Float.compare(semantic[candidates[i]], semanticOf[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  private static int[] missing(float[] scores, int[] candidates) {
    return Arrays.stream(candidates).filter(i -> Float.isNaN(scores[i])).toArray();
  }

  private int[] at(int[] indexes) {
    int[] out = new int[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      out[i] = docs[indexes[i]];
    }
    return out;
  }

  private static void fill(float[] scores, int[] indexes, float[] values) {
    for (int i = 0; i < indexes.length; i++) {
      scores[indexes[i]] = values[i];
    }
  }
}
