package dev.quarry.app.server;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Gives every request an id before anything else sees it: the client's {@code X-Request-Id} when it
 * is sane (1 to 128 characters of {@code [A-Za-z0-9._-]}, so it can be logged and echoed without
 * escaping), else a new random one. The id is echoed on the answer's {@code X-Request-Id} and kept
 * on the request as a {@link Tag}, which the servlet side ({@link RequestScope}) and the access log
 * ({@link AccessLog}) read.
 *
 * <p>Thread-safe; installed as the outermost handler.
 */
final class RequestIds extends Handler.Wrapper {
  static final String HEADER = "X-Request-Id";

  /** The request attribute holding the {@link Tag}. */
  static final String ATTRIBUTE = "dev.quarry.app.requestTag";

  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{1,128}");
  private static final SecureRandom RANDOM = new SecureRandom();
  private final Metrics metrics;

  /**
   * @param metrics told of every request's arrival
   */
  RequestIds(Metrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Tag tag = new Tag(idFor(request.getHeaders().get(HEADER)), System.nanoTime());
    request.setAttribute(ATTRIBUTE, tag);
    response.getHeaders().put(HEADER, tag.id());
    metrics.started();
    return super.handle(request, response, callback);
  }

  /** {@code offered} when it is a sane id, else a new random one. */
  static String idFor(String offered) {
    if (offered != null && SANE.matcher(offered).matches()) {
      return offered;
    }
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** The {@link Tag} of {@code request}, or null for a request this handler never saw. */
  static Tag tagOf(Request request) {
    return request.getAttribute(ATTRIBUTE) instanceof Tag t ? t : null;
  }

  /**
   * What is known of one request across its threads: its id, when it arrived, and (once a token was
   * accepted) the subject it acts for. The subject is written on a request thread and read by the
   * access log when the answer completes, possibly on another thread.
   */
  static final class Tag {
    private final String id;
    private final long startNanos;
    private volatile String subject;

    Tag(String id, long startNanos) {
      this.id = id;
      this.startNanos = startNanos;
    }

    String id() {
      return id;
    }

    long startNanos() {
      return startNanos;
    }

    String subject() {
      return subject;
    }

    void subject(String subject) {
      this.subject = subject;
    }
  }
}
