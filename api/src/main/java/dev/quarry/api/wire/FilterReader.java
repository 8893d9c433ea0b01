package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a search's {@code filter}: an object whose keys are metadata fields (each a value or a
 * condition) and the operators {@code and}, {@code or} (lists of filter objects) and {@code not}
 * (one filter object), all combined with AND. Every error names the full path of the offending part
 * ({@code filter.or[1].dept.prefix}); operators nest at most {@link Limit#MAX_FILTER_DEPTH} deep
 * and the whole filter holds at most {@link Limit#MAX_FILTER_CONDITIONS} conditions and operators,
 * so a request cannot build a query Lucene would refuse. Not thread-safe; one per request.
 */
final class FilterReader {
  static final String AND = "and";
  static final String OR = "or";
  static final String NOT = "not";

  /** The chunk's headings: a name no metadata key can take, so it never hides a metadata field. */
  static final String SECTION = "$section";

  private static final Set<String> CONDITION_KEYS =
      Set.of("in", "gt", "gte", "lt", "lte", "exists", "prefix");

  private final Limits limits;
  private int conditions;

  private FilterReader(Limits limits) {
    this.limits = limits;
  }

  /** The conditions of {@code body.filter}, or none when it is absent. */
  static List<Filter> read(WireObject body, Limits limits) {
    WireObject filter = body.optionalObject("filter");
    if (filter == null) {
      return List.of();
    }
    return new FilterReader(limits).conditionsOf(filter, 0);
  }

  /** The conditions of one filter object, enclosed by {@code depth} operators. */
  private List<Filter> conditionsOf(WireObject filter, int depth) {
    List<String> fields = filter.fieldNames();
    int maxFields = limits.getInt(Limit.MAX_FILTER_FIELDS);
    if (fields.size() > maxFields) {
      throw QuarryException.invalid(
          filter.path(),
          filter.path() + " may have at most " + maxFields + " fields; got " + fields.size());
    }
    List<Filter> out = new ArrayList<>(fields.size());
    for (String field : fields) {
      String path = filter.pathOf(field);
      count(path);
      JsonNode value = filter.raw(field);
      if (value.isNull()) {
        throw QuarryException.invalid(path, path + " is null; omit the field instead");
      }
      switch (field) {
        case AND, OR -> out.add(operands(filter, field, depth + 1));
        case NOT -> {
          checkDepth(path, depth + 1);
          out.add(new Filter.Not(group(nonEmpty(filter.optionalObject(NOT)), depth + 1)));
        }
        case SECTION -> out.add(section(value, path));
        default -> out.add(condition(field, value, path));
      }
    }
    return out;
  }

  private Filter operands(WireObject filter, String operator, int depth) {
    String path = filter.pathOf(operator);
    checkDepth(path, depth);
    List<JsonNode> items =
        filter.optionalArray(operator, limits.getInt(Limit.MAX_FILTER_CONDITIONS));
    if (items.isEmpty()) {
      throw QuarryException.invalid(path, "'" + operator + "' needs at least one filter object");
    }
    List<Filter> operands = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      operands.add(group(nonEmpty(WireObject.at(items.get(i), path + "[" + i + "]")), depth));
    }
    return operator.equals(AND) ? new Filter.AllOf(operands) : new Filter.AnyOf(operands);
  }

  /** One filter object as one condition: its fields combine with AND. */
  private Filter group(WireObject filter, int depth) {
    List<Filter> parts = conditionsOf(filter, depth);
    return parts.size() == 1 ? parts.get(0) : new Filter.AllOf(parts);
  }

  private static WireObject nonEmpty(WireObject filter) {
    if (filter.fieldNames().isEmpty()) {
      throw QuarryException.invalid(filter.path(), filter.path() + " needs at least one condition");
    }
    return filter;
  }

  private void checkDepth(String path, int depth) {
    int max = limits.getInt(Limit.MAX_FILTER_DEPTH);
    if (depth > max) {
      throw QuarryException.invalid(
          path,
          "filter operators (and, or, not) nest at most "
              + max
              + " deep; "
              + path
              + " is "
              + depth
              + " deep");
    }
  }

  private void count(String path) {
    int max = limits.getInt(Limit.MAX_FILTER_CONDITIONS);
    if (++conditions > max) {
      throw QuarryException.invalid(
          path, "filter may hold at most " + max + " conditions and operators in all");
    }
  }

  /** {@code "$section": {"prefix": ["Methods", "Data"]}}: the chunks under those headings. */
  private static Filter section(JsonNode value, String path) {
    if (!value.isObject()) {
      throw QuarryException.invalid(
          path, path + " is a condition: {\"prefix\": [\"Heading\", ...]}");
    }
    WireObject c = WireObject.at(value, path);
    c.allowOnly(Set.of("prefix"));
    String prefixPath = c.pathOf("prefix");
    if (!c.has("prefix")) {
      throw QuarryException.invalid(path, path + " needs 'prefix': the headings, outermost first");
    }
    List<JsonNode> items = c.optionalArray("prefix", Filter.SectionPrefix.MAX_HEADINGS);
    if (items.isEmpty()) {
      throw QuarryException.invalid(prefixPath, prefixPath + " needs at least one heading");
    }
    List<String> headings = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      if (!item.isTextual() || item.asText().isBlank()) {
        throw QuarryException.invalid(
            prefixPath + "[" + i + "]", "a heading is a non-blank string");
      }
      if (item.asText().length() > Metadata.MAX_VALUE_CHARS) {
        throw QuarryException.invalid(
            prefixPath + "[" + i + "]",
            "a heading is at most " + Metadata.MAX_VALUE_CHARS + " characters");
      }
      headings.add(item.asText());
    }
    return new Filter.SectionPrefix(headings);
  }

  private Filter condition(String field, JsonNode value, String path) {
    if (value.isArray()) {
      throw QuarryException.invalid(
          path, "a list is not a filter value; use {\"in\": [...]} for membership");
    }
    if (!value.isObject()) {
      return new Filter.Equals(
          field, WireValues.scalar(value, path, "a filter value is a string, number or boolean"));
    }
    WireObject c = WireObject.at(value, path);
    c.allowOnly(CONDITION_KEYS);
    List<String> keys = c.fieldNames();
    if (keys.isEmpty()) {
      throw QuarryException.invalid(
          path, "a condition needs one of in, exists, prefix, gt, gte, lt, lte");
    }
    for (String single : List.of("in", "exists", "prefix")) {
      if (c.has(single) && keys.size() > 1) {
        throw QuarryException.invalid(
            path,
            "'"
                + single
                + "' stands alone in a condition; combine conditions with"
                + " {\"and\": [...]}");
      }
    }
    if (c.has("exists")) {
      Filter exists = new Filter.Exists(field);
      return c.optionalBoolean("exists", true) ? exists : new Filter.Not(exists);
    }
    if (c.has("prefix")) {
      String prefix = c.optionalString("prefix", Metadata.MAX_VALUE_CHARS);
      if (prefix.isEmpty()) {
        throw QuarryException.invalid(
            c.pathOf("prefix"),
            "a prefix needs at least one character; use" + " {\"exists\": true} for any value");
      }
      return new Filter.Prefix(field, prefix);
    }
    if (c.has("in")) {
      List<JsonNode> items = c.optionalArray("in", limits.getInt(Limit.MAX_FILTER_VALUES));
      if (items.isEmpty()) {
        throw QuarryException.invalid(c.pathOf("in"), "'in' needs at least one value");
      }
      List<Object> values = new ArrayList<>(items.size());
      for (int i = 0; i < items.size(); i++) {
        values.add(
            WireValues.scalar(
                items.get(i),
                c.pathOf("in") + "[" + i + "]",
                "an 'in' value is a string, number or boolean"));
      }
      return new Filter.In(field, values);
    }
    return new Filter.Range(
        field,
        c.optionalNumber("gt"),
        c.optionalNumber("gte"),
        c.optionalNumber("lt"),
        c.optionalNumber("lte"));
  }
}
