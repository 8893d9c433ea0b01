package dev.quarry.client;

import java.util.Map;

/**
 * One wire event of a run, after envelope validation. {@code phase} and {@code context} are set on
 * {@code run.progress}, {@code result} on {@code run.completed}, {@code error} on {@code
 * run.failed} and {@code run.cancelled}.
 *
 * @quarry.experimental
 */
public record RunEvent(
    String type,
    String runId,
    long sequence,
    String timestamp,
    String phase,
    Map<String, Object> context,
    RunResult result,
    ErrorInfo error) {
  public static final String STARTED = "run.started";
  public static final String PROGRESS = "run.progress";
  public static final String COMPLETED = "run.completed";
  public static final String FAILED = "run.failed";
  public static final String CANCELLED = "run.cancelled";

  public boolean terminal() {
    return COMPLETED.equals(type) || FAILED.equals(type) || CANCELLED.equals(type);
  }
}
