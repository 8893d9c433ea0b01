package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * One metadata condition of a search; a search's conditions combine with AND. Field conditions
 * ({@link Equals}, {@link In}, {@link Range}, {@link Exists}, {@link Prefix}) test one metadata
 * key, {@link SectionPrefix} the headings above a chunk; the operators ({@link AllOf}, {@link
 * AnyOf}, {@link Not}) combine conditions, nested at most {@link #MAX_DEPTH} operators deep.
 *
 * @quarry.stable
 */
public sealed interface Filter
    permits Filter.Equals,
        Filter.In,
        Filter.Range,
        Filter.Exists,
        Filter.Prefix,
        Filter.SectionPrefix,
        Filter.AllOf,
        Filter.AnyOf,
        Filter.Not {

  /**
   * How many operators ({@code and}, {@code or}, {@code not}) may enclose a condition. Deep enough
   * for any filter a person writes ({@code not} inside {@code or} inside {@code and} leaves one
   * level spare); a bound so that a request cannot build a query tree Lucene would refuse or
   * recurse on without end.
   */
  int MAX_DEPTH = 4;

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
        throw QuarryException.invalid(
            "filter." + field, "a range needs at least one of gt, gte, lt, lte");
      }
    }
  }

  /** The field has a value (of any type; on a list, at least one element). */
  record Exists(String field) implements Filter {
    public Exists {
      Objects.requireNonNull(field, "field");
    }
  }

  /**
   * A string value (or a list element) that starts with {@code prefix}, compared as exact
   * characters.
   */
  record Prefix(String field, String prefix) implements Filter {
    public Prefix {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(prefix, "prefix");
      if (prefix.isEmpty()) {
        throw QuarryException.invalid(
            "filter." + field, "a prefix needs at least one character; use exists");
      }
    }
  }

  /**
   * A chunk whose section (the headings above it, outermost first) starts with {@code headings},
   * each compared as exact characters: {@code ["Methods"]} matches the chunks under "Methods" at
   * any depth, {@code ["Methods", "Data"]} those under its "Data" part. Chunks without a section
   * never match.
   */
  record SectionPrefix(List<String> headings) implements Filter {
    /** The most headings a section prefix names: Markdown's and HTML's six levels. */
    public static final int MAX_HEADINGS = 6;

    public SectionPrefix {
      headings = List.copyOf(headings);
      if (headings.isEmpty() || headings.size() > MAX_HEADINGS) {
        throw QuarryException.invalid(
            "filter",
            "a section prefix names 1 to " + MAX_HEADINGS + " headings; got " + headings.size());
      }
      for (String h : headings) {
        if (h.isBlank()) {
          throw QuarryException.invalid("filter", "a section prefix names non-blank headings");
        }
      }
    }
  }

  /** Every one of {@code filters}. */
  record AllOf(List<Filter> filters) implements Filter {
    public AllOf {
      filters = List.copyOf(filters);
      if (filters.isEmpty()) {
        throw QuarryException.invalid("filter", "'and' needs at least one condition");
      }
    }
  }

  /** At least one of {@code filters}. */
  record AnyOf(List<Filter> filters) implements Filter {
    public AnyOf {
      filters = List.copyOf(filters);
      if (filters.isEmpty()) {
        throw QuarryException.invalid("filter", "'or' needs at least one condition");
      }
    }
  }

  /**
   * The chunks {@code filter} does not match, including those without the field at all (as
   * Elasticsearch's {@code must_not}).
   */
  record Not(Filter filter) implements Filter {
    public Not {
      Objects.requireNonNull(filter, "filter");
    }
  }

  /**
   * How many operators enclose the deepest condition of {@code filter} (0 for a field condition).
   */
  static int depth(Filter filter) {
    return switch (filter) {
      case AllOf all -> 1 + all.filters().stream().mapToInt(Filter::depth).max().orElse(0);
      case AnyOf any -> 1 + any.filters().stream().mapToInt(Filter::depth).max().orElse(0);
      case Not not -> 1 + depth(not.filter());
      default -> 0;
    };
  }

  private static void checkScalar(Object v, String field) {
    if (!(v instanceof String
        || v instanceof Long
        || v instanceof Double
        || v instanceof Boolean)) {
      throw QuarryException.invalid(
          "filter." + field, "filter values are strings, numbers or booleans");
    }
  }
}
