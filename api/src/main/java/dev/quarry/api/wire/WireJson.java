package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.Metadata;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/** Small helpers shared by the response writers: times, scores, metadata. */
final class WireJson {
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private WireJson() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** ISO-8601 in UTC with milliseconds, such as {@code 2026-11-29T12:00:00.000Z}. */
  static String time(Instant t) {
    return ISO_MILLIS.format(t);
  }

  /** A float score as its shortest decimal ({@code 7.31}, not {@code 7.309999942779541}). */
  static double score(float f) {
    return Double.parseDouble(Float.toString(f));
  }

  static ObjectNode metadata(Metadata metadata) {
    ObjectNode out = object();
    if (metadata == null) {
      return out;
    }
    for (Map.Entry<String, Object> e : metadata.values().entrySet()) {
      Object v = e.getValue();
      switch (v) {
        case String s -> out.put(e.getKey(), s);
        case Long l -> out.put(e.getKey(), l);
        case Integer i -> out.put(e.getKey(), i);
        case Double d -> out.put(e.getKey(), d);
        case Boolean b -> out.put(e.getKey(), b);
        case List<?> list -> {
          ArrayNode items = out.putArray(e.getKey());
          list.forEach(item -> items.add(String.valueOf(item)));
        }
        default -> out.put(e.getKey(), String.valueOf(v));
      }
    }
    return out;
  }

  static void putIfPresent(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }
}
