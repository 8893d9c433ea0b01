package dev.quarry.api.runs;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A run's {@code idleTimeoutMs}: fires {@code onIdle} once when no real progress has been reported
 * for the timeout. {@link #touch} is called for progress only; heartbeats and other network traffic
 * never touch it. A null timeout is no deadline at all (the contract's default).
 *
 * <p>Thread-safe. Rather than rescheduling on every touch, the one pending check looks at the last
 * touch when it runs and, if the run was busy, waits again for the time that is left.
 */
final class IdleTimer {
  private final ScheduledExecutorService scheduler;
  private final long timeoutNanos;
  private final Runnable onIdle;
  private volatile long lastTouch;
  private ScheduledFuture<?> pending;
  private boolean stopped;

  private IdleTimer(ScheduledExecutorService scheduler, Duration timeout, Runnable onIdle) {
    this.scheduler = scheduler;
    this.timeoutNanos = timeout == null ? 0 : timeout.toNanos();
    this.onIdle = onIdle;
    this.lastTouch = System.nanoTime();
  }

  /** Starts counting now; with a null {@code timeout} it never fires. */
  static IdleTimer start(ScheduledExecutorService scheduler, Duration timeout, Runnable onIdle) {
    IdleTimer timer = new IdleTimer(scheduler, timeout, onIdle);
    if (timeout != null) {
      timer.schedule(timer.timeoutNanos);
    }
    return timer;
  }

  /** Real progress: the idle period starts again. */
  void touch() {
    lastTouch = System.nanoTime();
  }

  /** The run ended: the timer never fires after this returns. */
  synchronized void stop() {
    stopped = true;
    if (pending != null) {
      pending.cancel(false);
    }
  }

  private synchronized void schedule(long delayNanos) {
    if (!stopped) {
      pending = scheduler.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void check() {
    long idle = System.nanoTime() - lastTouch;
    if (idle < timeoutNanos) {
      schedule(timeoutNanos - idle);
      return;
    }
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
    }
    onIdle.run();
  }
}
