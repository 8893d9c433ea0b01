package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.Metadata;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenAI's {@code attributes} (of a file in a store: a source's metadata) and {@code metadata} (of
 * a store) with OpenAI's bounds: at most {@value #MAX_ENTRIES} entries, keys of at most {@value
 * #MAX_KEY_CHARS} characters (for attributes, also Quarry's metadata key characters: letters,
 * digits, {@code _ . -}), strings of at most {@value #MAX_VALUE_CHARS} characters; attributes may
 * also be numbers and booleans, metadata only strings.
 */
final class Attributes {
  static final int MAX_ENTRIES = 16;
  static final int MAX_KEY_CHARS = 64;
  static final int MAX_VALUE_CHARS = 512;

  private Attributes() {}

  /** {@code node} (at {@code param}) as a source's metadata; null reads as none. */
  static Metadata read(JsonNode node, String param) {
    if (node == null || node.isNull()) {
      return Metadata.EMPTY;
    }
    Map<String, Object> out = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = entries(node, param); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String path = param + "." + e.getKey();
      Metadata.checkKey(e.getKey(), path);
      JsonNode v = e.getValue();
      if (v.isTextual()) {
        out.put(e.getKey(), checkString(v.asText(), path));
      } else if (v.isBoolean()) {
        out.put(e.getKey(), v.booleanValue());
      } else if (v.isIntegralNumber() && v.canConvertToLong()) {
        out.put(e.getKey(), v.longValue());
      } else if (v.isNumber()) {
        out.put(e.getKey(), v.doubleValue());
      } else {
        throw new OpenAiException(
            400,
            "Invalid type for '" + path + "': expected a string, number or boolean.",
            path,
            "invalid_type");
      }
    }
    return Metadata.of(out, param);
  }

  /** {@code node} (at {@code param}) as a store's metadata: strings only; null reads as none. */
  static ObjectNode readMetadata(JsonNode node, String param, ObjectMapper mapper) {
    ObjectNode out = mapper.createObjectNode();
    if (node == null || node.isNull()) {
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = entries(node, param); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String path = param + "." + e.getKey();
      if (!e.getValue().isTextual()) {
        throw new OpenAiException(
            400, "Invalid type for '" + path + "': expected a string.", path, "invalid_type");
      }
      out.put(e.getKey(), checkString(e.getValue().asText(), path));
    }
    return out;
  }

  private static Iterator<Map.Entry<String, JsonNode>> entries(JsonNode node, String param) {
    if (!node.isObject()) {
      throw new OpenAiException(
          400, "Invalid type for '" + param + "': expected an object.", param, "invalid_type");
    }
    if (node.size() > MAX_ENTRIES) {
      throw new OpenAiException(
          400,
          "'" + param + "' may have at most " + MAX_ENTRIES + " entries; got " + node.size() + ".",
          param,
          "invalid_value");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (key.isEmpty() || key.length() > MAX_KEY_CHARS) {
        throw new OpenAiException(
            400,
            "Keys of '" + param + "' have 1 to " + MAX_KEY_CHARS + " characters.",
            param + "." + key,
            "invalid_value");
      }
    }
    return node.fields();
  }

  private static String checkString(String s, String path) {
    if (s.length() > MAX_VALUE_CHARS) {
      throw new OpenAiException(
          400,
          "'"
              + path
              + "' may have at most "
              + MAX_VALUE_CHARS
              + " characters; got "
              + s.length()
              + ".",
          path,
          "invalid_value");
    }
    return s;
  }

  /**
   * A source's metadata as attributes (a list-valued entry, which only Quarry's own API writes, as
   * an array).
   */
  static ObjectNode write(Metadata metadata, ObjectMapper mapper) {
    ObjectNode out = mapper.createObjectNode();
    if (metadata == null) {
      return out;
    }
    metadata
        .values()
        .forEach(
            (k, v) -> {
              switch (v) {
                case String s -> out.put(k, s);
                case Long l -> out.put(k, l);
                case Double d -> out.put(k, d);
                case Boolean b -> out.put(k, b);
                case List<?> list -> {
                  ArrayNode a = out.putArray(k);
                  list.forEach(item -> a.add(String.valueOf(item)));
                }
                default -> out.put(k, String.valueOf(v));
              }
            });
    return out;
  }
}
