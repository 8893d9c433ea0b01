package dev.quarry.client;

/**
 * A run started and then ended without a result: {@code run.failed}, or {@code run.cancelled}
 * ({@code CANCELLED}, {@code IDLE_TIMEOUT}), or the error answer of a blocking run.
 *
 * @quarry.experimental
 */
public final class RunFailedException extends QuarryClientException {
  private static final long serialVersionUID = 1L;
  private final String runId;
  private final boolean cancelled;
  private final transient ErrorInfo error;

  public RunFailedException(String runId, boolean cancelled, ErrorInfo error) {
    super(
        "run "
            + runId
            + (cancelled ? " cancelled: " : " failed: ")
            + error.code()
            + ": "
            + error.message(),
        null);
    this.runId = runId;
    this.cancelled = cancelled;
    this.error = error;
  }

  public String runId() {
    return runId;
  }

  /** Whether the run was cancelled (by its client or its idle timeout) rather than failed. */
  public boolean cancelled() {
    return cancelled;
  }

  public ErrorInfo error() {
    return error;
  }
}
