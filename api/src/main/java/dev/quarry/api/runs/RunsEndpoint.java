package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@code POST /v1/runs}, the reference host's run endpoint for the {@code retrieval} provider.
 * Everything that can be refused is refused before the stream opens, as a plain HTTP error in the
 * error envelope: the version, the token (401), the scoped-retrieval feature (400), the request
 * (400, naming the field), the grants (403) and capacity (429). Then the run starts:
 *
 * <ul>
 *   <li>{@code "stream": true}: {@code 200 text/event-stream}, one frame per event, flushed as it
 *       happens, ending after the terminal event; a client that goes away cancels the run.
 *   <li>{@code "stream": false}: once the run ended, {@code {"runId", "result"}}, or the error
 *       envelope (with {@code runId}) at the status of the error's code.
 * </ul>
 *
 * <p>The host's {@code AgenticDriver-Accept-Optional-Events} header changes nothing: Quarry emits
 * no advisory events, so every client sees only the required vocabulary. Thread-safe; one per host.
 */
public final class RunsEndpoint extends StreamingRunEndpoint {
  public static final String PATH = "/v1/runs";

  /**
   * How often a quiet stream carries a comment frame: often enough that a client that left is
   * noticed within a few seconds, and well inside proxies' and Jetty's idle timeouts (30 s).
   */
  public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(2);

  /**
   * @param retrievalEnabled whether the scoped-retrieval feature is on; off, runs answer {@code 400
   *     RETRIEVAL_UNAVAILABLE}
   * @param heartbeat the interval of comment frames on a quiet stream, positive
   */
  public RunsEndpoint(
      RetrievalRuns runs,
      Authenticator authenticator,
      boolean retrievalEnabled,
      Limits limits,
      StrictJson json,
      Duration heartbeat) {
    super(runs, authenticator, retrievalEnabled, limits, json, heartbeat);
  }

  /**
   * The endpoint with Quarry's defaults: {@link RetrievalRuns#DEFAULT_MAX_RUNNING} runs, the system
   * clock.
   */
  public static RunsEndpoint withDefaults(
      Corpora corpora,
      Authenticator authenticator,
      boolean retrievalEnabled,
      Limits limits,
      StrictJson json) {
    return new RunsEndpoint(
        defaultRuns(corpora), authenticator, retrievalEnabled, limits, json, DEFAULT_HEARTBEAT);
  }

  @Override
  protected Work prepare(Context ctx, Access access) {
    RunRequest request = RunRequest.read(WireObject.root(json.parseObject(readBody(ctx))), limits);
    Retrieval.Prepared prepared =
        runs.retrieval().prepare(access, request.retrieval(), request.input());
    if (request.stream()) {
      return c -> stream(c, prepared, request.idleTimeout());
    }
    return c -> await(c, prepared, request.idleTimeout());
  }

  private void stream(Context ctx, Retrieval.Prepared prepared, Duration idleTimeout)
      throws IOException {
    BlockingQueue<RunEvent> events = new LinkedBlockingQueue<>();
    RetrievalRuns.Run run = runs.start(prepared, idleTimeout, events::add);
    try {
      new SseWriter(openStream(ctx, "text/event-stream;charset=utf-8"), json.mapper(), heartbeat)
          .pump(events, run);
    } catch (IOException | RuntimeException | Error e) {
      run.cancel(ErrorCode.CANCELLED, "the stream could not be written");
      throw e;
    }
  }

  private void await(Context ctx, Retrieval.Prepared prepared, Duration idleTimeout) {
    RetrievalRuns.Run run = runs.start(prepared, idleTimeout, event -> {});
    RunOutcome outcome;
    try {
      outcome = run.outcome().get();
    } catch (InterruptedException e) {
      run.cancel(ErrorCode.CANCELLED, "the server stopped waiting for the run");
      Thread.currentThread().interrupt();
      throw new QuarryException(ErrorCode.UNAVAILABLE, "the server stopped waiting for the run");
    } catch (ExecutionException e) {
      throw new IllegalStateException("a run's outcome is never exceptional", e);
    }
    switch (outcome) {
      case RunOutcome.Completed c -> {
        ObjectNode body = json.mapper().createObjectNode().put("runId", run.id());
        body.set("result", RunPayloads.result(c.result()));
        Responses.write(ctx, 200, body, json.mapper());
      }
      case RunOutcome.Failed f -> ErrorResponses.write(ctx, f.error(), json.mapper(), run.id());
      case RunOutcome.Cancelled c -> ErrorResponses.write(ctx, c.error(), json.mapper(), run.id());
    }
  }
}
