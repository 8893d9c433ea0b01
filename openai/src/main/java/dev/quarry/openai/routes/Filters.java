package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * OpenAI's attribute filters as Quarry's: a comparison {@code {"key", "type", "value"}} with {@code
 * eq} (equality; on a list-valued attribute, any element), {@code ne} (its negation), {@code gt},
 * {@code gte}, {@code lt}, {@code lte} (numeric ranges: a string bound is refused), {@code in} and
 * {@code nin} (membership and its negation); a compound {@code {"type": "and" | "or", "filters"}}.
 * Nesting is bounded as Quarry's filters are ({@value Filter#MAX_DEPTH} operators deep).
 */
final class Filters {
  private Filters() {}

  static Filter read(JsonNode node, String param) {
    if (node == null || !node.isObject()) {
      throw new OpenAiException(
          400, "Invalid type for '" + param + "': expected an object.", param, "invalid_type");
    }
    JsonNode type = node.get("type");
    if (type != null
        && type.isTextual()
        && (type.asText().equals("and") || type.asText().equals("or"))) {
      Params p = Params.of(node, param, Set.of("type", "filters"));
      JsonNode list = p.get("filters");
      if (list == null) {
        throw p.missing("filters");
      }
      if (!list.isArray() || list.isEmpty()) {
        throw p.invalidValue(
            "filters", "'" + p.path("filters") + "' must be a non-empty array of filters.");
      }
      List<Filter> parts = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        parts.add(read(list.get(i), param + ".filters[" + i + "]"));
      }
      return type.asText().equals("and") ? new Filter.AllOf(parts) : new Filter.AnyOf(parts);
    }
    Params p = Params.of(node, param, Set.of("key", "type", "value"));
    String key = p.string("key");
    Metadata.checkKey(key, p.path("key"));
    String op = p.string("type");
    JsonNode value = p.get("value");
    if (value == null) {
      throw p.missing("value");
    }
    String valuePath = p.path("value");
    return switch (op) {
      case "eq" -> new Filter.Equals(key, scalar(value, valuePath, true));
      case "ne" -> new Filter.Not(new Filter.Equals(key, scalar(value, valuePath, true)));
      case "gt", "gte", "lt", "lte" -> range(key, op, value, valuePath);
      case "in" -> new Filter.In(key, list(value, valuePath));
      case "nin" -> new Filter.Not(new Filter.In(key, list(value, valuePath)));
      default ->
          throw p.invalidValue(
              "type",
              "'"
                  + p.path("type")
                  + "' must be one of eq, ne, gt, gte, lt, lte, in, nin, and, or; got '"
                  + op
                  + "'.");
    };
  }

  private static Filter range(String key, String op, JsonNode value, String path) {
    if (!value.isNumber()) {
      throw OpenAiException.unsupported(
          path, "'" + op + "' compares numbers on Quarry; '" + path + "' must be a number.");
    }
    double v = value.doubleValue();
    return switch (op) {
      case "gt" -> new Filter.Range(key, v, null, null, null);
      case "gte" -> new Filter.Range(key, null, v, null, null);
      case "lt" -> new Filter.Range(key, null, null, v, null);
      default -> new Filter.Range(key, null, null, null, v);
    };
  }

  private static List<Object> list(JsonNode value, String path) {
    if (!value.isArray()) {
      throw new OpenAiException(
          400, "Invalid type for '" + path + "': expected an array.", path, "invalid_type");
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      out.add(scalar(value.get(i), path + "[" + i + "]", false));
    }
    return out;
  }

  /**
   * A string, a number (whole numbers as Quarry's integers) or, when {@code booleans}, a boolean.
   */
  private static Object scalar(JsonNode v, String path, boolean booleans) {
    if (v.isTextual()) {
      return v.asText();
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.longValue();
    }
    if (v.isNumber()) {
      double d = v.doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) (long) d : (Object) d;
    }
    if (booleans && v.isBoolean()) {
      return v.booleanValue();
    }
    throw new OpenAiException(
        400,
        "Invalid type for '"
            + path
            + "': expected a string"
            + (booleans ? ", number or boolean" : " or number")
            + ".",
        path,
        "invalid_type");
  }
}
