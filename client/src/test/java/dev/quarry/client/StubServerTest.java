package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.client.StubServer.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client's reading rules, against answers a real Quarry server does not give. */
class StubServerTest {
  static final String PROTOCOL =
      "{\"version\": \"1.0\", \"supportedVersions\": [\"1.0\"], \"features\": [\"scoped-retrieval\"],"
          + " \"limits\": {\"maxTopK\": 100}}";
  static final String SHA = "a".repeat(64);
  static final String RECEIPT =
      "{\"corpus\": \"c\", \"corpusId\": \"k\", \"source\": \"s\", \"revision\": 4, \"sourceRevision\": 4,"
          + " \"status\": \"indexed\", \"contentSha256\": \"%s\", \"chunks\": 1, \"fromTheFuture\": {\"x\": [1, 2]}}";

  StubServer stub;
  QuarryClient client;

  @BeforeEach
  void start() throws Exception {
    stub = new StubServer();
    client = QuarryClient.create(stub.url(), "t0k3n");
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  @Test
  void everyRequestCarriesVersionAndToken() {
    stub.on("/v1/protocol", Reply.json(200, PROTOCOL));
    client.protocol();
    assertEquals("1.0", stub.received.get(0).header("Agenticdriver-version"));
    assertEquals("Bearer t0k3n", stub.received.get(0).header("Authorization"));
  }

  @Test
  void anAnswerSelectingAnotherVersion_isRefused_evenASuccessfulOne() {
    stub.on("/v1/protocol", new Reply(200, "2.0", "application/json", PROTOCOL));
    ProtocolException e = assertThrows(ProtocolException.class, client::protocol);
    assertEquals(ProtocolException.UNSUPPORTED_PROTOCOL_VERSION, e.code());
    assertTrue(e.getMessage().contains("2.0"), e.getMessage());
    // Also a run: refused before any event is read.
    stub.on("/v1/runs", new Reply(200, "1.1", "text/event-stream", "data: {}\n\n"));
    assertEquals(
        ProtocolException.UNSUPPORTED_PROTOCOL_VERSION,
        assertThrows(ProtocolException.class, () -> client.stream(RunRequest.of("c", "q"))).code());
  }

  @Test
  void anAnswerWithoutAVersion_isTheLegacyContract() {
    stub.on("/v1/protocol", new Reply(200, null, "application/json", PROTOCOL));
    assertEquals("1.0", client.protocol().version());
  }

  @Test
  void unknownFieldsAreIgnored() {
    stub.on(
        "/v1/protocol",
        Reply.json(
            200,
            "{\"version\": \"1.0\", \"supportedVersions\": [\"1.0\", \"1.1\"],"
                + " \"features\": [\"scoped-retrieval\", \"time-travel\"], \"limits\": {\"maxTopK\": 100, \"maxWarpFactor\": 9},"
                + " \"vendor\": {\"name\": \"x\"}}"));
    Protocol p = client.protocol();
    assertTrue(p.hasFeature("time-travel"));
    assertEquals(100L, p.limit("maxTopK"));
    stub.on("/v1/retrieval/sources/index", Reply.json(200, RECEIPT.formatted(SHA)));
    assertEquals(4, client.index("c", Document.text("s", "t")).revision());
  }

  static final String CORPUS =
      "{\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 2, \"sources\": 1,"
          + " \"settings\": {\"language\": \"english\", \"chunking\": {\"maxWords\": 250, \"overlapWords\": 50},"
          + " \"ranking\": {\"k1\": 0.9, \"b\": 0.4, \"titleWeight\": 2.0}, \"embedding\": {\"model\": \"bge-small-en-v1.5\","
          + " \"sha256\": \"%s\", \"semanticWeight\": 0.5, \"index\": \"exact\", \"normalization\": \"%s\"}},"
          + " \"createdAt\": \"2026-12-01T00:00:00Z\"}";

  @Test
  void aNormalizationALaterServerAdds_isReadAsItsText_andNeverSent() {
    stub.on("/v1/retrieval/corpora/read", Reply.json(200, CORPUS.formatted(SHA, "zscore")));
    Settings.Embedding read = client.readCorpus("c").settings().embedding();
    assertEquals("bge-small-en-v1.5", read.model());
    assertEquals("zscore", read.normalization().wireName());
    assertFalse(read.normalization().known());
    assertEquals(
        read.normalization(),
        client.readCorpus("c").settings().embedding().normalization(),
        "equal by its text");
    assertFalse(List.of(Settings.Normalization.values()).contains(read.normalization()));
    assertThrows(
        IllegalArgumentException.class,
        () -> read.withNormalization(read.normalization()),
        "a request carries only the normalizations the client knows");
    assertThrows(
        IllegalArgumentException.class,
        () -> SearchRequest.Fusion.convex(0.5).withNormalization(read.normalization()));

    stub.on("/v1/retrieval/corpora/read", Reply.json(200, CORPUS.formatted(SHA, "theoretical")));
    Settings.Normalization known = client.readCorpus("c").settings().embedding().normalization();
    assertSame(Settings.Normalization.THEORETICAL, known, "a known value is read as its constant");
    assertTrue(known.known());
  }

  @Test
  void anUnknownErrorCode_keepsItsCodeMessageRetryabilityAndOutcome() {
    stub.on(
        "/v1/retrieval/search",
        Reply.json(
            409,
            "{\"error\": {\"code\": \"QUANTUM_CONFLICT\", \"message\": \"try later\","
                + " \"retryable\": true, \"outcome\": \"uncertain\", \"hint\": \"new field\"}}"));
    ApiException e = assertThrows(ApiException.class, () -> client.search("c", "q"));
    assertInstanceOf(ApiException.ConflictException.class, e);
    assertEquals("QUANTUM_CONFLICT", e.code());
    assertEquals("try later", e.error().message());
    assertTrue(e.retryable());
    assertTrue(e.uncertain());
    assertEquals(409, e.status());
    stub.on(
        "/v1/retrieval/search",
        Reply.json(
            418, "{\"error\": {\"code\": \"TEAPOT\", \"message\": \"m\", \"retryable\": false}}"));
    ApiException teapot = assertThrows(ApiException.class, () -> client.search("c", "q"));
    assertEquals(ApiException.class, teapot.getClass());
    assertEquals("TEAPOT", teapot.code());
  }

  @Test
  void anAnswerThatIsNotTheEnvelope_isAnInvalidResponse() {
    stub.on("/v1/retrieval/search", new Reply(502, "1.0", "text/html", "<html>bad gateway</html>"));
    assertEquals(
        ProtocolException.INVALID_RESPONSE,
        assertThrows(ProtocolException.class, () -> client.search("c", "q")).code());
  }

  @Test
  void everyMutationCarriesAnIdempotencyKey() {
    stub.on("/v1/retrieval/sources/index", Reply.json(200, RECEIPT.formatted(SHA)));
    stub.on(
        "/v1/retrieval/sources/delete",
        Reply.json(
            200,
            "{\"corpus\": \"c\", \"corpusId\": \"k\", \"source\": \"s\","
                + " \"revision\": 5, \"sourceRevision\": 5, \"status\": \"deleted\"}"));
    stub.on(
        "/v1/retrieval/sources/batch",
        Reply.json(
            200, "{\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 6, \"results\": []}"));
    client.index("c", Document.text("s", "t"));
    client.delete("c", "s");
    client.batch("c", List.of(QuarryClient.BatchOperation.delete("s")));
    client.index("c", null, Document.text("s", "t"), "my-key");
    List<String> keys = stub.received.stream().map(r -> r.header("Idempotency-key")).toList();
    assertEquals(4, keys.size());
    keys.forEach(k -> assertNotNull(k, "a mutation without a key"));
    assertEquals(4, keys.stream().distinct().count(), "a fresh key per call");
    assertEquals("my-key", keys.get(3));
  }

  // ----- run streams

  static String event(int seq, String type, String extra) {
    return "{\"type\": \""
        + type
        + "\", \"runId\": \"run_1\", \"sequence\": "
        + seq
        + ", \"timestamp\": \"2026-11-29T12:00:00.000Z\""
        + extra
        + "}";
  }

  static final String STARTED = event(1, "run.started", ", \"provider\": \"retrieval\"");
  static final String RESULT =
      ", \"result\": {\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 3, \"passages\": []}";

  List<String> types(Reply reply) {
    stub.on("/v1/runs", reply);
    List<String> types = new ArrayList<>();
    try (RunStream events = client.stream(RunRequest.of("c", "q"))) {
      events.forEachRemaining(e -> types.add(e.type()));
    }
    return types;
  }

  @Test
  void anOptionalUnknownEvent_isSkipped_andCountsInTheSequence() {
    List<String> types =
        types(
            Reply.events(
                STARTED,
                event(2, "run.thinking", ", \"optional\": true, \"mood\": \"curious\""),
                event(
                    3,
                    "run.progress",
                    ", \"phase\": \"retrieval.searching\", \"context\": {\"corpus\": \"c\"}, \"newField\": 1"),
                event(4, "run.completed", RESULT)));
    assertEquals(List.of("run.started", "run.progress", "run.completed"), types);
    assertEquals("true", stub.received.get(0).header("Agenticdriver-accept-optional-events"));
  }

  @Test
  void anOptionalUnknownEvent_mayComeBeforeTheStart() {
    List<String> types =
        types(
            Reply.events(
                event(1, "run.queued", ", \"optional\": true"),
                event(2, "run.started", ""),
                event(3, "run.completed", RESULT)));
    assertEquals(List.of("run.started", "run.completed"), types);
  }

  @Test
  void anUnknownRequiredEvent_isUnsupported() {
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () ->
                types(
                    Reply.events(
                        STARTED,
                        event(2, "run.teleported", ""),
                        event(3, "run.completed", RESULT))));
    assertEquals(ProtocolException.UNSUPPORTED_EVENT, e.code());
    // "optional" must be the boolean true, not a string.
    e =
        assertThrows(
            ProtocolException.class,
            () ->
                types(
                    Reply.events(
                        STARTED,
                        event(2, "run.teleported", ", \"optional\": \"true\""),
                        event(3, "run.completed", RESULT))));
    assertEquals(ProtocolException.UNSUPPORTED_EVENT, e.code());
  }

