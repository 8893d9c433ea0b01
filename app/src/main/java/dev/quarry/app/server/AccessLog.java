package dev.quarry.app.server;

import dev.quarry.app.logging.JsonLineLayout;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Records every answered request in the {@link Metrics} and logs one line for it, written when the
 * answer is complete (streamed answers included), on the logger {@code dev.quarry.access}:
 *
 * <pre>{@code
 * method=POST path=/v1/retrieval/search status=200 bytes=1843 ms=12 subject=app-1
 * }</pre>
 *
 * The request's id is not part of the message: it is bound to the MDC for this line, as for every
 * other line of the request, so the layout writes it once ({@code request=ID} in text, {@code
 * requestId} in JSON). The path is logged without its query string; the token, the body and the
 * query are never logged. {@code subject=-} when no token was accepted. Thread-safe.
 */
final class AccessLog implements RequestLog {
  private static final Logger LOG = LoggerFactory.getLogger("dev.quarry.access");
  private final Metrics metrics;

  /**
   * @param metrics told of every answered request that {@link RequestIds} saw arrive
   */
  AccessLog(Metrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void log(Request request, Response response) {
    RequestIds.Tag tag = RequestIds.tagOf(request);
    long nanos = tag == null ? -1 : System.nanoTime() - tag.startNanos();
    if (tag != null) {
      metrics.completed(
          request.getMethod(), request.getHttpURI().getPath(), response.getStatus(), nanos);
    }
    if (!LOG.isInfoEnabled()) {
      return;
    }
    String subject = tag == null || tag.subject() == null ? "-" : tag.subject();
    long ms = tag == null ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
    // Written after the request's own threads let go of it: the id is bound again for this line.
    try (MDC.MDCCloseable logged =
        tag == null ? null : MDC.putCloseable(JsonLineLayout.REQUEST_ID, tag.id())) {
      LOG.info(
          "method={} path={} status={} bytes={} ms={} subject={}",
          request.getMethod(),
          printable(request.getHttpURI().getPath()),
          response.getStatus(),
          Response.getContentBytesWritten(response),
          ms,
          subject);
    }
  }

  /** The path with anything that could break the line or the key=value form escaped. */
  static String printable(String path) {
    if (path == null || path.isEmpty()) {
      return "-";
    }
    StringBuilder out = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c <= ' ' || c == 0x7f) {
        out.append(String.format("%%%02X", (int) c));
      } else if (c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
