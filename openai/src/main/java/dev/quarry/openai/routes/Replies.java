package dev.quarry.openai.routes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.routes.Responses;
import io.javalin.http.Context;
import java.io.UncheckedIOException;

/** Writes answers. */
final class Replies {
  private Replies() {}

  /**
   * How long the SDKs' poll helpers ({@code createAndPoll}, {@code poll}) wait before asking again
   * about work in progress: they read it from {@code openai-poll-after-ms}, and wait 5 s without
   * it. Extraction of a small document takes well under a second.
   */
  static final int POLL_AFTER_MILLIS = 250;

  /**
   * Tells a poller when to ask again about {@code object}, while its status is {@code in_progress}.
   */
  static void pollAfter(Context ctx, JsonNode object) {
    if ("in_progress".equals(object.path("status").asText())) {
      ctx.header("openai-poll-after-ms", Integer.toString(POLL_AFTER_MILLIS));
    }
  }

  static void json(Context ctx, int status, JsonNode body, ObjectMapper mapper) {
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    // Marked as Quarry's own answer, so a host's error pages (the server's 404 page) leave it
    // alone.
    Responses.markAnswered(ctx);
    ctx.status(status).contentType("application/json").result(bytes);
  }
}
