package dev.quarry.api.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The fingerprint of a mutation request for idempotency: SHA-256 over the endpoint and the body's
 * canonical JSON (object keys sorted recursively, no white space), so the same JSON value gives the
 * same fingerprint however its keys are ordered or spaced.
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /** The canonical form: keys sorted at every level, array order kept, no white space. */
  public static String canonical(ObjectMapper mapper, JsonNode value) {
    try {
      return mapper.writeValueAsString(sorted(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a parsed JSON tree could not be written back", e);
    }
  }

  /** Lowercase hex SHA-256 of {@code endpoint + "\n" + canonical(body)}. */
  public static String fingerprint(ObjectMapper mapper, String endpoint, JsonNode body) {
    MessageDigest sha = Sha256.newDigest();
    sha.update(endpoint.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '\n');
    sha.update(canonical(mapper, body).getBytes(StandardCharsets.UTF_8));
    return Sha256.hex(sha);
  }

  private static JsonNode sorted(JsonNode value) {
    if (value.isObject()) {
      List<String> names = new ArrayList<>();
      value.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (String name : names) {
        out.set(name, sorted(value.get(name)));
      }
      return out;
    }
    if (value.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode(value.size());
      value.elements().forEachRemaining(e -> out.add(sorted(e)));
      return out;
    }
    return value;
  }
}
