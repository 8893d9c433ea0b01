package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A strict reader over one JSON object of a request. Every accessor names the field's full path in
 * its error ({@code operations[2].text}); nothing is coerced: {@code "10"} is not a number, {@code
 * 2.5} is not an integer, {@code null} is not a value.
 *
 * <p>Call {@link #allowOnly} first, so an unknown field is reported before anything else. Not
 * thread-safe; one per request object.
 */
public final class WireObject {
  private final ObjectNode node;
  private final String path;

  private WireObject(ObjectNode node, String path) {
    this.node = Objects.requireNonNull(node, "node");
    this.path = path;
  }

  /** The request body itself; fields are named without a prefix. */
  public static WireObject root(ObjectNode node) {
    return new WireObject(node, "");
  }

  /** Reads {@code value} as an object found at {@code path}. */
  public static WireObject at(JsonNode value, String path) {
    if (!(value instanceof ObjectNode object)) {
      throw QuarryException.invalid(path, path + " must be an object; got " + describe(value));
    }
    return new WireObject(object, path);
  }

  /** The path of this object ("" for the body). */
  public String path() {
    return path;
  }

  /** The full path of one of this object's fields. */
  public String pathOf(String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  /** Rejects any field not in {@code known}, and any field whose value is {@code null}. */
  public WireObject allowOnly(Set<String> known) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!known.contains(name)) {
        throw QuarryException.invalid(
            pathOf(name),
            "unknown field '"
                + shorten(name)
                + "'"
                + (path.isEmpty() ? "" : " in " + path)
                + "; known fields: "
                + String.join(", ", known.stream().sorted().toList()));
      }
      if (node.get(name).isNull()) {
        throw QuarryException.invalid(
            pathOf(name), pathOf(name) + " is null; omit the field instead");
      }
    }
    return this;
  }

  public boolean has(String field) {
    return node.has(field);
  }

  /** Names of the fields present, in request order. */
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** The raw value of a field, or null when absent. */
  public JsonNode raw(String field) {
    return node.get(field);
  }

  public String requireString(String field) {
    String s = optionalString(field);
    if (s == null) {
      throw missing(field);
    }
    return s;
  }

  public String optionalString(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw wrongType(field, "a string", v);
    }
    return v.textValue();
  }

  /** A string of at most {@code maxChars} UTF-16 code units, or null when absent. */
  public String optionalString(String field, int maxChars) {
    String s = optionalString(field);
    if (s != null && s.length() > maxChars) {
      throw QuarryException.invalid(
          pathOf(field),
          pathOf(field) + " may have at most " + maxChars + " characters; got " + s.length());
    }
    return s;
  }

  public boolean optionalBoolean(String field, boolean absent) {
    JsonNode v = node.get(field);
    if (v == null) {
      return absent;
    }
    if (!v.isBoolean()) {
      throw wrongType(field, "true or false", v);
    }
    return v.booleanValue();
  }

  /** An integer within {@code [min, max]}, or null when absent. */
  public Long optionalLong(String field, long min, long max) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber()) {
      throw wrongType(field, "an integer", v);
    }
    if (!v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
      throw QuarryException.invalid(
          pathOf(field),
          pathOf(field)
              + " must be between "
              + min
              + " and "
              + max
              + "; got "
              + shorten(v.asText()));
    }
    return v.longValue();
  }

  /** An integer within {@code [min, max]}, or null when absent. */
  public Integer optionalInt(String field, int min, int max) {
    Long v = optionalLong(field, min, max);
    return v == null ? null : v.intValue();
  }

  /** A number (integer or not), or null when absent. */
  public Double optionalNumber(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isNumber()) {
      throw wrongType(field, "a number", v);
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d)) {
      throw QuarryException.invalid(pathOf(field), pathOf(field) + " must be a finite number");
    }
    return d;
  }

  public WireObject optionalObject(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isObject()) {
      throw wrongType(field, "an object", v);
    }
    return new WireObject((ObjectNode) v, pathOf(field));
  }

  /** The elements of an array field of at most {@code maxItems} elements, or null when absent. */
  public List<JsonNode> optionalArray(String field, int maxItems) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isArray()) {
      throw wrongType(field, "an array", v);
    }
    if (v.size() > maxItems) {
      throw QuarryException.invalid(
          pathOf(field),
          pathOf(field) + " may have at most " + maxItems + " entries; got " + v.size());
    }
    List<JsonNode> items = new ArrayList<>(v.size());
    v.elements().forEachRemaining(items::add);
    return items;
  }

  /** An array of strings, each at most {@code maxChars} long, or null when absent. */
  public List<String> optionalStringList(String field, int maxItems, int maxChars) {
    List<JsonNode> items = optionalArray(field, maxItems);
    if (items == null) {
      return null;
    }
    List<String> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String itemPath = pathOf(field) + "[" + i + "]";
      if (!item.isTextual()) {
        throw QuarryException.invalid(
            itemPath, itemPath + " must be a string; got " + describe(item));
      }
      if (item.textValue().length() > maxChars) {
        throw QuarryException.invalid(
            itemPath,
            itemPath
                + " may have at most "
                + maxChars
                + " characters; got "
                + item.textValue().length());
      }
      out.add(item.textValue());
    }
    return out;
  }

  public QuarryException missing(String field) {
    return QuarryException.invalid(pathOf(field), pathOf(field) + " is required");
  }

  private QuarryException wrongType(String field, String expected, JsonNode got) {
    return QuarryException.invalid(
        pathOf(field), pathOf(field) + " must be " + expected + "; got " + describe(got));
  }

  /** How a JSON value is named in error messages: its kind, never its (possibly long) content. */
  public static String describe(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    if (v.isNull()) {
      return "null";
    }
    if (v.isTextual()) {
      return "a string";
    }
    if (v.isIntegralNumber()) {
      return "an integer";
    }
    if (v.isNumber()) {
      return "a number written with a fraction or an exponent";
    }
    if (v.isBoolean()) {
      return "a boolean";
    }
    if (v.isArray()) {
      return "an array";
    }
    return "an object";
  }

  private static String shorten(String s) {
    return s.length() > 64 ? s.substring(0, 64) + "..." : s;
  }
}
