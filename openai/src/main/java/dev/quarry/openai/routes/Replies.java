package dev.quarry.openai.routes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.io.UncheckedIOException;

/** Writes answers. */
final class Replies {
  private Replies() {}

  static void json(Context ctx, int status, JsonNode body, ObjectMapper mapper) {
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    ctx.status(status).contentType("application/json").result(bytes);
  }
}
