package dev.quarry.client;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A search's metadata filter, built from conditions on fields and the operators {@code or}, {@code
 * and} and {@code not}: {@code SearchFilter.anyOf(SearchFilter.equal("dept", "hr"),
 * SearchFilter.prefix("dept", "leg")).and(SearchFilter.atLeast("year", 2020))}. It is the map the
 * wire's {@code filter} holds ({@link #asMap()}); the server checks it (depth, number of
 * conditions) and names the offending part by its path. Immutable.
 *
 * @quarry.stable
 */
public final class SearchFilter {
  private final Map<String, Object> parts;

  private SearchFilter(Map<String, Object> parts) {
    this.parts = Collections.unmodifiableMap(parts);
  }

  private static SearchFilter one(String key, Object value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
    return new SearchFilter(m);
  }

  /**
   * {@code field} equals {@code value} (a string, number or boolean), or any element of a list
   * holds it.
   */
  public static SearchFilter equal(String field, Object value) {
    return one(field, value);
  }

  /** {@code field} equals one of {@code values}. */
  public static SearchFilter in(String field, Object... values) {
    return one(field, Map.of("in", List.of(values)));
  }

  /** {@code field} has a value of any type. */
  public static SearchFilter exists(String field) {
    return one(field, Map.of("exists", true));
  }

  /** {@code field} has no value. */
  public static SearchFilter missing(String field) {
    return one(field, Map.of("exists", false));
  }

  /**
   * The passage lies under these headings, outermost first ({@code "$section": {"prefix": [...]}}):
   * {@code section("Methods")} matches every passage under "Methods", {@code section("Methods",
   * "Data")} those under its "Data" part.
   */
  public static SearchFilter section(String... headings) {
    return one("$section", Map.of("prefix", List.of(headings)));
  }

  /** A string value of {@code field} starts with {@code prefix}. */
  public static SearchFilter prefix(String field, String prefix) {
    return one(field, Map.of("prefix", prefix));
  }

  /** {@code field >= min}. */
  public static SearchFilter atLeast(String field, Number min) {
    return one(field, Map.of("gte", min));
  }

  /** {@code field <= max}. */
  public static SearchFilter atMost(String field, Number max) {
    return one(field, Map.of("lte", max));
  }

  /** {@code min <= field < end}. */
  public static SearchFilter between(String field, Number min, Number end) {
    return one(field, Map.of("gte", min, "lt", end));
  }

  /** Any of {@code filters} holds. */
  public static SearchFilter anyOf(SearchFilter... filters) {
    return one("or", Arrays.stream(filters).map(SearchFilter::asMap).toList());
  }

  /** Every one of {@code filters} holds (for two conditions on one field). */
  public static SearchFilter allOf(SearchFilter... filters) {
    return one("and", Arrays.stream(filters).map(SearchFilter::asMap).toList());
  }

  /** {@code filter} does not hold (also true of chunks without its fields). */
  public static SearchFilter not(SearchFilter filter) {
    return one("not", filter.asMap());
  }

  /**
   * This filter and {@code other}: their keys side by side, or an {@code and} of both when a key is
   * in each.
   */
  public SearchFilter and(SearchFilter other) {
    if (!Collections.disjoint(parts.keySet(), other.parts.keySet())) {
      return allOf(this, other);
    }
    Map<String, Object> m = new LinkedHashMap<>(parts);
    m.putAll(other.parts);
    return new SearchFilter(m);
  }

  /** The wire's {@code filter} object. */
  public Map<String, Object> asMap() {
    return parts;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SearchFilter f && f.parts.equals(parts);
  }

  @Override
  public int hashCode() {
    return parts.hashCode();
  }

  @Override
  public String toString() {
    return parts.toString();
  }
}
