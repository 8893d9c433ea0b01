package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RankingMetricsTest {
  private static final double EXACT = 1e-12;

  private static double log2(int x) {
    return Math.log(x) / Math.log(2);
  }

  @Test
  void ndcg_relevantDocumentFirst_isOne() {
    assertEquals(1.0, RankingMetrics.ndcg(List.of("a", "x", "y"), Map.of("a", 1), 10), EXACT);
  }

  @Test
  void ndcg_singleRelevantAtRankThree_isOneOverLog2Four() {
    double ndcg = RankingMetrics.ndcg(List.of("x", "y", "a"), Map.of("a", 1), 10);
    assertEquals(0.5, ndcg, EXACT);
  }

  @Test
  void ndcg_usesLinearGainOfTheGrade() {
    // ranking: grade 1 then grade 2; ideal: 2 then 1. trec_eval's gain is the grade itself.
    double dcg = 1 + 2 / log2(3);
    double ideal = 2 + 1 / log2(3);
    assertEquals(
        dcg / ideal, RankingMetrics.ndcg(List.of("b", "a"), Map.of("a", 2, "b", 1), 10), EXACT);
  }

  @Test
  void ndcg_idealCountsRelevantDocumentsThatWereNotRetrieved() {
    double ideal = 1 + 1 / log2(3);
    assertEquals(
        1 / ideal, RankingMetrics.ndcg(List.of("a", "x"), Map.of("a", 1, "missing", 1), 10), EXACT);
  }

  @Test
  void ndcg_ignoresDocumentsBeyondTheCutoff() {
    assertEquals(0.0, RankingMetrics.ndcg(List.of("x", "y", "a"), Map.of("a", 1), 2), EXACT);
  }

  @Test
  void ndcg_idealIsCutAtK() {
    // Three relevant documents, cutoff 2: the ideal DCG has two terms, so two hits at the top give
    // 1.
    assertEquals(
        1.0, RankingMetrics.ndcg(List.of("a", "b"), Map.of("a", 1, "b", 1, "c", 1), 2), EXACT);
  }

  @Test
  void ndcg_judgedNonRelevantDocumentsGainNothing() {
    double ndcg = RankingMetrics.ndcg(List.of("n", "a"), Map.of("a", 1, "n", 0), 10);
    assertEquals(1 / log2(3), ndcg, EXACT);
  }

  @Test
  void allMetrics_queryWithoutRelevantDocuments_areZero() {
    Map<String, Integer> grades = Map.of("n", 0);
    assertEquals(0.0, RankingMetrics.ndcg(List.of("n"), grades, 10), EXACT);
    assertEquals(0.0, RankingMetrics.recall(List.of("n"), grades, 100), EXACT);
    assertEquals(0.0, RankingMetrics.reciprocalRank(List.of("n"), grades, 10), EXACT);
  }

  @Test
  void recall_countsRelevantFoundWithinK_overAllRelevant() {
    Map<String, Integer> grades = Map.of("a", 1, "b", 2, "c", 1, "n", 0);
    assertEquals(2.0 / 3, RankingMetrics.recall(List.of("a", "n", "b", "c"), grades, 3), EXACT);
  }

  @Test
  void recall_emptyRanking_isZero() {
    assertEquals(0.0, RankingMetrics.recall(List.of(), Map.of("a", 1), 100), EXACT);
  }

  @Test
  void reciprocalRank_isOneOverRankOfFirstRelevant() {
    assertEquals(
        0.25,
        RankingMetrics.reciprocalRank(List.of("w", "x", "y", "a", "b"), Map.of("a", 1, "b", 1), 10),
        EXACT);
  }

  @Test
  void reciprocalRank_firstRelevantBeyondK_isZero() {
    assertEquals(
        0.0, RankingMetrics.reciprocalRank(List.of("w", "x", "a"), Map.of("a", 1), 2), EXACT);
  }

  @Test
  void cutoff_belowOne_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> RankingMetrics.ndcg(List.of(), Map.of(), 0));
  }
}
