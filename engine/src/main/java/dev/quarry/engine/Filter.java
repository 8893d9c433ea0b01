package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/** One metadata condition of a search; a search's conditions combine with AND. */
public sealed interface Filter permits Filter.Equals, Filter.In, Filter.Range {

  String field();

  /**
   * Equality; on list-valued metadata, any element matches. {@code value} is a String, Long, Double
   * or Boolean.
   */
  record Equals(String field, Object value) implements Filter {
    public Equals {
      Objects.requireNonNull(field, "field");
      checkScalar(value, field);
    }
  }

  /** Membership: equality with any of {@code values}. */
  record In(String field, List<Object> values) implements Filter {
    public In {
      Objects.requireNonNull(field, "field");
      values = List.copyOf(values);
      for (Object v : values) {
        checkScalar(v, field);
      }
    }
  }

  /** A numeric range; null bounds are open. */
  record Range(String field, Double gt, Double gte, Double lt, Double lte) implements Filter {
    public Range {
      Objects.requireNonNull(field, "field");
      if (gt == null && gte == null && lt == null && lte == null) {
        throw QuarryException.invalid("filter." + field, "a range needs at least one of gt, gte, lt, lte");
      }
    }
  }

  private static void checkScalar(Object v, String field) {
    if (!(v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean)) {
      throw QuarryException.invalid("filter." + field, "filter values are strings, numbers or booleans");
    }
  }
}
