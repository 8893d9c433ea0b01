package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;

/**
 * The error body of every failure: {@code {"error": {"code", "message", "retryable", "field"?,
 * "outcome"?}}}. {@code field} appears for {@code INVALID_REQUEST}; {@code "outcome": "uncertain"}
 * when a mutation may or may not have taken effect.
 */
public final class ErrorEnvelope {
  private ErrorEnvelope() {}

  public static ObjectNode of(QuarryException e) {
    ObjectNode error = JsonNodeFactory.instance.objectNode();
    error.put("code", e.code().name());
    error.put("message", e.getMessage() == null ? e.code().name() : e.getMessage());
    error.put("retryable", e.retryable());
    if (e.field() != null) {
      error.put("field", e.field());
    }
    if (e.uncertain()) {
      error.put("outcome", "uncertain");
    }
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.set("error", error);
    return body;
  }
}
