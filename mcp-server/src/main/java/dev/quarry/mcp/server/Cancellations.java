package dev.quarry.mcp.server;

import dev.quarry.corpora.run.Cancellation;
import dev.quarry.engine.ErrorCode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tool calls in flight, by session and JSON-RPC request id, so that a client's {@code
 * notifications/cancelled} raises the call's {@link Cancellation}. The SDK routes no such
 * notification to a server, so {@link McpEndpoint} reads it on its way in. Thread-safe.
 */
final class Cancellations {
  private final Map<String, Cancellation> running = new ConcurrentHashMap<>();

  /** Registers a call; close the handle when the call ends. */
  Handle register(Caller caller) {
    Cancellation cancellation = new Cancellation();
    if (caller.session() == null || caller.requestId() == null) {
      return new Handle(cancellation, () -> {});
    }
    String key = key(caller.session(), caller.requestId());
    running.put(key, cancellation);
    return new Handle(cancellation, () -> running.remove(key, cancellation));
  }

  /**
   * Raises the cancellation of request {@code requestId} of {@code session}; false when none runs.
   */
  boolean cancel(String session, String requestId, String reason) {
    Cancellation c = running.get(key(session, requestId));
    return c != null
        && c.cancel(
            ErrorCode.CANCELLED,
            reason == null || reason.isBlank()
                ? "cancelled by the client"
                : "cancelled by the client: " + reason);
  }

  private static String key(String session, String requestId) {
    return session + '\u0000' + requestId;
  }

  /** A registered call's cancellation; closing it forgets the call. */
  record Handle(Cancellation cancellation, Runnable forget) implements AutoCloseable {
    @Override
    public void close() {
      forget.run();
    }
  }
}
