package dev.quarry.client;

/**
 * The request or its answer was lost on the way (connection refused or reset, timeout). For a
 * mutation the effect is unknown, as with {@code outcome: "uncertain"}: reconcile before acting
 * again (see {@link SafeRetry}).
 *
 * @quarry.stable
 */
public final class TransportException extends QuarryClientException {
  private static final long serialVersionUID = 1L;

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
