package dev.quarry.api;

import java.util.UUID;
import org.slf4j.MDC;

/**
 * The id of the request the current thread serves, so that an internal failure's envelope quotes it
 * as its reference and the id a client saw on the answer ({@code X-Request-Id}) finds the logged
 * stack trace. The host binds it around its handling of a request ({@link #bind}); a host that
 * binds nothing but keeps the id in SLF4J's {@link MDC} under {@link #MDC_KEY} is read from there.
 * Without either (or on a thread that serves no request, such as a run's worker) a fresh random
 * reference is used instead.
 *
 * @quarry.internal
 */
public final class RequestIds {
  /** The MDC key read when no id is bound. */
  public static final String MDC_KEY = "requestId";

  private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

  private RequestIds() {}

  /** Binds {@code id} to the current thread until the returned scope is closed. */
  public static Scope bind(String id) {
    String previous = CURRENT.get();
    CURRENT.set(id);
    return () -> {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /** The current request's id, or a new random one when there is none. */
  public static String currentOrRandom() {
    String id = CURRENT.get();
    if (id == null || id.isEmpty()) {
      id = MDC.get(MDC_KEY);
    }
    return id == null || id.isEmpty() ? UUID.randomUUID().toString() : id;
  }

  /** A binding of an id to a thread; closing it restores what was bound before. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
