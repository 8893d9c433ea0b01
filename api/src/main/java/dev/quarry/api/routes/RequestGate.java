package dev.quarry.api.routes;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the searches and mutations in progress: at most {@code maxInFlight} run, at most {@code
 * maxWaiting} more wait (each for at most {@code maxWaitMillis}), and anyone beyond is refused at
 * once with {@code 429 CAPACITY}, so overload is answered instead of queued without bound.
 *
 * <p>Thread-safe; one per plugin.
 */
public final class RequestGate {
  private final Semaphore running;
  private final int maxWaiting;
  private final long maxWaitMillis;
  private final AtomicInteger waiting = new AtomicInteger();

  public RequestGate(int maxInFlight, int maxWaiting, long maxWaitMillis) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1; got " + maxInFlight);
    }
    if (maxWaiting < 0) {
      throw new IllegalArgumentException("maxWaiting must be 0 or more; got " + maxWaiting);
    }
    this.running = new Semaphore(maxInFlight, true);
    this.maxWaiting = maxWaiting;
    this.maxWaitMillis = maxWaitMillis;
  }

  /** A permit to run; close it when done. Throws CAPACITY when the gate and its queue are full. */
  public Permit enter() {
    if (running.tryAcquire()) {
      return running::release;
    }
    if (waiting.incrementAndGet() > maxWaiting) {
      waiting.decrementAndGet();
      throw full();
    }
    try {
      if (!running.tryAcquire(maxWaitMillis, TimeUnit.MILLISECONDS)) {
        throw full();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuarryException(ErrorCode.UNAVAILABLE, "the server is shutting down");
    } finally {
      waiting.decrementAndGet();
    }
    return running::release;
  }

  private static QuarryException full() {
    return new QuarryException(ErrorCode.CAPACITY, "the server is at capacity; retry shortly");
  }

  /** A held place in the gate. */
  @FunctionalInterface
  public interface Permit extends AutoCloseable {
    @Override
    void close();
  }
}
