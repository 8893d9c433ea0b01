package dev.quarry.api.runs;

import java.util.Map;

/**
 * What a host may watch of its runs, for logs, metrics or audit. Called on the thread that made the
 * report, after the event has been queued for the client: {@link #progress} on the run's own thread
 * (a slow observer holds the retrieval up, and so counts against the idle timeout), {@link #ended}
 * on whichever thread ended the run (the run, its idle timer, or its stream writer when the client
 * went away). Must be thread-safe; exceptions are logged, not thrown.
 */
public interface RunObserver {
  /** Observes nothing. */
  RunObserver NONE = new RunObserver() {};

  /** One {@code run.progress} event was queued. */
  default void progress(String runId, String phase, Map<String, Object> context) {}

  /** The run's terminal event was queued; nothing follows it. */
  default void ended(String runId, RunOutcome outcome) {}
}
