package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenApiContract;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /v1/agui/retrieval} over HTTP, as the server writes it (the reference AG-UI client's
 * own checks run in agui/agui.test.mjs): the event sequence of a run that finishes and of one that
 * fails, the protobuf framing, and the refusals that come before any event.
 */
class AguiOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTestTokens().corpus("c1");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    ApiClient.ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c1", "source": "public/leave.md", "title": "Leave policy",
         "text": "Parental leave is twenty weeks. Annual leave is twenty five days."}"""));
  }

  static String input(String corpus, String question) {
    return """
        {"threadId": "thread-1", "runId": "run-1", "messages": [
           {"id": "a0", "role": "assistant", "content": "Ask me."},
           {"id": "u1", "role": "user", "content": "%s"}],
         "tools": [], "context": [], "state": {}, "forwardedProps": {"retrieval": {"corpus": "%s", "topK": 3}}}"""
        .formatted(question, corpus);
  }

  static HttpResponse<byte[]> run(String body, String accept, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.url() + "/v1/agui/retrieval"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (accept != null) {
      b.header("Accept", accept);
    }
    return api.http().send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The events of an SSE answer, each held to openapi.yaml's AguiEvent. */
  static List<JsonNode> sse(byte[] body) throws IOException {
    String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
    OpenApiContract.get().checkEvents("POST", "/v1/agui/retrieval", 200, "text/event-stream", text);
    List<JsonNode> events = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("data: ")) {
        events.add(ApiClient.JSON.readTree(line.substring(6)));
      } else {
        assertTrue(
            line.isEmpty() || line.startsWith(":"),
            "only data lines, comments and blank lines: " + line);
      }
    }
    return events;
  }

  @Test
  void aRunThatFinishes_isStepsAToolCallItsResultAndACitedAnswer() throws Exception {
    HttpResponse<byte[]> res = run(input("c1", "parental leave"), "text/event-stream", T);
    assertEquals(200, res.statusCode());
    assertTrue(
        res.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
    assertEquals("1.0", res.headers().firstValue("AgenticDriver-Version").orElseThrow());
    List<JsonNode> events = sse(res.body());
    assertEquals(
        List.of(
            "RUN_STARTED",
            "STEP_STARTED",
            "STEP_FINISHED",
            "STEP_STARTED",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "STEP_FINISHED",
            "TOOL_CALL_RESULT",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "RUN_FINISHED"),
        events.stream().map(e -> e.get("type").asText()).toList());
    assertEquals("thread-1", events.get(0).get("threadId").asText());
    assertEquals("run-1", events.get(0).get("runId").asText());
    assertTrue(events.get(0).at("/metadata/quarryRunId").asText().startsWith("run_"));
    JsonNode args = ApiClient.JSON.readTree(events.get(5).get("delta").asText());
    assertEquals("parental leave", args.get("query").asText());
    assertEquals("c1", args.get("corpus").asText());
    JsonNode result = events.get(12).get("result");
    assertEquals("public/leave.md", result.at("/passages/0/source").asText());
    assertEquals(result, ApiClient.JSON.readTree(events.get(8).get("content").asText()));
    assertTrue(
        events.get(10).get("delta").asText().contains("Leave policy, public/leave.md"),
        events.get(10).toString());
    assertEquals("success", events.get(12).at("/outcome/type").asText());
    for (JsonNode e : events) {
      assertTrue(e.get("timestamp").isIntegralNumber(), e::toString);
    }
  }

  @Test
  void aRunThatFails_endsWithOneRunError() throws Exception {
    List<JsonNode> events = sse(run(input("absent", "q"), null, T).body());
    assertEquals("RUN_STARTED", events.get(0).get("type").asText());
    JsonNode last = events.get(events.size() - 1);
    assertEquals("RUN_ERROR", last.get("type").asText());
    assertEquals("CORPUS_NOT_FOUND", last.get("code").asText());
    assertEquals(
        1, events.stream().filter(e -> e.get("type").asText().startsWith("RUN_E")).count());
    assertFalse(events.stream().anyMatch(e -> e.get("type").asText().equals("RUN_FINISHED")));
  }

  /**
   * openapi.yaml's AguiEvent names exactly the fields the server writes, both ways: every event
   * type of a run that finishes and of one that fails has the document's properties for its type,
   * no more (the contract check of each event) and no fewer (here).
   */
  @Test
  void theDocumentsEvents_areTheEventsWritten() throws Exception {
    Map<String, Set<String>> written = new TreeMap<>();
    List<JsonNode> events =
        new ArrayList<>(sse(run(input("c1", "parental leave"), null, T).body()));
    events.addAll(sse(run(input("absent", "q"), null, T).body()));
    for (JsonNode e : events) {
      e.fieldNames()
          .forEachRemaining(
              f -> written.computeIfAbsent(e.get("type").asText(), t -> new TreeSet<>()).add(f));
    }
    Map<String, Set<String>> documented = new TreeMap<>();
    for (JsonNode branch :
        OpenApiContract.get().document().at("/components/schemas/AguiEvent/oneOf")) {
      Set<String> fields = new TreeSet<>();
      branch.path("properties").fieldNames().forEachRemaining(fields::add);
      documented.put(branch.at("/properties/type/const").asText(), fields);
    }
    assertEquals(documented, written);
  }

  @Test
  void protobuf_isLengthPrefixedEventMessages() throws Exception {
    HttpResponse<byte[]> res =
        run(input("c1", "parental leave"), "application/vnd.ag-ui.event+proto", T);
    assertEquals(200, res.statusCode());
    assertEquals(
        "application/vnd.ag-ui.event+proto",
        res.headers().firstValue("Content-Type").orElseThrow());
    byte[] body = res.body();
    List<Integer> oneofFields = new ArrayList<>();
    int at = 0;
    while (at < body.length) {
      int length =
          ((body[at] & 0xff) << 24)
              | ((body[at + 1] & 0xff) << 16)
              | ((body[at + 2] & 0xff) << 8)
              | (body[at + 3] & 0xff);
      int tag = body[at + 4] & 0xff;
      if ((tag & 0x80) != 0) {
        tag = (tag & 0x7f) | ((body[at + 5] & 0xff) << 7);
      }
      assertEquals(2, tag & 7, "each event is one length-delimited oneof field");
      oneofFields.add(tag >>> 3);
      at += 4 + length;
    }
    assertEquals(body.length, at, "the frames fill the body exactly");
    // The events of the SSE run above, as AG-UI's Event fields: RUN_STARTED is 12, STEP_STARTED 15,
    // STEP_FINISHED 16, TOOL_CALL_START/ARGS/END 4/5/6, TOOL_CALL_RESULT 22, TEXT_MESSAGE_START/
    // CONTENT/END 1/2/3, RUN_FINISHED 13.
    assertEquals(12, oneofFields.get(0));
    assertEquals(13, oneofFields.get(oneofFields.size() - 1));
    assertEquals(13, oneofFields.size());
    assertEquals(List.of(12, 15, 16, 15, 4, 5, 6, 16, 22, 1, 2, 3, 13), oneofFields);
  }

  @Test
  void refusalsComeBeforeAnyEvent_inTheErrorEnvelope() throws Exception {
    assertEquals(401, run(input("c1", "q"), null, "nobody").statusCode());
    Answer forbidden =
        api.post("/v1/agui/retrieval").token(TestTokens.C2_ONLY).json(input("c1", "q")).send();
    assertEquals(403, forbidden.status(), forbidden::toString);
    assertEquals("FORBIDDEN", forbidden.code());
    Answer invalid =
        api.post("/v1/agui/retrieval")
            .token(T)
            .json(input("c1", "q").replace("\"topK\": 3", "\"topK\": 0"))
            .send();
    assertInvalid(invalid, "forwardedProps.retrieval.topK");
    Answer noQuestion =
        api.post("/v1/agui/retrieval")
            .token(T)
            .json(
                """
        {"threadId": "t", "runId": "r", "messages": [{"id": "a", "role": "assistant", "content": "hi"}],
         "forwardedProps": {"retrieval": {"corpus": "c1"}}}""")
            .send();
    assertInvalid(noQuestion, "messages");
    Answer resume =
        api.post("/v1/agui/retrieval")
            .token(T)
            .json(
                input("c1", "q").replace("\"state\": {}", "\"resume\": [{\"interruptId\": \"x\"}]"))
            .send();
    assertInvalid(resume, "resume");
    Answer parts =
        api.post("/v1/agui/retrieval")
            .token(T)
            .json(
                """
        {"threadId": "t", "runId": "r", "messages": [{"id": "u", "role": "user",
           "content": [{"type": "image", "source": {"type": "url", "value": "x"}}]}],
         "forwardedProps": {"retrieval": {"corpus": "c1"}}}""")
            .send();
    assertInvalid(parts, "messages[0].content[0].type");
    for (String idle : List.of("0", "86400001", "\"5000\"", "null")) {
      Answer timeout =
          api.post("/v1/agui/retrieval")
              .token(T)
              .json(
                  input("c1", "q")
                      .replace("\"topK\": 3}", "\"topK\": 3}, \"idleTimeoutMs\": " + idle))
              .send();
      assertInvalid(timeout, "forwardedProps.idleTimeoutMs");
    }
  }

  /** A plain 400 INVALID_REQUEST in the error envelope (no stream began) naming {@code field}. */
  static void assertInvalid(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertTrue(a.header("Content-Type").startsWith("application/json"), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
  }

  @Test
  void capabilities_declareTheSearchTool() {
    JsonNode caps = ApiClient.ok(api.get("/v1/agui/capabilities").token(T).send());
    assertEquals("quarry_search", caps.at("/tools/items/0/name").asText());
    assertFalse(caps.at("/reasoning/supported").asBoolean(true));
    assertEquals(401, api.get("/v1/agui/capabilities").send().status());
  }
}
