package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * The value counts of one metadata field over a search's matches: how many distinct sources have at
 * least one matching chunk with each value. Values are ordered by count (highest first), ties by
 * value: numbers in numeric order before strings in code point order.
 *
 * @param values the first values in that order, at most the request's size
 * @param distinctValues how many distinct values the matches hold in all (at least {@code
 *     values.size()})
 * @quarry.stable
 */
public record FacetCounts(String field, List<Value> values, int distinctValues) {
  public FacetCounts {
    Objects.requireNonNull(field, "field");
    values = List.copyOf(values);
    if (distinctValues < values.size()) {
      throw new IllegalArgumentException(
          "distinctValues " + distinctValues + " < " + values.size() + " values");
    }
  }

  /**
   * One value and its count.
   *
   * @param value a String (strings, list elements and booleans, which are indexed as the words
   *     {@code true} and {@code false}), or a Long or Double (numbers; integral ones as Long)
   * @param count the number of distinct sources with a matching chunk holding the value
   */
  public record Value(Object value, long count) {
    public Value {
      if (!(value instanceof String || value instanceof Long || value instanceof Double)) {
        throw new IllegalArgumentException(
            "a facet value is a String, Long or Double; got " + value);
      }
    }
  }
}
