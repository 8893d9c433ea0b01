package dev.quarry.api.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.run.Cancellation;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.corpora.run.RetrievalOptions;
import dev.quarry.corpora.run.RetrievalProgress;
import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.SourceOperation;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.RunStream;
import io.javalin.Javalin;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that embeds Quarry in its own Javalin app, as docs/embedding.md shows: the plugin with the
 * host's authenticator, a route of the host's own that runs a retrieval with a progress listener,
 * and the runs endpoint with a host observer that can hold a retrieval up, which is how the idle
 * timeout and a client's disconnect are made to happen while a retrieval is in flight.
 */
class EmbeddedHostTest {
  static final String TOKEN = "host-user-token";
  static final String ADMIN_TOKEN = "host-admin-token";
  static final Access USER =
      new Access(
          "host-user",
          List.of(new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH))));
  static final Access ADMIN =
      new Access("host-admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));

  /** Bounds a hang; never a measure of speed. */
  static final long WAIT_SECONDS = 30;

  /** Runs this host lets run at once. */
  static final int MAX_RUNS = 2;

  @TempDir Path data;
  Corpora corpora;
  Javalin app;
  ApiClient api;
  RetrievalRuns runs;
  final HoldingObserver observer = new HoldingObserver();

  /** Records what the host sees of its runs; holds a run at its first phase while armed. */
  static final class HoldingObserver implements RunObserver {
    final List<String> phases = new CopyOnWriteArrayList<>();
    final CompletableFuture<RunOutcome> ended = new CompletableFuture<>();
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean armed;

    @Override
    public void progress(String runId, String phase, Map<String, Object> context) {
      phases.add(phase);
      if (armed && phase.equals(RetrievalProgress.RESOLVING_SOURCES)) {
        held.countDown();
        try {
          release.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void ended(String runId, RunOutcome outcome) {
      ended.complete(outcome);
    }
  }

  @BeforeEach
  void startHost() {
    corpora = Corpora.builder().dataDir(data).build();
    corpora.createCorpus(ADMIN, "handbook", null);
    corpora.mutate(
        ADMIN,
        "handbook",
        List.of(
            SourceOperation.Index.text(
                "policies/leave", "Leave", "Parental leave lasts sixteen weeks.", null),
            SourceOperation.Index.text(
                "hr/salaries", "Salaries", "Parental leave salary tables.", null)),
        null,
        null);
    Authenticator authenticator =
        token ->
            TOKEN.equals(token)
                ? Optional.of(USER)
                : ADMIN_TOKEN.equals(token) ? Optional.of(ADMIN) : Optional.empty();
    QuarryPlugin quarry = new QuarryPlugin(c -> c.corpora(corpora).authenticator(authenticator));
    Retrieval retrieval = new Retrieval(corpora);
    runs = new RetrievalRuns(retrieval, MAX_RUNS, observer, InstantSource.system());
    RunsEndpoint runsEndpoint =
        new RunsEndpoint(
            runs, authenticator, true, Limits.DEFAULT, new StrictJson(), Duration.ofMillis(50));
    app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.registerPlugin(quarry);
              config.routes.post("/v1/runs", runsEndpoint);
              // The same runs (and so the same holding observer) spoken as AG-UI.
              config.routes.post(
                  AguiEndpoint.PATH,
                  new AguiEndpoint(
                      runs,
                      authenticator,
                      true,
                      Limits.DEFAULT,
                      new StrictJson(),
                      Duration.ofMillis(50)));
              // The host's own run: it calls Retrieval directly and reports the phases it saw.
              config.routes.post(
                  "/host/ask",
                  ctx -> {
                    Access access =
                        authenticator.authenticate(ctx.header("X-Host-Token")).orElseThrow();
                    Retrieval.Prepared prepared =
                        retrieval.prepare(
                            access,
                            new RetrievalOptions("handbook", null, null, 3, null, null),
                            ctx.body());
                    List<String> seen = new CopyOnWriteArrayList<>();
                    RetrievalResult result =
                        retrieval.run(
                            prepared,
                            (phase, context) ->
                                seen.add(phase + " " + context.keySet().stream().sorted().toList()),
                            new Cancellation());
                    ctx.json(
                        Map.of(
                            "phases",
                            seen,
                            "passages",
                            result.passages().size(),
                            "revision",
                            result.revision()));
                  });
            });
    app.start("127.0.0.1", 0);
    api = new ApiClient("http://127.0.0.1:" + app.port());
  }

  @AfterEach
  void stopHost() throws Exception {
    observer.release.countDown();
    app.stop();
    corpora.close();
  }

  @Test
  void hostRoute_runsARetrieval_andSeesEveryPhaseInOrder() {
    Answer a =
        api.post("/host/ask")
            .header("X-Host-Token", TOKEN)
            .bytes("parental leave".getBytes(StandardCharsets.UTF_8))
            .send();
    assertEquals(200, a.status(), a::toString);
    List<String> phases = ApiClient.JSON.convertValue(a.json().path("phases"), List.class);
    assertEquals(
        List.of(
            "retrieval.resolving-sources [corpus]",
            "retrieval.searching [corpus, revision, sources]",
            "retrieval.completed [corpus, results, revision]"),
        phases);
    assertEquals(1, a.json().path("passages").asInt(), "only the granted policies/* sources");
  }

  @Test
  void plugin_servesTheContract_withTheHostsAuthenticator() {
    assertEquals(
        200,
        api.retrieval("search", TOKEN, "{\"corpus\": \"handbook\", \"query\": \"leave\"}")
            .status());
    assertEquals(
        401,
        api.retrieval("search", "unknown", "{\"corpus\": \"handbook\", \"query\": \"leave\"}")
            .status());
  }

  /**
   * The host runs no embedding models (it did not add quarry-embeddings): a corpus naming one is
   * refused.
   */
  @Test
  void aHostWithoutModels_refusesAnEmbeddingCorpus_onTheModelSetting() {
    Answer a =
        api.retrieval(
            "corpora/create",
            ADMIN_TOKEN,
            "{\"corpus\": \"semantic\", \"settings\": {\"embedding\": {\"model\": \"bge-small-en-v1.5\"}}}");
    assertEquals(400, a.status(), a::body);
    assertEquals("INVALID_REQUEST", a.code());
    assertEquals("settings.embedding.model", a.field());
    assertTrue(a.body().contains("runs no embedding models"), a::body);
    assertEquals(
        404,
        api.retrieval("corpora/read", ADMIN_TOKEN, "{\"corpus\": \"semantic\"}").status(),
        "nothing was created");
    assertEquals(
        200,
        api.retrieval("corpora/create", ADMIN_TOKEN, "{\"corpus\": \"lexical\"}").status(),
        "a lexical corpus needs no model");
  }

  @Test
  void idleTimeout_whileTheRetrievalIsHeld_endsWithRunCancelledIdleTimeout() throws Exception {
    observer.armed = true;
    Answer a =
        api.post("/v1/runs")
            .token(TOKEN)
            .json(
                """
        {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "handbook"},
         "stream": true, "idleTimeoutMs": 400}""")
            .send();
    RunStream stream = RunStream.parse(a.body());
    JsonNode terminal = stream.checkEnvelope();
    assertEquals("run.cancelled", terminal.path("type").asText(), terminal::toString);
    assertEquals("IDLE_TIMEOUT", terminal.path("error").path("code").asText());
    assertTrue(
        stream.comments > 0,
        "heartbeats flowed while the run was held, and did not reset the idle timer");
    RunOutcome outcome = observer.ended.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(
        ErrorCode.IDLE_TIMEOUT,
        assertInstanceOf(RunOutcome.Cancelled.class, outcome).error().code());
    observer.release.countDown();
    awaitNoRunning();
    assertEquals(
        List.of(RetrievalProgress.RESOLVING_SOURCES),
        observer.phases,
        "the cancelled retrieval searched nothing");
  }

  @Test
  void idleTimeout_ofANonStreamingRun_isA408WithTheRunId() {
    observer.armed = true;
    Answer a =
        api.post("/v1/runs")
            .token(TOKEN)
            .json(
                """
        {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "handbook"}, "idleTimeoutMs": 300}""")
            .send();
    assertEquals(408, a.status(), a::toString);
    assertEquals("IDLE_TIMEOUT", a.code());
    assertTrue(a.json().path("runId").asText().startsWith("run_"));
  }

  @Test
  void clientDisconnect_cancelsTheRetrievalInFlight() throws Exception {
    observer.armed = true;
    postThenGoAway(
        "/v1/runs",
        """
        {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "handbook"}, "stream": true}""",
        "retrieval.resolving-sources");
    RunOutcome outcome = observer.ended.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(
        ErrorCode.CANCELLED, assertInstanceOf(RunOutcome.Cancelled.class, outcome).error().code());
    observer.release.countDown();
    awaitNoRunning();
    assertFalse(
        observer.phases.contains(RetrievalProgress.SEARCHING),
        "the abandoned retrieval stopped before searching");
  }

  static String aguiInput(String idleTimeout) {
    return """
        {"threadId": "t1", "runId": "r1", "messages": [{"id": "u1", "role": "user", "content": "parental leave"}],
         "tools": [], "context": [], "state": {},
         "forwardedProps": {"retrieval": {"corpus": "handbook"}%s}}"""
        .formatted(idleTimeout);
  }

  @Test
  void aguiIdleTimeout_whileTheRetrievalIsHeld_endsWithOneRunErrorIdleTimeout() throws Exception {
    observer.armed = true;
    Answer a =
        api.post(AguiEndpoint.PATH)
            .token(TOKEN)
            .header("Accept", "text/event-stream")
            .json(aguiInput(", \"idleTimeoutMs\": 400"))
            .send();
    assertEquals(200, a.status(), a::toString);
    List<JsonNode> events = new ArrayList<>();
    int heartbeats = 0;
    for (String line : a.body().split("\n")) {
      if (line.startsWith("data: ")) {
        events.add(ApiClient.JSON.readTree(line.substring(6)));
      } else if (line.startsWith(":")) {
        heartbeats++;
      }
    }
    List<String> types = events.stream().map(e -> e.path("type").asText()).toList();
    assertEquals("RUN_STARTED", types.get(0), types::toString);
    assertEquals("RUN_ERROR", types.get(types.size() - 1), types::toString);
    assertEquals(
        1,
        types.stream().filter(t -> t.equals("RUN_ERROR") || t.equals("RUN_FINISHED")).count(),
        types::toString);
    assertFalse(types.contains("TOOL_CALL_RESULT"), "the held retrieval found nothing: " + types);
    assertEquals(
        "IDLE_TIMEOUT", events.get(events.size() - 1).path("code").asText(), events::toString);
    assertTrue(
        heartbeats > 0,
        "heartbeats flowed while the run was held, and did not reset the idle timer");
    RunOutcome outcome = observer.ended.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(
        ErrorCode.IDLE_TIMEOUT,
        assertInstanceOf(RunOutcome.Cancelled.class, outcome).error().code());
    observer.release.countDown();
    awaitNoRunning();
    assertEquals(
        List.of(RetrievalProgress.RESOLVING_SOURCES),
        observer.phases,
        "the cancelled retrieval searched nothing");
  }

  @Test
  void aguiIdleTimeout_overProtobuf_endsTheFramesWithTheRunError() throws Exception {
    observer.armed = true;
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(api.baseUrl() + AguiEndpoint.PATH))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Content-Type", "application/json")
            .header("Accept", AguiFraming.PROTO_MEDIA_TYPE)
            .POST(HttpRequest.BodyPublishers.ofString(aguiInput(", \"idleTimeoutMs\": 400")))
            .build();
    HttpResponse<byte[]> res = api.http().send(request, HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, res.statusCode());
    assertEquals(
        AguiFraming.PROTO_MEDIA_TYPE, res.headers().firstValue("Content-Type").orElseThrow());
    List<AguiFrames.Frame> frames = AguiFrames.parse(res.body());
    List<String> types = frames.stream().map(AguiFrames.Frame::type).toList();
    assertEquals("RUN_STARTED", types.get(0), types::toString);
    assertEquals(
        List.of("t1", "r1"),
        List.of(frames.get(0).string(2), frames.get(0).string(3)),
        "the request's ids");
    assertEquals("RUN_ERROR", types.get(types.size() - 1), types::toString);
    assertEquals(
        1,
        types.stream().filter(t -> t.equals("RUN_ERROR") || t.equals("RUN_FINISHED")).count(),
        types::toString);
    assertFalse(types.contains("TOOL_CALL_RESULT"), "the held retrieval found nothing: " + types);
    assertEquals("IDLE_TIMEOUT", frames.get(frames.size() - 1).string(2), "RunErrorEvent.code");
    RunOutcome outcome = observer.ended.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(
        ErrorCode.IDLE_TIMEOUT,
        assertInstanceOf(RunOutcome.Cancelled.class, outcome).error().code());
    observer.release.countDown();
    awaitNoRunning();
    assertEquals(
        List.of(RetrievalProgress.RESOLVING_SOURCES),
        observer.phases,
        "the cancelled retrieval searched nothing");
  }

  @Test
  void aguiClientDisconnect_cancelsTheRetrievalInFlight() throws Exception {
    observer.armed = true;
    postThenGoAway(AguiEndpoint.PATH, aguiInput(""), "RUN_STARTED");
    // The next heartbeat finds the connection gone and cancels the run, while the retrieval is
    // still held.
    RunOutcome outcome = observer.ended.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertEquals(
        ErrorCode.CANCELLED, assertInstanceOf(RunOutcome.Cancelled.class, outcome).error().code());
    observer.release.countDown();
    awaitNoRunning();
    assertFalse(
        observer.phases.contains(RetrievalProgress.SEARCHING),
        "the abandoned retrieval stopped before searching");
  }

  @Test
  void aguiRefusals_followThePipelinesOrder() {
    // version before authentication, authentication before the body, the body before the grants
    Answer version =
        api.post(AguiEndpoint.PATH)
            .token("unknown")
            .header("AgenticDriver-Version", "2.0")
            .json("{")
            .send();
    assertEquals(400, version.status());
    assertEquals("UNSUPPORTED_PROTOCOL_VERSION", version.code());
    Answer unauthenticated = api.post(AguiEndpoint.PATH).token("unknown").json("{").send();
    assertEquals(401, unauthenticated.status());
    Answer malformed = api.post(AguiEndpoint.PATH).token(TOKEN).json("{").send();
    assertEquals(400, malformed.status());
    assertEquals("INVALID_REQUEST", malformed.code());
    Answer forbidden =
        api.post(AguiEndpoint.PATH)
            .token(TOKEN)
            .json(aguiInput("").replace("\"handbook\"", "\"elsewhere\""))
            .send();
    assertEquals(403, forbidden.status(), forbidden::toString);
    assertTrue(
        forbidden.header("Content-Type").startsWith("application/json"),
        "refused before the stream opened");
  }

  @Test
  void aRunBeyondTheBound_isAPlain429_beforeAnyEvent() throws Exception {
    observer.armed = true;
    HttpRequest held =
        HttpRequest.newBuilder(URI.create(api.baseUrl() + "/v1/runs"))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    """
            {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "handbook"}, "stream": true}"""))
            .build();
    List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
    for (int i = 0; i < MAX_RUNS; i++) {
      running.add(api.http().sendAsync(held, HttpResponse.BodyHandlers.ofString()));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (runs.running() < MAX_RUNS && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    Answer refused =
        api.post("/v1/runs")
            .token(TOKEN)
            .json(
                """
        {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "handbook"}, "stream": true}""")
            .send();
    assertEquals(429, refused.status(), refused::toString);
    assertEquals("CAPACITY", refused.code());
    assertTrue(refused.json().path("error").path("retryable").asBoolean());
    assertTrue(
        refused.header("Content-Type").startsWith("application/json"),
        "refused before the stream opened");
    observer.release.countDown();
    for (CompletableFuture<HttpResponse<String>> r : running) {
      JsonNode terminal =
          RunStream.parse(r.get(WAIT_SECONDS, TimeUnit.SECONDS).body()).checkEnvelope();
      assertEquals(
          "run.completed",
          terminal.path("type").asText(),
          "the runs in progress were not disturbed");
    }
  }

  /**
   * Posts {@code body} to {@code path} on a raw connection, reads the stream until a line holds
   * {@code marker} and the observer holds the retrieval, then closes the connection without a word.
   */
  private void postThenGoAway(String path, String body, String marker) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket("127.0.0.1", app.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                  + TOKEN
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + bytes.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      String line;
      do {
        line = in.readLine();
      } while (line != null && !line.contains(marker));
      assertTrue(line != null, "the stream reached " + marker);
      assertTrue(observer.held.await(WAIT_SECONDS, TimeUnit.SECONDS), "the retrieval was held");
    }
  }

  private void awaitNoRunning() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (runs.running() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, runs.running(), "the run's thread finished and gave its place back");
  }
}
