package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.QuarryException;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The event sequence of one run, guarded so that it always reads like the contract: {@code
 * run.started} first, then progress, then exactly one terminal event, and nothing after it.
 * Sequences start at 1 and grow by exactly one.
 *
 * <p>Thread-safe: the run's thread, its idle timer and its stream writer all report here and race
 * to end the run; the first terminal event wins and every later report is refused ({@code false}).
 * Events reach the sink in sequence order, under this object's lock, so the sink must not block.
 */
final class RunEvents {
  private enum State {
    NEW,
    RUNNING,
    ENDED
  }

  private final String runId;
  private final InstantSource clock;
  private final Consumer<RunEvent> sink;
  private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
  private State state = State.NEW;
  private long sequence;

  RunEvents(String runId, InstantSource clock, Consumer<RunEvent> sink) {
    this.runId = Objects.requireNonNull(runId, "runId");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  String runId() {
    return runId;
  }

  /** Completed with the run's outcome once its terminal event has gone to the sink. */
  CompletableFuture<RunOutcome> outcome() {
    return outcome;
  }

  boolean started() {
    synchronized (this) {
      if (state != State.NEW) {
        return false;
      }
      state = State.RUNNING;
      emit(
          RunEvent.STARTED,
          JsonNodeFactory.instance.objectNode().put("provider", RunRequest.PROVIDER));
      return true;
    }
  }

  boolean progress(String phase, Map<String, Object> context) {
    ObjectNode data = JsonNodeFactory.instance.objectNode().put("phase", phase);
    data.set("context", RunPayloads.context(context));
    synchronized (this) {
      if (state != State.RUNNING) {
        return false;
      }
      emit(RunEvent.PROGRESS, data);
      return true;
    }
  }

  boolean completed(RetrievalResult result) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.set("result", RunPayloads.result(result));
    return end(RunEvent.COMPLETED, data, new RunOutcome.Completed(result));
  }

  boolean failed(QuarryException error) {
    return end(RunEvent.FAILED, errorData(error), new RunOutcome.Failed(error));
  }

  boolean cancelled(QuarryException reason) {
    return end(RunEvent.CANCELLED, errorData(reason), new RunOutcome.Cancelled(reason));
  }

  private boolean end(String type, ObjectNode data, RunOutcome ending) {
    synchronized (this) {
      if (state == State.ENDED) {
        return false;
      }
      if (state == State.NEW) {
        // A run that ends before it started still opens with run.started.
        state = State.RUNNING;
        emit(
            RunEvent.STARTED,
            JsonNodeFactory.instance.objectNode().put("provider", RunRequest.PROVIDER));
      }
      state = State.ENDED;
      emit(type, data);
    }
    // Outside the lock: whoever waits for the outcome may do slow things with it.
    outcome.complete(ending);
    return true;
  }

  private void emit(String type, ObjectNode data) {
    sink.accept(new RunEvent(type, runId, ++sequence, clock.instant(), data));
  }

  private static ObjectNode errorData(QuarryException e) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.set("error", RunPayloads.error(e));
    return data;
  }
}
