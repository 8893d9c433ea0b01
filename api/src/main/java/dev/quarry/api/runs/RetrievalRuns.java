package dev.quarry.api.runs;

import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.corpora.run.Cancellation;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs prepared retrievals as wire runs: each gets an unguessable id, its events ({@code
 * run.started}, {@code run.progress} per phase, one terminal event), its idle timeout, and a place
 * among at most {@code maxRunning} runs (the next one is refused with {@code 429 CAPACITY} before
 * anything starts).
 *
 * <pre>{@code
 * RetrievalRuns runs = new RetrievalRuns(new Retrieval(corpora), RetrievalRuns.DEFAULT_MAX_RUNNING,
 *     RunObserver.NONE, InstantSource.system());
 * Retrieval.Prepared prepared = retrieval.prepare(access, options, prompt);   // plain errors here
 * RetrievalRuns.Run run = runs.start(prepared, Duration.ofSeconds(30), queue::add);
 * }</pre>
 *
 * <p>Thread-safe; one per host. Its threads are daemons that end when idle, so nothing needs
 * closing.
 */
public final class RetrievalRuns {
  /** Runs at once; each holds a thread, and a streaming one also holds its connection's thread. */
  public static final int DEFAULT_MAX_RUNNING = 64;

  /** How long an idle run thread is kept for the next run. */
  private static final long IDLE_THREAD_SECONDS = 60;

  private static final Logger LOG = LoggerFactory.getLogger(RetrievalRuns.class);

  private final Retrieval retrieval;
  private final RunObserver observer;
  private final InstantSource clock;
  private final Semaphore places;
  private final RunIds ids = new RunIds();
  private final ExecutorService workers;
  private final ScheduledThreadPoolExecutor timers;
  private final int maxRunning;

  /**
   * @param maxRunning runs at once, at least 1
   * @param observer told of every run's progress and end; {@link RunObserver#NONE} for nothing
   * @param clock the source of event timestamps
   */
  public RetrievalRuns(
      Retrieval retrieval, int maxRunning, RunObserver observer, InstantSource clock) {
    if (maxRunning < 1) {
      throw new IllegalArgumentException("maxRunning must be at least 1; got " + maxRunning);
    }
    this.retrieval = Objects.requireNonNull(retrieval, "retrieval");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxRunning = maxRunning;
    this.places = new Semaphore(maxRunning);
    this.workers = Executors.newCachedThreadPool(daemons("quarry-run-"));
    this.timers = new ScheduledThreadPoolExecutor(1, daemons("quarry-run-timer-"));
    timers.setRemoveOnCancelPolicy(true);
    timers.setKeepAliveTime(IDLE_THREAD_SECONDS, TimeUnit.SECONDS);
    timers.allowCoreThreadTimeOut(true);
  }

  public Retrieval retrieval() {
    return retrieval;
  }

  /** Runs holding a place now: started, and their thread not yet finished. */
  public int running() {
    return maxRunning - places.availablePermits();
  }

  /**
   * Starts a run: {@code run.started} reaches {@code sink} before this returns, the rest follows
   * from the run's thread, its idle timer, or {@link Run#cancel}. {@code sink} receives the events
   * in sequence order and must not block.
   *
   * @param idleTimeout null for no deadline
   * @throws QuarryException CAPACITY when {@code maxRunning} runs are in progress; nothing started
   */
  public Run start(Retrieval.Prepared prepared, Duration idleTimeout, Consumer<RunEvent> sink) {
    Objects.requireNonNull(prepared, "prepared");
    Objects.requireNonNull(sink, "sink");
    if (!places.tryAcquire()) {
      throw new QuarryException(ErrorCode.CAPACITY, "too many runs in progress; retry shortly");
    }
    RunEvents events = new RunEvents(ids.next(), clock, sink);
    Cancellation cancellation = new Cancellation();
    Run run = new Run(events, cancellation);
    events.outcome().thenAccept(outcome -> observe(() -> observer.ended(events.runId(), outcome)));
    IdleTimer idle =
        IdleTimer.start(
            timers,
            idleTimeout,
            () ->
                run.cancel(
                    ErrorCode.IDLE_TIMEOUT,
                    "no progress for " + idleTimeout.toMillis() + " ms (idleTimeoutMs)"));
    events.started();
    try {
      workers.execute(() -> execute(prepared, events, cancellation, idle));
    } catch (RuntimeException e) {
      idle.stop();
      release();
      events.failed(new QuarryException(ErrorCode.UNAVAILABLE, "the run could not be started", e));
    }
    return run;
  }

  private void execute(
      Retrieval.Prepared prepared, RunEvents events, Cancellation cancellation, IdleTimer idle) {
    try {
      RetrievalResult result =
          retrieval.run(
              prepared,
              (phase, context) -> {
                idle.touch();
                if (events.progress(phase, context)) {
                  observe(() -> observer.progress(events.runId(), phase, context));
                }
              },
              cancellation);
      events.completed(result);
    } catch (QuarryException e) {
      QuarryException reason = cancellation.reason();
      if (reason != null) {
        events.cancelled(reason);
      } else {
        events.failed(ErrorResponses.of(e));
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      events.failed(ErrorResponses.of(e));
    } finally {
      idle.stop();
      release();
    }
  }

  private void release() {
    places.release();
  }

  private static void observe(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("a run observer failed", e);
    }
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** A run in progress, as its host holds it. Thread-safe. */
  public static final class Run {
    private final RunEvents events;
    private final Cancellation cancellation;

    private Run(RunEvents events, Cancellation cancellation) {
      this.events = events;
      this.cancellation = cancellation;
    }

    public String id() {
      return events.runId();
    }

    /** Completes when the run's terminal event has gone to the sink. */
    public CompletableFuture<RunOutcome> outcome() {
      return events.outcome();
    }

    /**
     * Ends the run with {@code run.cancelled} ({@code CANCELLED} or {@code IDLE_TIMEOUT}) unless it
     * already ended, and stops its retrieval at the next phase. Returns whether this call ended it.
     *
     * @throws IllegalArgumentException for any other code
     */
    public boolean cancel(ErrorCode code, String message) {
      if (code != ErrorCode.CANCELLED && code != ErrorCode.IDLE_TIMEOUT) {
        throw new IllegalArgumentException(
            "a run is cancelled with CANCELLED or IDLE_TIMEOUT; got " + code);
      }
      QuarryException reason = new QuarryException(code, message);
      cancellation.cancel(code, message);
      return events.cancelled(reason);
    }
  }
}
