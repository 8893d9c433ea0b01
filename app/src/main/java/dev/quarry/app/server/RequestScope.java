package dev.quarry.app.server;

import dev.quarry.api.Authenticator;
import dev.quarry.app.logging.JsonLineLayout;
import dev.quarry.corpora.access.Access;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.MDC;

/**
 * Binds the request's id to the request thread while it serves the request, so an internal
 * failure's envelope quotes it ({@link dev.quarry.api.RequestIds#currentOrRandom}) and every line
 * logged on that thread meanwhile carries it (the logging MDC's {@code requestId}); and records the
 * subject of the token the request was served under, for the access log. Both are cleared
 * afterwards, since request threads are pooled.
 *
 * <p>Thread-safe; one per server, the first servlet filter.
 */
final class RequestScope implements Filter {
  /**
   * The tag of the request this thread serves, where {@link #recordingSubjects} notes the subject.
   */
  private static final ThreadLocal<RequestIds.Tag> SERVING = new ThreadLocal<>();

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    RequestIds.Tag tag =
        request.getAttribute(RequestIds.ATTRIBUTE) instanceof RequestIds.Tag t ? t : null;
    if (tag == null) {
      chain.doFilter(request, response);
      return;
    }
    SERVING.set(tag);
    // qualified: this package has a RequestIds of its own
    try (dev.quarry.api.RequestIds.Scope bound = dev.quarry.api.RequestIds.bind(tag.id());
        MDC.MDCCloseable logged = MDC.putCloseable(JsonLineLayout.REQUEST_ID, tag.id())) {
      chain.doFilter(request, response);
    } finally {
      SERVING.remove();
    }
  }

  /**
   * {@code tokens}, also noting the subject of an accepted token on the request being served, for
   * the access log. The token itself is never kept.
   */
  static Authenticator recordingSubjects(Authenticator tokens) {
    return token -> {
      Optional<Access> access = tokens.authenticate(token);
      RequestIds.Tag tag = SERVING.get();
      if (tag != null) {
        access.ifPresent(a -> tag.subject(a.subject()));
      }
      return access;
    };
  }
}
