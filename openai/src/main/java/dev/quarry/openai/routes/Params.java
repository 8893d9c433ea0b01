package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Strict reading of one JSON object of a request (or of its query string): a field outside {@code
 * allowed} is 400 {@code unknown_parameter} naming it, a value of the wrong type 400 {@code
 * invalid_type}, a missing required one 400 {@code missing_required_parameter}. As OpenAI's API
 * accepts it, {@code null} reads as an absent value. Nothing is coerced: {@code "10"} is no number.
 */
final class Params {
  private final JsonNode node;
  private final String prefix;

  private Params(JsonNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /**
   * The object {@code node} at {@code path} ("" for the body), holding only {@code allowed} fields.
   */
  static Params of(JsonNode node, String path, Set<String> allowed) {
    if (!(node instanceof ObjectNode)) {
      throw new OpenAiException(
          400,
          "Invalid type for '" + (path.isEmpty() ? "body" : path) + "': expected an object.",
          path.isEmpty() ? null : path,
          "invalid_type");
    }
    String prefix = path.isEmpty() ? "" : path + ".";
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw OpenAiException.unknownParameter(prefix + name);
      }
    }
    return new Params(node, prefix);
  }

  /** The query string's parameters, each given once, holding only {@code allowed} names. */
  static Map<String, String> query(Context ctx, Set<String> allowed) {
    Map<String, List<String>> all = ctx.queryParamMap();
    TreeMap<String, String> out = new TreeMap<>();
    for (var e : all.entrySet()) {
      if (!allowed.contains(e.getKey())) {
        throw OpenAiException.unknownParameter(e.getKey());
      }
      if (e.getValue().size() != 1) {
        throw new OpenAiException(
            400, "'" + e.getKey() + "' is given more than once.", e.getKey(), "invalid_value");
      }
      out.put(e.getKey(), e.getValue().get(0));
    }
    return out;
  }

  String path(String name) {
    return prefix + name;
  }

  boolean has(String name) {
    JsonNode v = node.get(name);
    return v != null && !v.isNull();
  }

  JsonNode get(String name) {
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? null : v;
  }

  String string(String name) {
    String v = optString(name);
    if (v == null) {
      throw missing(name);
    }
    return v;
  }

  String optString(String name) {
    JsonNode v = get(name);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw wrongType(name, "a string");
    }
    return v.asText();
  }

  Integer optInt(String name, int min, int max) {
    JsonNode v = get(name);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw wrongType(name, "an integer");
    }
    int i = v.intValue();
    if (i < min || i > max) {
      throw invalidValue(
          name, "'" + path(name) + "' must be between " + min + " and " + max + "; got " + i + ".");
    }
    return i;
  }

  Double optNumber(String name) {
    JsonNode v = get(name);
    if (v == null) {
      return null;
    }
    if (!v.isNumber()) {
      throw wrongType(name, "a number");
    }
    return v.doubleValue();
  }

  Boolean optBoolean(String name) {
    JsonNode v = get(name);
    if (v == null) {
      return null;
    }
    if (!v.isBoolean()) {
      throw wrongType(name, "a boolean");
    }
    return v.booleanValue();
  }

  OpenAiException missing(String name) {
    return new OpenAiException(
        400,
        "Missing required parameter: '" + path(name) + "'.",
        path(name),
        "missing_required_parameter");
  }

  OpenAiException wrongType(String name, String expected) {
    return new OpenAiException(
        400,
        "Invalid type for '" + path(name) + "': expected " + expected + ".",
        path(name),
        "invalid_type");
  }

  OpenAiException invalidValue(String name, String message) {
    return new OpenAiException(400, message, path(name), "invalid_value");
  }
}
