package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Endpoint;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.engine.ErrorCode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /v1/agui/retrieval}: a retrieval run spoken as AG-UI. It takes AG-UI's {@code
 * RunAgentInput} ({@link AguiRequest}) and answers with AG-UI events ({@link AguiEvents}) over
 * server-sent events, or as length-prefixed protobuf frames when the {@code Accept} header asks for
 * {@value AguiFraming#PROTO_MEDIA_TYPE}. Behind the same tokens, grants and order of checks as
 * {@code /v1/runs}: everything that can be refused is refused before the stream opens, as a plain
 * HTTP error in Quarry's error envelope; what goes wrong after {@code RUN_STARTED} is {@code
 * RUN_ERROR}. A client that goes away cancels the run; {@code forwardedProps.idleTimeoutMs} ends a
 * quiet run with {@code RUN_ERROR} {@code IDLE_TIMEOUT}. The checks before the stream are the
 * {@link Endpoint} pipeline's (version, authentication, feature, then the body read here), so their
 * order cannot drift from the other endpoints'. Thread-safe; one per host.
 */
public final class AguiEndpoint extends StreamingRunEndpoint {
  public static final String PATH = "/v1/agui/retrieval";

  /**
   * @param retrievalEnabled whether the scoped-retrieval feature is on; off, runs answer {@code 400
   *     RETRIEVAL_UNAVAILABLE}
   * @param heartbeat the interval of comment frames on a quiet SSE stream, positive
   */
  public AguiEndpoint(
      RetrievalRuns runs,
      Authenticator authenticator,
      boolean retrievalEnabled,
      Limits limits,
      StrictJson json,
      Duration heartbeat) {
    super(runs, authenticator, retrievalEnabled, limits, json, heartbeat);
  }

  /**
   * The endpoint with Quarry's defaults: its own {@link RetrievalRuns#DEFAULT_MAX_RUNNING} runs,
   * the system clock.
   */
  public static AguiEndpoint withDefaults(
      Corpora corpora,
      Authenticator authenticator,
      boolean retrievalEnabled,
      Limits limits,
      StrictJson json) {
    return new AguiEndpoint(
        defaultRuns(corpora),
        authenticator,
        retrievalEnabled,
        limits,
        json,
        RunsEndpoint.DEFAULT_HEARTBEAT);
  }

  /**
   * The RunAgentInput (400 naming the field), the grants (403) and existence: all before the stream
   * opens.
   */
  @Override
  protected Work prepare(Context ctx, Access access) {
    AguiRequest request =
        AguiRequest.read(WireObject.root(json.parseObject(readBody(ctx))), limits);
    Retrieval.Prepared prepared =
        runs.retrieval().prepare(access, request.options(), request.query());
    AguiFraming framing = AguiFraming.forAccept(ctx.header("Accept"), json.mapper());
    return c -> stream(c, request, prepared, framing);
  }

  private void stream(
      Context ctx, AguiRequest request, Retrieval.Prepared prepared, AguiFraming framing)
      throws IOException {
    BlockingQueue<RunEvent> events = new LinkedBlockingQueue<>();
    RetrievalRuns.Run run = runs.start(prepared, request.idleTimeout(), events::add);
    OutputStream out = openStream(ctx, framing.contentType());
    AguiEvents translator = new AguiEvents(request, json.mapper());
    try {
      while (true) {
        RunEvent event = events.poll(heartbeat.toNanos(), TimeUnit.NANOSECONDS);
        if (event == null) {
          byte[] beat = framing.heartbeat();
          if (beat != null) {
            out.write(beat);
            out.flush();
          }
          continue;
        }
        for (ObjectNode agui : translator.translate(event)) {
          out.write(framing.frame(agui));
        }
        out.flush();
        if (event.terminal()) {
          return;
        }
      }
    } catch (IOException e) {
      run.cancel(ErrorCode.CANCELLED, "the client closed the stream");
    } catch (RuntimeException | Error e) {
      // A fault of ours after the stream opened: the run stops; the pipeline logs the fault, and
      // writes nothing more on the committed answer (ErrorResponses).
      run.cancel(ErrorCode.CANCELLED, "the stream could not be written");
      throw e;
    } catch (InterruptedException e) {
      run.cancel(ErrorCode.CANCELLED, "the server stopped streaming the run");
      Thread.currentThread().interrupt();
    }
  }
}
