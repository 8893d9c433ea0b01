package dev.quarry.engine.search;

import dev.quarry.engine.FacetCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.util.BytesRef;

/**
 * The answer of one facet field from its counted values: highest count first, equal counts by value
 * (numbers in numeric order before strings in code point order), the first {@code size} of them,
 * and how many there are in all. Every store ranks its counts here, so the same counts give the
 * same answer on each.
 */
public final class FacetRanking {
  /** Numbers before strings; numbers numerically, strings by UTF-8 bytes (code point order). */
  static final Comparator<Object> VALUE_ORDER =
      (a, b) -> {
        if (a instanceof Double x && b instanceof Double y) {
          return Double.compare(x, y);
        }
        if (a instanceof BytesRef x && b instanceof BytesRef y) {
          return x.compareTo(y);
        }
        return a instanceof Double ? -1 : 1;
      };

  private FacetRanking() {}

  /**
   * @param values each distinct value once: a Double (a number) or a BytesRef (a string, list
   *     element or boolean, as indexed)
   * @param counts each value's count: the distinct sources with a matching chunk holding it
   */
  public static FacetCounts rank(String field, List<Object> values, long[] counts, int size) {
    Integer[] order = new Integer[values.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        Comparator.<Integer>comparingLong(i -> -counts[i])
            .thenComparing(i -> values.get(i), VALUE_ORDER));
    List<FacetCounts.Value> top = new ArrayList<>(Math.min(size, order.length));
    for (int i = 0; i < order.length && i < size; i++) {
      top.add(new FacetCounts.Value(wireValue(values.get(order[i])), counts[order[i]]));
    }
    return new FacetCounts(field, top, values.size());
  }

  /** Integral numbers as Long (2020, not 2020.0), others as Double; terms as strings. */
  private static Object wireValue(Object value) {
    if (value instanceof Double d) {
      boolean integral = d == Math.rint(d) && Math.abs(d) < 0x1p53 && !(d == 0 && 1 / d < 0);
      return integral ? (Object) d.longValue() : d;
    }
    return ((BytesRef) value).utf8ToString();
  }
}
