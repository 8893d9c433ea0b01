package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.BodyReader;
import dev.quarry.api.routes.Authentication;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /v1/agui/retrieval}: a retrieval run spoken as AG-UI. It takes AG-UI's
 * {@code RunAgentInput} ({@link AguiRequest}) and answers with AG-UI events ({@link AguiEvents})
 * over server-sent events, or as length-prefixed protobuf frames when the {@code Accept} header
 * asks for {@value AguiFraming#PROTO_MEDIA_TYPE}. Behind the same tokens, grants and order of
 * checks as {@code /v1/runs}: everything that can be refused is refused before the stream opens,
 * as a plain HTTP error in Quarry's error envelope; what goes wrong after {@code RUN_STARTED} is
 * {@code RUN_ERROR}. A client that goes away cancels the run; {@code forwardedProps.idleTimeoutMs}
 * ends a quiet run with {@code RUN_ERROR} {@code IDLE_TIMEOUT}. Thread-safe; one per host.
 */
public final class AguiEndpoint implements Handler {
  public static final String PATH = "/v1/agui/retrieval";

  private final RetrievalRuns runs;
  private final Authenticator authenticator;
  private final boolean retrievalEnabled;
  private final Limits limits;
  private final StrictJson json;
  private final Duration heartbeat;

  public AguiEndpoint(RetrievalRuns runs, Authenticator authenticator, boolean retrievalEnabled, Limits limits,
      StrictJson json, Duration heartbeat) {
    this.runs = Objects.requireNonNull(runs, "runs");
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    this.retrievalEnabled = retrievalEnabled;
    this.limits = Objects.requireNonNull(limits, "limits");
    this.json = Objects.requireNonNull(json, "json");
    this.heartbeat = Objects.requireNonNull(heartbeat, "heartbeat");
  }

  /** The endpoint with Quarry's defaults: its own {@link RetrievalRuns#DEFAULT_MAX_RUNNING} runs, the system clock. */
  public static AguiEndpoint withDefaults(Corpora corpora, Authenticator authenticator, boolean retrievalEnabled,
      Limits limits, StrictJson json) {
    RetrievalRuns runs = new RetrievalRuns(new Retrieval(corpora), RetrievalRuns.DEFAULT_MAX_RUNNING, RunObserver.NONE,
        InstantSource.system());
    return new AguiEndpoint(runs, authenticator, retrievalEnabled, limits, json, RunsEndpoint.DEFAULT_HEARTBEAT);
  }

  @Override
  public void handle(Context ctx) {
    try {
      ProtocolHeaders.checkRequestedVersion(ctx.header(ProtocolHeaders.VERSION_HEADER));
      Access access = Authentication.authenticate(ctx, authenticator);
      if (!retrievalEnabled) {
        throw new QuarryException(ErrorCode.RETRIEVAL_UNAVAILABLE,
            "the scoped-retrieval feature, which AG-UI runs use, is not available on this server");
      }
      BodyReader.checkJsonContentType(ctx.header("Content-Type"));
      byte[] bytes = BodyReader.read(ctx.req().getInputStream(), ctx.req().getContentLengthLong(),
          limits.get(Limit.MAX_REQUEST_BYTES));
      AguiRequest request = AguiRequest.read(WireObject.root(json.parseObject(bytes)), limits);
      Retrieval.Prepared prepared = runs.retrieval().prepare(access, request.options(), request.query());
      stream(ctx, request, prepared, AguiFraming.forAccept(ctx.header("Accept"), json.mapper()));
    } catch (QuarryException e) {
      fail(ctx, e);
    } catch (RuntimeException | IOException e) {
      fail(ctx, ErrorResponses.internal(e));
    }
  }

  private void stream(Context ctx, AguiRequest request, Retrieval.Prepared prepared, AguiFraming framing)
      throws IOException {
    BlockingQueue<RunEvent> events = new LinkedBlockingQueue<>();
    RetrievalRuns.Run run = runs.start(prepared, request.idleTimeout(), events::add);
    HttpServletResponse res = ctx.res();
    Responses.markAnswered(ctx);
    res.setStatus(200);
    res.setHeader(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    res.setContentType(framing.contentType());
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("X-Accel-Buffering", "no");
    AguiEvents translator = new AguiEvents(request, json.mapper());
    OutputStream out = res.getOutputStream();
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
    } catch (RuntimeException e) {
      // A fault of ours after the stream opened: the run stops, and the fault is logged by the host.
      run.cancel(ErrorCode.CANCELLED, "the stream could not be written");
      throw e;
    } catch (InterruptedException e) {
      run.cancel(ErrorCode.CANCELLED, "the server stopped streaming the run");
      Thread.currentThread().interrupt();
    }
  }

  private void fail(Context ctx, QuarryException e) {
    if (ctx.res().isCommitted()) {
      return;
    }
    ObjectNode body = ErrorEnvelope.of(e);
    Responses.write(ctx, HttpStatuses.of(e.code()), body, json.mapper());
  }
}
