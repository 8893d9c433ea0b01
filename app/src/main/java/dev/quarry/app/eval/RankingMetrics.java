package dev.quarry.app.eval;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The ranking metrics of trec_eval, as BEIR reports them, for one query's ranking.
 *
 * <ul>
 *   <li>{@link #ndcg} is trec_eval's {@code ndcg_cut}: gain is the judged grade itself (linear, not
 *       2^grade - 1), discounted by log2(rank + 1), divided by the DCG of the ideal ordering of all
 *       the query's judgments. Unjudged documents have gain 0.
 *   <li>{@link #recall} is {@code recall}: relevant documents (grade 1 or more) in the first k,
 *       over all relevant documents of the query, retrieved or not.
 *   <li>{@link #reciprocalRank} is BEIR's MRR@k: 1 / rank of the first relevant document within the
 *       first k, else 0.
 * </ul>
 *
 * <p>A query with judgments but no relevant document scores 0 on every metric (trec_eval does the
 * same). Rankings are taken as given: ties are not re-broken.
 */
public final class RankingMetrics {
  private RankingMetrics() {}

  /** Normalised discounted cumulative gain of the first {@code k} of {@code ranking}. */
  public static double ndcg(List<String> ranking, Map<String, Integer> grades, int k) {
    checkCutoff(k);
    double dcg = 0;
    int depth = Math.min(k, ranking.size());
    for (int i = 0; i < depth; i++) {
      dcg += gain(grades.get(ranking.get(i))) / log2(i + 2);
    }
    List<Integer> ideal =
        grades.values().stream()
            .filter(g -> g > 0)
            .sorted(Comparator.reverseOrder())
            .limit(k)
            .toList();
    double idealDcg = 0;
    for (int i = 0; i < ideal.size(); i++) {
      idealDcg += ideal.get(i) / log2(i + 2);
    }
    return idealDcg == 0 ? 0 : dcg / idealDcg;
  }

  /**
   * The fraction of the query's relevant documents found in the first {@code k} of {@code ranking}.
   */
  public static double recall(List<String> ranking, Map<String, Integer> grades, int k) {
    checkCutoff(k);
    long relevant = grades.values().stream().filter(g -> g > 0).count();
    if (relevant == 0) {
      return 0;
    }
    long found =
        ranking.stream().limit(k).distinct().filter(id -> isRelevant(grades.get(id))).count();
    return (double) found / relevant;
  }

  /** 1 / rank of the first relevant document in the first {@code k} of {@code ranking}, else 0. */
  public static double reciprocalRank(List<String> ranking, Map<String, Integer> grades, int k) {
    checkCutoff(k);
    int depth = Math.min(k, ranking.size());
    for (int i = 0; i < depth; i++) {
      if (isRelevant(grades.get(ranking.get(i)))) {
        return 1.0 / (i + 1);
      }
    }
    return 0;
  }

  private static double gain(Integer grade) {
    return grade == null || grade < 0 ? 0 : grade;
  }

  private static boolean isRelevant(Integer grade) {
    return grade != null && grade > 0;
  }

  private static double log2(int x) {
    return Math.log(x) / Math.log(2);
  }

  private static void checkCutoff(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("cutoff k must be at least 1; got " + k);
    }
  }
}
