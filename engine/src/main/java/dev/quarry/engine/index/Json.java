package dev.quarry.engine.index;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;

/**
 * Canonical JSON for what the index stores (metadata, reports, results): sorted keys, no spaces.
 */
final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
          .configure(DeserializationFeature.USE_LONG_FOR_INTS, true);

  private Json() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> readMap(String json) {
    try {
      return MAPPER.readValue(json, Map.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored JSON is unreadable", e);
    }
  }
}
