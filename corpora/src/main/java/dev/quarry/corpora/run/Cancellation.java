package dev.quarry.corpora.run;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A flag the host raises to stop a retrieval in flight, with the reason it will end with ({@link
 * ErrorCode#CANCELLED} or {@link ErrorCode#IDLE_TIMEOUT}). Thread-safe; raised once.
 */
public final class Cancellation {
  private final AtomicReference<QuarryException> reason = new AtomicReference<>();

  /** Raises the flag; returns false when it was already raised (the first reason stands). */
  public boolean cancel(ErrorCode code, String message) {
    return reason.compareAndSet(null, new QuarryException(code, message));
  }

  public boolean isCancelled() {
    return reason.get() != null;
  }

  /** The reason given to {@link #cancel}, or null. */
  public QuarryException reason() {
    return reason.get();
  }

  /** Throws the cancellation's reason when the flag is raised. */
  public void check() {
    QuarryException e = reason.get();
    if (e != null) {
      throw new QuarryException(e.code(), e.getMessage());
    }
  }
}
