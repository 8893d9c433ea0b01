package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.RunStream;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code POST /v1/runs} of the standalone server, over real HTTP against a server process. */
class RunsOverHttpIT {
  static final String ADMIN = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTestTokens().corpus("c1");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(
        api.retrieval(
            "sources/batch",
            ADMIN,
            """
        {"corpus": "c1", "operations": [
          {"index": {"source": "public/leave.md", "title": "Leave", "text": "Parental leave lasts sixteen weeks.",
                     "metadata": {"team": "hr"}}},
          {"index": {"source": "public/travel.md", "title": "Travel", "text": "Travel is booked through the portal."}},
          {"index": {"source": "secret/salaries.md", "text": "Parental leave salary tables."}}]}"""));
  }

  static Answer run(String token, String body) {
    return api.post("/v1/runs").token(token).json(body).send();
  }

  static void assertPlainError(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertTrue(
        a.header("Content-Type").startsWith("application/json"),
        "a plain HTTP error, not a stream: " + a);
    assertEquals(code, a.code(), a::toString);
    assertEquals("1.0", a.header("AgenticDriver-Version"));
  }

  @Test
  void streamingRun_sendsStartedProgressAndOneCompleted_inOrder() {
    Answer a =
        run(
            ADMIN,
            """
        {"provider": "retrieval", "input": "parental leave", "retrieval": {"corpus": "c1", "topK": 5}, "stream": true}""");
    assertEquals(200, a.status(), a::toString);
    assertTrue(a.header("Content-Type").startsWith("text/event-stream"), a.header("Content-Type"));
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    RunStream stream = RunStream.parse(a.body());
    JsonNode terminal = stream.checkEnvelope();
    assertEquals("run.completed", terminal.path("type").asText(), terminal::toString);
    assertEquals(5, stream.events.size(), "started, three phases, completed");
    JsonNode searching = stream.events.get(2).path("context");
    assertEquals("c1", searching.path("corpus").asText());
    assertEquals(3, searching.path("sources").asLong(), "every source is in scope for the admin");
    JsonNode result = terminal.path("result");
    assertEquals(2, result.path("passages").size());
    assertEquals(
        stream.events.get(3).path("context").path("results").asLong(),
        result.path("passages").size());
  }

  @Test
  void runPassages_areShapedExactlyAsSearchResults() {
    JsonNode run =
        ok(
            run(
                TestTokens.PUBLIC_C1,
                """
        {"provider": "retrieval", "input": "ignored", "retrieval": {"corpus": "c1", "query": "parental leave"}}"""));
    JsonNode result = run.path("result");
    JsonNode search =
        ok(
            api.retrieval(
                "search",
                TestTokens.PUBLIC_C1,
                """
        {"corpus": "c1", "query": "parental leave", "topK": 5, "revision": %d}"""
                    .formatted(result.path("revision").asLong())));
    assertEquals(
        search.path("results"), result.path("passages"), "same passages, same fields, same values");
    assertEquals(search.path("corpusId"), result.path("corpusId"));
    assertEquals(
        List.of("public/leave.md"),
        sources(result),
        "only what the token may see; query overrides input");
  }

  @Test
  void nonStreamingRun_answersRunIdAndResult() {
    Answer a =
        run(
            TestTokens.SEARCH_C1,
            """
        {"provider": "retrieval", "input": "portal", "retrieval": {"corpus": "c1", "sources": ["public/*"]}, "stream": false}""");
    JsonNode body = ok(a);
    assertTrue(a.header("Content-Type").startsWith("application/json"));
    assertTrue(body.path("runId").asText().matches("run_[0-9a-f]{32}"), body::toString);
    Set<String> fields = new HashSet<>();
    body.path("result").fieldNames().forEachRemaining(fields::add);
    assertEquals(Set.of("corpus", "corpusId", "revision", "passages"), fields);
    assertEquals(List.of("public/travel.md"), sources(body.path("result")));
  }

  @Test
  void runIds_areDistinct() {
    String body =
        """
        {"provider": "retrieval", "input": "portal", "retrieval": {"corpus": "c1"}}""";
    assertNotEquals(ok(run(ADMIN, body)).path("runId"), ok(run(ADMIN, body)).path("runId"));
  }

  @Test
  void corpusOutsideTheGrants_isAPlain403_beforeAnyEvent_streamingOrNot() {
    for (String stream : List.of("true", "false")) {
      assertPlainError(
          run(
              TestTokens.C2_ONLY,
              """
          {"provider": "retrieval", "input": "leave", "retrieval": {"corpus": "c1"}, "stream": %s}"""
                  .formatted(stream)),
          403,
          "FORBIDDEN");
      assertPlainError(
          run(
              TestTokens.C2_ONLY,
              """
          {"provider": "retrieval", "input": "leave", "retrieval": {"corpus": "no-such-corpus"}, "stream": %s}"""
                  .formatted(stream)),
          403,
          "FORBIDDEN");
      assertPlainError(
          run(
              TestTokens.PUBLIC_C1,
              """
          {"provider": "retrieval", "input": "leave", "retrieval": {"corpus": "c1", "sources": ["*"]}, "stream": %s}"""
                  .formatted(stream)),
          403,
          "FORBIDDEN");
    }
  }

  @Test
  void missingToken_isAPlain401() {
    Answer a =
        api.post("/v1/runs")
            .json(
                """
        {"provider": "retrieval", "input": "leave", "retrieval": {"corpus": "c1"}, "stream": true}""")
            .send();
    assertPlainError(a, 401, "UNAUTHENTICATED");
  }

  @Test
  void unknownProvider_is400NamingProvider() {
    Answer a =
        run(
            ADMIN,
            """
        {"provider": "openai", "input": "leave", "retrieval": {"corpus": "c1"}, "stream": true}""");
    assertPlainError(a, 400, "INVALID_REQUEST");
    assertEquals("provider", a.field());
  }

  @Test
  void invalidRequests_are400sNamingTheField() {
    List<String[]> cases =
        List.of(
            new String[] {"{\"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\"}}", "provider"},
            new String[] {"{\"provider\": \"retrieval\", \"input\": \"q\"}", "retrieval"},
            new String[] {
              "{\"provider\": \"retrieval\", \"retrieval\": {\"corpus\": \"c1\"}}", "input"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", \"topK\": 0}}",
              "retrieval.topK"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", \"topK\": \"5\"}}",
              "retrieval.topK"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", \"filter\": {}}}",
              "retrieval.filter"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"C 1\"}}",
              "retrieval.corpus"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", \"sources\": []}}",
              "retrieval.sources"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", \"revision\": -1}}",
              "retrieval.revision"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\"}, \"stream\": \"yes\"}",
              "stream"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\"}, \"idleTimeoutMs\": 0}",
              "idleTimeoutMs"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": null, \"retrieval\": {\"corpus\": \"c1\"}}",
              "input"
            },
            new String[] {
              "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\"}, \"model\": \"x\"}",
              "model"
            },
            new String[] {"[]", "$"});
    for (String[] c : cases) {
      Answer a = run(ADMIN, c[0]);
      assertPlainError(a, 400, "INVALID_REQUEST");
      assertEquals(c[1], a.field(), c[0]);
    }
  }

  @Test
  void runOnAMissingCorpus_failsAfterStarting() {
    Answer streamed =
        run(
            ADMIN,
            """
        {"provider": "retrieval", "input": "q", "retrieval": {"corpus": "missing"}, "stream": true}""");
    JsonNode terminal = RunStream.parse(streamed.body()).checkEnvelope();
    assertEquals("run.failed", terminal.path("type").asText());
    assertEquals("CORPUS_NOT_FOUND", terminal.path("error").path("code").asText());
    Answer plain =
        run(
            ADMIN,
            """
        {"provider": "retrieval", "input": "q", "retrieval": {"corpus": "missing"}}""");
    assertPlainError(plain, 404, "CORPUS_NOT_FOUND");
    assertTrue(plain.json().path("runId").asText().startsWith("run_"), "the failed run is named");
  }

  @Test
  void fiftyConcurrentStreamingRuns_whileTheCorpusIsWritten_allCompleteWithValidStreams()
      throws Exception {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"busy\"}"));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"busy\", \"source\": \"s0\", \"text\": \"quarry stone number zero\"}"));
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger writes = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(51);
    try {
      Future<?> writer =
          pool.submit(
              () -> {
                for (int i = 1; running.get(); i++) {
                  ok(
                      api.retrieval(
                          "sources/index",
                          ADMIN,
                          "{\"corpus\": \"busy\", \"source\": \"s%d\", \"text\": \"quarry stone number %d\"}"
                              .formatted(i % 20, i)));
                  writes.incrementAndGet();
                }
              });
      List<Future<Answer>> runs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        boolean optIn = i % 2 == 0;
        runs.add(
            pool.submit(
                () -> {
                  ApiClient.Call call =
                      api.post("/v1/runs")
                          .token(ADMIN)
                          .json(
                              """
              {"provider": "retrieval", "input": "quarry stone", "retrieval": {"corpus": "busy", "topK": 3}, "stream": true}""");
                  if (optIn) {
                    call.header("AgenticDriver-Accept-Optional-Events", "true");
                  }
                  return call.send();
                }));
      }
      Set<String> ids = new HashSet<>();
      for (Future<Answer> f : runs) {
        Answer a = f.get();
        assertEquals(200, a.status(), a::toString);
        RunStream stream = RunStream.parse(a.body());
        JsonNode terminal = stream.checkEnvelope();
        assertEquals("run.completed", terminal.path("type").asText(), terminal::toString);
        assertFalse(terminal.path("result").path("passages").isEmpty());
        ids.add(stream.runId());
      }
      assertEquals(50, ids.size(), "every run has its own id");
      running.set(false);
      writer.get();
      assertTrue(writes.get() > 0, "the corpus was written while the runs ran");
    } finally {
      running.set(false);
      pool.shutdownNow();
    }
  }

  private static List<String> sources(JsonNode result) {
    List<String> out = new ArrayList<>();
    result.path("passages").forEach(p -> out.add(p.path("source").asText()));
    return out;
  }
}
