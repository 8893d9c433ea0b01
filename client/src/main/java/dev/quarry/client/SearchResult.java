package dev.quarry.client;

import java.util.List;

/**
 * {@code search}: the revision answered at (ask again with it for the same answer) and the results.
 *
 * @param facets the counts of each facet field asked for, in the request's order; null when none
 *     was
 * @quarry.stable
 */
public record SearchResult(
    String corpus,
    String corpusId,
    long revision,
    long tookMs,
    List<Hit> results,
    List<Facet> facets) {
  /**
   * One field's values over every match (not only the returned hits), highest counts first.
   *
   * @param distinctValues how many distinct values the matches hold in all
   */
  public record Facet(String field, List<Value> values, long distinctValues) {}

  /**
   * One value (a string or a number; booleans count as the strings {@code "true"} and {@code
   * "false"}) and the number of distinct sources with a matching chunk holding it.
   */
  public record Value(Object value, long count) {}
}
