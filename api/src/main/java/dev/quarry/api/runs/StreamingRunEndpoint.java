package dev.quarry.api.runs;

import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Endpoint;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.run.Retrieval;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Set;

/**
 * What the run endpoints ({@link RunsEndpoint}, {@link AguiEndpoint}) share: the scoped-retrieval
 * feature, no place in the request gate (runs have their own bound, checked after the grants: 429),
 * the runs they start, the heartbeat of a quiet stream, and the opening of a streamed answer.
 *
 * <p>Thread-safe; subclasses hold no per-request state.
 */
abstract class StreamingRunEndpoint extends Endpoint {
  final RetrievalRuns runs;
  final Duration heartbeat;

  /**
   * @param retrievalEnabled whether the scoped-retrieval feature is on; off, runs answer {@code 400
   *     RETRIEVAL_UNAVAILABLE}
   * @param heartbeat the interval of comment frames on a quiet stream, positive
   */
  StreamingRunEndpoint(
      RetrievalRuns runs,
      Authenticator authenticator,
      boolean retrievalEnabled,
      Limits limits,
      StrictJson json,
      Duration heartbeat) {
    // Not behind the request gate: the runs have their own bound, checked after the grants (429).
    super(
        authenticator,
        retrievalEnabled ? Set.of(Feature.SCOPED_RETRIEVAL) : Set.of(),
        Feature.SCOPED_RETRIEVAL,
        null,
        limits,
        json);
    this.runs = Objects.requireNonNull(runs, "runs");
    if (heartbeat.isNegative() || heartbeat.isZero()) {
      throw new IllegalArgumentException("heartbeat must be positive; got " + heartbeat);
    }
    this.heartbeat = heartbeat;
  }

  /**
   * Runs of their own with Quarry's defaults: {@link RetrievalRuns#DEFAULT_MAX_RUNNING} at once,
   * the system clock.
   */
  static RetrievalRuns defaultRuns(Corpora corpora) {
    return new RetrievalRuns(
        new Retrieval(corpora),
        RetrievalRuns.DEFAULT_MAX_RUNNING,
        RunObserver.NONE,
        InstantSource.system());
  }

  /**
   * Starts a {@code 200} answer of {@code contentType} with the version header; the frames follow
   * on the stream returned.
   */
  static OutputStream openStream(Context ctx, String contentType) throws IOException {
    HttpServletResponse res = ctx.res();
    Responses.markAnswered(ctx);
    res.setStatus(200);
    res.setHeader(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    res.setContentType(contentType);
    res.setHeader("Cache-Control", "no-cache");
    // Proxies that buffer responses (nginx) would hold the events back.
    res.setHeader("X-Accel-Buffering", "no");
    return res.getOutputStream();
  }
}