  @Test
  void malformedOrOutOfOrderStreams_areInvalid() {
    List<Reply> broken =
        List.of(
            Reply.events(STARTED, event(3, "run.completed", RESULT)), // a gap
            Reply.events(STARTED, event(1, "run.completed", RESULT)), // a repeat
            Reply.events(
                STARTED,
                event(2, "run.completed", RESULT),
                event(3, "run.progress", ", \"phase\": \"p\"")), // after the end
            Reply.events(
                STARTED,
                event(2, "run.completed", RESULT),
                event(3, "run.completed", RESULT)), // two terminals
            Reply.events(STARTED, event(2, "run.progress", ", \"phase\": \"p\"")), // no terminal
            Reply.events(STARTED, "{not json"), // malformed
            Reply.events(
                STARTED,
                event(2, "run.completed", RESULT).replace("run_1", "run_2")), // another run
            Reply.events(STARTED, event(2, "run.completed", "")), // no result
            Reply.events(
                event(1, "run.progress", ", \"phase\": \"p\""),
                event(2, "run.completed", RESULT)), // no start
            Reply.events(
                STARTED,
                "{\"type\": \"run.completed\", \"runId\": \"run_1\", \"sequence\": \"2\","
                    + " \"timestamp\": \"t\""
                    + RESULT
                    + "}"), // a string sequence
            Reply.events(STARTED, event(2, "", "")), // an empty type
            Reply.events(
                STARTED,
                event(2, "run.started", ""),
                event(3, "run.completed", RESULT))); // a second start
    for (Reply reply : broken) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> types(reply), reply.body());
      assertEquals(ProtocolException.INVALID_STREAM, e.code(), reply.body());
    }
  }

  @Test
  void aStreamedRunsFailure_isThrownByResult() {
    stub.on(
        "/v1/runs",
        Reply.events(
            STARTED,
            event(
                2,
                "run.failed",
                ", \"error\": {\"code\": \"CORPUS_NOT_FOUND\", \"message\": \"m\", \"retryable\": false}")));
    RunFailedException e =
        assertThrows(
            RunFailedException.class, () -> client.stream(RunRequest.of("c", "q")).result());
    assertEquals("CORPUS_NOT_FOUND", e.error().code());
    assertEquals("run_1", e.runId());
    assertFalse(e.cancelled());
    stub.on(
        "/v1/runs",
        Reply.events(
            STARTED,
            event(
                2,
                "run.cancelled",
                ", \"error\": {\"code\": \"IDLE_TIMEOUT\", \"message\": \"m\", \"retryable\": false}")));
    assertTrue(
        assertThrows(
                RunFailedException.class, () -> client.stream(RunRequest.of("c", "q")).result())
            .cancelled());
  }

  // ----- safe retry

  @Test
  void anUncertainIndex_isReconciledByReading_thenRetriedWithTheSameKey() {
    Document doc = Document.text("s", "the text");
    AtomicInteger attempts = new AtomicInteger();
    stub.on(
        "/v1/retrieval/sources/index",
        r ->
            attempts.incrementAndGet() == 1
                ? Reply.json(
                    500,
                    "{\"error\": {\"code\": \"INTERNAL\", \"message\": \"m\", \"retryable\": false, \"outcome\": \"uncertain\"}}")
                : Reply.json(200, RECEIPT.formatted(doc.contentSha256())));
    stub.on(
        "/v1/retrieval/sources/read",
        Reply.json(
            200,
            "{\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 4, \"source\": \"s\","
                + " \"sourceRevision\": 4, \"contentSha256\": \""
                + doc.contentSha256()
                + "\", \"mediaType\": \"text/plain\","
                + " \"metadata\": {}, \"chunks\": 1, \"characters\": 8}"));
    SafeRetry retry = new SafeRetry(client, 3, Duration.ofMillis(1));
    Receipt receipt = retry.index("c", doc);
    assertEquals(4, receipt.revision());
    assertEquals(SafeRetry.Reconciled.TOOK_EFFECT, retry.lastReconciliation());
    List<String> paths = stub.received.stream().map(StubServer.Received::path).toList();
    assertEquals(
        List.of(
            "/v1/retrieval/sources/index",
            "/v1/retrieval/sources/read",
            "/v1/retrieval/sources/index"),
        paths);
    assertEquals(
        stub.received.get(0).header("Idempotency-key"),
        stub.received.get(2).header("Idempotency-key"));
  }

  @Test
  void anUncertainDelete_thatDidNotHappen_isAppliedByTheRetry() {
    AtomicInteger attempts = new AtomicInteger();
    stub.on(
        "/v1/retrieval/sources/delete",
        r ->
            attempts.incrementAndGet() == 1
                ? Reply.json(
                    503,
                    "{\"error\": {\"code\": \"UNAVAILABLE\", \"message\": \"m\", \"retryable\": true, \"outcome\": \"uncertain\"}}")
                : Reply.json(
                    200,
                    "{\"corpus\": \"c\", \"corpusId\": \"k\", \"source\": \"s\", \"revision\": 5, \"sourceRevision\": 5, \"status\": \"deleted\"}"));
    stub.on(
        "/v1/retrieval/sources/read",
        Reply.json(
            200,
            "{\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 4, \"source\": \"s\","
                + " \"sourceRevision\": 4, \"mediaType\": \"text/plain\", \"metadata\": {}, \"chunks\": 1, \"characters\": 8}"));
    SafeRetry retry = new SafeRetry(client, 2, Duration.ofMillis(1));
    assertEquals("deleted", retry.delete("c", "s").status());
    assertEquals(SafeRetry.Reconciled.NOT_APPLIED, retry.lastReconciliation());
  }

  @Test
  void aPlainRefusal_isNotRetried() {
    stub.on(
        "/v1/retrieval/sources/index",
        Reply.json(
            409,
            "{\"error\": {\"code\": \"REVISION_CONFLICT\", \"message\": \"m\", \"retryable\": false}}"));
    SafeRetry retry = new SafeRetry(client, 5, Duration.ofMillis(1));
    assertEquals(
        "REVISION_CONFLICT",
        assertThrows(
                ApiException.ConflictException.class,
                () -> retry.index("c", Document.text("s", "t")))
            .code());
    assertEquals(1, stub.received.size());
    assertNull(retry.lastReconciliation());
  }
}
