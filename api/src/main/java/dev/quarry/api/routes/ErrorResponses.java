package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.RequestIds;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a failure becomes the wire's error envelope, as Javalin's exception mappers
 * are for a Javalin app. A {@link QuarryException} keeps its code; anything else is {@code 500
 * INTERNAL}. A server-side fault (INTERNAL, or UNAVAILABLE with a cause) reaches the client as
 * fixed text with a reference id, and its cause (which may name files of the server) goes only to
 * the log under that id; the client can quote the id to the operator.
 */
public final class ErrorResponses {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);

  private ErrorResponses() {}

  /**
   * {@code t} as the error to answer: a client's error as it is, a server-side fault logged and
   * answered with a reference id.
   */
  public static QuarryException of(Throwable t) {
    if (t instanceof QuarryException e) {
      return e.getCause() != null && serverSide(e.code()) ? referenced(e) : e;
    }
    return internal(t);
  }

  /** An unexpected fault as INTERNAL, logged with a reference the client can quote; never a stack trace. */
  public static QuarryException internal(Throwable t) {
    String reference = reference();
    LOG.error("internal error {}", reference, t);
    return new QuarryException(ErrorCode.INTERNAL, "internal error (reference " + reference + ")");
  }

  /**
   * A fault after a mutation may have started writing: its error with {@code "outcome":
   * "uncertain"}, so the client reconciles (reads the source, or retries with the same key).
   */
  public static QuarryException uncertain(Throwable t) {
    QuarryException e = of(t);
    if (e.uncertain()) {
      return e;
    }
    return new QuarryException(e.code(), e.getMessage(), e.field(), true, null);
  }

  /** Writes the envelope of {@code t} at its status, unless the response has already been sent. */
  public static void write(Context ctx, Throwable t, ObjectMapper mapper) {
    write(ctx, t, mapper, null);
  }

  /** As {@link #write(Context, Throwable, ObjectMapper)}, naming the run the error ended ({@code null}: none). */
  public static void write(Context ctx, Throwable t, ObjectMapper mapper, String runId) {
    QuarryException e = of(t);
    if (ctx.res().isCommitted()) {
      return;
    }
    ObjectNode body = ErrorEnvelope.of(e);
    if (runId != null) {
      body.put("runId", runId);
    }
    Responses.write(ctx, HttpStatuses.of(e.code()), body, mapper);
  }

  private static boolean serverSide(ErrorCode code) {
    return code == ErrorCode.INTERNAL || code == ErrorCode.UNAVAILABLE;
  }

  private static QuarryException referenced(QuarryException e) {
    String reference = reference();
    LOG.error("{} {}: {}", e.code(), reference, e.getMessage(), e.getCause());
    QuarryException answered = new QuarryException(e.code(), e.getMessage() + " (reference " + reference + ")",
        e.field(), e.uncertain(), null);
    answered.setStackTrace(e.getStackTrace());
    return answered;
  }

  /** The request's id when the host bound one (dev.quarry.api.RequestIds), so the answer's X-Request-Id finds the log. */
  private static String reference() {
    return RequestIds.currentOrRandom();
  }
}
