package dev.quarry.mcp.server;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The session ids the SDK's transport handed out and has not yet closed, as the endpoint sees them
 * pass: an initialize answer's {@code Mcp-Session-Id} header adds one, a DELETE that succeeds
 * removes it. The endpoint answers {@code resources/list} itself, so it asks here what the SDK
 * would have checked in its own (private) session map: a request in a session never issued is
 * handed to the SDK, which refuses it as it refuses any other such request. Thread-safe.
 */
final class IssuedSessions {
  static final String HEADER = "Mcp-Session-Id";

  private final Set<String> open = ConcurrentHashMap.newKeySet();

  boolean isOpen(String session) {
    return session != null && open.contains(session);
  }

  /** {@code response}, noting the session id the transport sets on it. */
  HttpServletResponse recording(HttpServletResponse response) {
    return new HttpServletResponseWrapper(response) {
      @Override
      public void setHeader(String name, String value) {
        note(name, value);
        super.setHeader(name, value);
      }

      @Override
      public void addHeader(String name, String value) {
        note(name, value);
        super.addHeader(name, value);
      }
    };
  }

  /** After the transport answered a DELETE of {@code session} with {@code status}. */
  void closed(String session, int status) {
    if (session != null && status >= 200 && status < 300) {
      open.remove(session);
    }
  }

  private void note(String name, String value) {
    if (HEADER.equalsIgnoreCase(name) && value != null) {
      open.add(value);
    }
  }
}
