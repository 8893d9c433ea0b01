package dev.quarry.api.runs;

import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.Objects;

/** How a run ended: the one terminal event it sent, as a value. */
public sealed interface RunOutcome {
  /** {@code run.completed}: the retrieval's passages. */
  record Completed(RetrievalResult result) implements RunOutcome {
    public Completed {
      Objects.requireNonNull(result, "result");
    }
  }

  /** {@code run.failed}: something went wrong after {@code run.started}. */
  record Failed(QuarryException error) implements RunOutcome {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }

  /** {@code run.cancelled}: the client cancelled or abandoned the run, or it went idle. */
  record Cancelled(QuarryException error) implements RunOutcome {
    public Cancelled {
      Objects.requireNonNull(error, "error");
      if (error.code() != ErrorCode.CANCELLED && error.code() != ErrorCode.IDLE_TIMEOUT) {
        throw new IllegalArgumentException(
            "a cancelled run ends with CANCELLED or IDLE_TIMEOUT; got " + error.code());
      }
    }
  }
}
