package dev.quarry.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What every request of the standalone server passes first, whatever its path: the version header
 * on the response, CORS (preflights are answered here), refusal while shutting down, and the
 * version check, so an unsupported version is refused before routing, authentication or the body.
 * It also counts the requests in progress so shutdown can wait for them.
 *
 * <p>Thread-safe; one per server.
 */
final class EdgeFilter implements Filter {
  /** Set on a request already counted by {@link #enter()} before it reached this filter. */
  static final String COUNTED_ATTRIBUTE = "dev.quarry.app.counted";

  private final Cors cors;
  private final ObjectMapper mapper;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private int inFlight;
  private boolean draining;

  EdgeFilter(Cors cors, ObjectMapper mapper) {
    this.cors = cors;
    this.mapper = mapper;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    HttpServletResponse res = (HttpServletResponse) response;
    res.setHeader(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    if (cors.apply(req, res)) {
      return;
    }
    // A request whose body was collected first (BodyPrefetch) was counted when it arrived.
    boolean counted = req.getAttribute(COUNTED_ATTRIBUTE) != null;
    if (!counted && !enter()) {
      refuse(res, new QuarryException(ErrorCode.UNAVAILABLE, "the server is shutting down"));
      return;
    }
    try {
      ProtocolHeaders.checkRequestedVersion(req.getHeader(ProtocolHeaders.VERSION_HEADER));
      chain.doFilter(request, response);
    } catch (QuarryException e) {
      refuse(res, e);
    } finally {
      if (!counted) {
        leave();
      }
    }
  }

  /**
   * Refuses new requests from now on and waits up to {@code timeoutMillis} for those in progress.
   *
   * @return whether every request in progress finished in time
   */
  boolean drain(long timeoutMillis) throws InterruptedException {
    lock.lock();
    try {
      draining = true;
      long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (inFlight > 0) {
        if (nanos <= 0) {
          return false;
        }
        nanos = idle.awaitNanos(nanos);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Counts a request in progress from before its body arrives, so shutdown waits for a request
   * already accepted; false once draining (the request is then refused here, 503).
   */
  boolean enter() {
    lock.lock();
    try {
      if (draining) {
        return false;
      }
      inFlight++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  void leave() {
    lock.lock();
    try {
      if (--inFlight == 0) {
        idle.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void refuse(HttpServletResponse res, QuarryException e) throws IOException {
    res.setStatus(HttpStatuses.of(e.code()));
    res.setContentType("application/json");
    res.getOutputStream().write(mapper.writeValueAsBytes(ErrorEnvelope.of(e)));
  }
}
