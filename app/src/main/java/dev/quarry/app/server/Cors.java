package dev.quarry.app.server;

import dev.quarry.api.wire.ProtocolHeaders;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;

/**
 * Cross-origin access for browsers: allowed origins are echoed back, the contract's request headers
 * are allowed and {@code AgenticDriver-Version} is exposed. Origins not allowed get no CORS
 * headers, so the browser blocks the response; the request itself is still answered as usual.
 *
 * <p>Immutable and thread-safe.
 */
final class Cors {
  /** Browsers may cache a preflight answer this long (seconds). */
  static final int PREFLIGHT_MAX_AGE_SECONDS = 600;

  private static final String ALLOWED_HEADERS =
      String.join(", ", ProtocolHeaders.CORS_REQUEST_HEADERS);
  private static final String EXPOSED_HEADERS =
      ProtocolHeaders.VERSION_HEADER + ", " + ProtocolHeaders.IDEMPOTENT_REPLAYED;

  private final List<String> allowedOrigins;

  Cors(List<String> allowedOrigins) {
    this.allowedOrigins = List.copyOf(allowedOrigins);
  }

  /**
   * Adds the CORS headers a request earns. Returns true when the request was a preflight, which is
   * then fully answered (204).
   */
  boolean apply(HttpServletRequest req, HttpServletResponse res) {
    String origin = req.getHeader("Origin");
    boolean preflight =
        "OPTIONS".equals(req.getMethod()) && req.getHeader("Access-Control-Request-Method") != null;
    if (origin != null && allows(origin)) {
      res.setHeader("Access-Control-Allow-Origin", allowedOrigins.contains("*") ? "*" : origin);
      res.addHeader("Vary", "Origin");
      res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
      if (preflight) {
        res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
        res.setHeader("Access-Control-Max-Age", Integer.toString(PREFLIGHT_MAX_AGE_SECONDS));
      }
    }
    if (preflight) {
      res.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
    return preflight;
  }

  private boolean allows(String origin) {
    return allowedOrigins.contains("*") || allowedOrigins.contains(origin);
  }
}
