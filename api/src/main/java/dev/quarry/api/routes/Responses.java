package dev.quarry.api.routes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.ProtocolHeaders;
import io.javalin.http.Context;

/**
 * Writes Quarry's answers: JSON with the version header, the context marked as answered so that a
 * host's error pages leave it alone. Failures go through {@link ErrorResponses}, which writes here.
 */
public final class Responses {
  /**
   * Set on a context once a Quarry handler has written its answer, so hosts' error pages leave it
   * alone.
   */
  public static final String ANSWERED_ATTRIBUTE = "dev.quarry.api.answered";

  private Responses() {}

  /** Writes a successful reply with status 200, marking an idempotent replay. */
  public static void reply(Context ctx, Reply reply, ObjectMapper mapper) {
    if (reply.replayed()) {
      ctx.header(ProtocolHeaders.IDEMPOTENT_REPLAYED, "true");
    }
    write(ctx, 200, reply.body(), mapper);
  }

  /** Writes a JSON answer with the version header and marks the context as answered. */
  public static void write(Context ctx, int status, ObjectNode body, ObjectMapper mapper) {
    markAnswered(ctx);
    ctx.header(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    ctx.status(status);
    ctx.contentType("application/json");
    try {
      ctx.result(mapper.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a response tree could not be written", e);
    }
  }

  /**
   * Marks the context as answered by Quarry, for an answer written without {@link #write} (a
   * stream).
   */
  public static void markAnswered(Context ctx) {
    ctx.attribute(ANSWERED_ATTRIBUTE, Boolean.TRUE);
  }

  /** Whether a Quarry handler has answered this context. */
  public static boolean answered(Context ctx) {
    return ctx.attribute(ANSWERED_ATTRIBUTE) != null;
  }
}
