package dev.quarry.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Exactly-once index and delete over an unreliable network. Each mutation gets one Idempotency-Key
 * for all its attempts. When an attempt's outcome is unknown (an error with {@code outcome:
 * "uncertain"}, or a request lost on the way), the source is read to reconcile: if the change is
 * visible it took effect, and a retry with the same key returns its original receipt; if not, the
 * retry with the same key applies it, once. A retryable refusal ({@code CAPACITY}, {@code
 * UNAVAILABLE}, {@code IDEMPOTENCY_IN_PROGRESS}) is retried after a backoff. Anything else is
 * thrown at once: a refusal is not retried.
 *
 * @quarry.stable
 */
public final class SafeRetry {
  private final QuarryClient client;
  private final int maxAttempts;
  private final Duration backoff;

  /** What the latest reconciliation found, for callers that log it; null when none was needed. */
  private volatile Reconciled last;

  /**
   * @param maxAttempts attempts in all (at least 1)
   * @param backoff the wait before the second attempt, doubled before each further one
   */
  public SafeRetry(QuarryClient client, int maxAttempts, Duration backoff) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    this.client = client;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
  }

  /** What a reconciliation read found. */
  public enum Reconciled {
    TOOK_EFFECT,
    NOT_APPLIED
  }

  /** Indexes {@code document} exactly once. */
  public Receipt index(String corpus, Document document) {
    String expected = document.contentSha256();
    return run(
        key -> client.index(corpus, null, document, key),
        () -> {
          SourceState s = readOrNull(corpus, document.source());
          return s != null && expected.equals(s.contentSha256());
        });
  }

  /** Deletes {@code source} exactly once. */
  public Receipt delete(String corpus, String source) {
    return run(
        key ->
            client.delete(corpus, null, new QuarryClient.DeleteOperation(source, null, null), key),
        () -> readOrNull(corpus, source) == null);
  }

  /** The last reconciliation of this instance's most recent call, or null when none was needed. */
  public Reconciled lastReconciliation() {
    return last;
  }

  private Receipt run(Function<String, Receipt> mutation, BooleanSupplier visible) {
    String key = QuarryClient.newKey();
    last = null;
    QuarryClientException failure = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) {
        sleep(backoff.multipliedBy(1L << Math.min(attempt - 2, 16)));
      }
      try {
        return mutation.apply(key);
      } catch (ApiException e) {
        if (!e.uncertain() && !e.retryable()) {
          throw e;
        }
        failure = e;
        if (e.uncertain()) {
          last = reconcile(visible);
        }
      } catch (TransportException e) {
        failure = e;
        last = reconcile(visible);
      }
    }
    throw failure;
  }

  private static Reconciled reconcile(BooleanSupplier visible) {
    try {
      return visible.getAsBoolean() ? Reconciled.TOOK_EFFECT : Reconciled.NOT_APPLIED;
    } catch (QuarryClientException unreadable) {
      return null; // the retry with the same key settles it either way
    }
  }

  private SourceState readOrNull(String corpus, String source) {
    try {
      return client.readSource(corpus, source);
    } catch (ApiException.NotFoundException e) {
      if ("SOURCE_NOT_FOUND".equals(e.code())) {
        return null;
      }
      throw e;
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while waiting to retry", e);
    }
  }
}
