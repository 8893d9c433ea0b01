package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.RequestIds;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The one place where a failure becomes the wire's error envelope, as Javalin's exception mappers
 * are for a Javalin app. A {@link QuarryException} keeps its code; anything else is {@code 500
 * INTERNAL}. A server-side fault (INTERNAL, or UNAVAILABLE with a cause) reaches the client with a
 * reference id, and its cause (which may name files of the server) goes only to the log under that
 * id; the client can quote the id to the operator.
 *
 * <p>Only text written for clients reaches one: a message that repeats a caught exception's text or
 * names Java classes, members or library internals ({@link #writtenForClients}) is answered with
 * fixed text for its code and a reference, and logged whole under that reference. Code and field
 * stay, so a client acts on the answer the same way.
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
      if (e.getCause() != null && serverSide(e.code())) {
        return referenced(e);
      }
      return writtenForClients(e) ? e : withFixedText(e, reference());
    }
    return internal(t);
  }

  /**
   * An unexpected fault as INTERNAL, logged with a reference the client can quote; never a stack
   * trace.
   */
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

  /**
   * As {@link #write(Context, Throwable, ObjectMapper)}, naming the run the error ended ({@code
   * null}: none).
   */
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
    if (!writtenForClients(e)) {
      return withFixedText(e, reference);
    }
    LOG.error("{} {}: {}", e.code(), reference, e.getMessage(), e.getCause());
    QuarryException answered =
        new QuarryException(
            e.code(),
            e.getMessage() + " (reference " + reference + ")",
            e.field(),
            e.uncertain(),
            null);
    answered.setStackTrace(e.getStackTrace());
    return answered;
  }

  /**
   * Names of Java's and libraries' insides: a qualified class name ({@code
   * com.fasterxml.jackson...}, {@code java.util...}), an exception or error type ({@code
   * IOException}), a member ({@code Type.member()}, {@code Type.CONSTANT_NAME}), a source file
   * ({@code Foo.java:12}) or an object's identity ({@code Parser@edd25d2}).
   */
  private static final Pattern INTERNALS =
      Pattern.compile(
          "\\b(?:java|javax|jdk|sun|com|org|io|net)\\.[a-z][a-z0-9_]*\\.[A-Za-z]"
              + "|\\b[A-Z][A-Za-z0-9]*(?:Exception|Error)\\b"
              + "|\\b[A-Z][A-Za-z0-9]+\\.[a-z][A-Za-z0-9]*\\(\\)"
              + "|\\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\\.[A-Z][A-Z0-9]*_[A-Z0-9_]+\\b"
              + "|\\b[A-Za-z0-9_$]+\\.java\\b"
              + "|[A-Za-z]@[0-9a-f]{5,}\\b");

  /**
   * Whether {@code text} names Java's or libraries' insides ({@link #writtenForClients} applies it
   * to a message less its quoted values): one test of what a client must not read, for the tests
   * too.
   */
  public static boolean namesInternals(String text) {
    return INTERNALS.matcher(text).find();
  }

  /** A value quoted in a message, as our messages quote what the client sent. */
  private static final Pattern QUOTED = Pattern.compile("'[^']*'");

  /** Shorter texts of a cause may occur in any message by chance. */
  private static final int MIN_QUOTED_CHARS = 8;

  /**
   * Whether {@code e}'s message was written for a client: it names no Java or library insides and
   * does not repeat the text of an exception it was built from (which may name the server's files,
   * hosts or a library's view of the failure).
   */
  static boolean writtenForClients(QuarryException e) {
    String message = e.getMessage();
    // A client's own values are quoted ('src/Main.java'): they may look like anything.
    if (message == null || namesInternals(QUOTED.matcher(message).replaceAll("''"))) {
      return false;
    }
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (repeats(message, cause)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code message} repeats the text of {@code cause}: one long enough not to occur in it
   * by chance. Also for a console that tells the cause after the message, so it does not tell it
   * twice.
   */
  public static boolean repeats(String message, Throwable cause) {
    String quoted = cause.getMessage();
    return quoted != null
        && quoted.strip().length() >= MIN_QUOTED_CHARS
        && message.contains(quoted.strip());
  }

  /**
   * {@code e} with fixed text for its code in place of its message, which goes to the log under
   * {@code reference}.
   */
  private static QuarryException withFixedText(QuarryException e, String reference) {
    // A client's error is logged as a warning: a request cannot write ERROR lines at will.
    Level level = HttpStatuses.of(e.code()) < 500 ? Level.WARN : Level.ERROR;
    LOG.atLevel(level)
        .setCause(e.getCause())
        .log("{} {} answered with fixed text in place of: {}", e.code(), reference, e.getMessage());
    QuarryException answered =
        new QuarryException(
            e.code(),
            fixedText(e.code()) + " (reference " + reference + ")",
            e.field(),
            e.uncertain(),
            null);
    answered.setStackTrace(e.getStackTrace());
    return answered;
  }

  private static String fixedText(ErrorCode code) {
    return switch (code) {
      case INVALID_REQUEST -> "the request is not valid";
      case UNAVAILABLE -> "the store could not complete the operation; retry later";
      case INTERNAL -> "internal error";
      default -> "the request was refused (" + code + ")";
    };
  }

  /**
   * The request's id when the host bound one (dev.quarry.api.RequestIds), so the answer's
   * X-Request-Id finds the log.
   */
  private static String reference() {
    return RequestIds.currentOrRandom();
  }
}
