package dev.quarry.app.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Relevance judgments (qrels): for each judged query, the graded relevance of each judged document.
 * A grade of 1 or more means relevant, as in trec_eval's default {@code relevance_level}; 0 and
 * below mean judged but not relevant.
 *
 * @param byQuery query id to (document id to grade); copied, unmodifiable
 */
public record Judgments(Map<String, Map<String, Integer>> byQuery) {
  public Judgments {
    Objects.requireNonNull(byQuery, "byQuery");
    Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
    byQuery.forEach((query, grades) -> copy.put(query, Map.copyOf(grades)));
    byQuery = Collections.unmodifiableMap(copy);
  }

  /** Whether {@code queryId} has any judgment at all; queries without one are not evaluated. */
  public boolean isJudged(String queryId) {
    return byQuery.containsKey(queryId);
  }

  /** The grades of {@code queryId}'s judged documents; empty when it has none. */
  public Map<String, Integer> grades(String queryId) {
    return byQuery.getOrDefault(queryId, Map.of());
  }
}
