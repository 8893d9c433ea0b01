package dev.quarry.api.runs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.WireObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The translation of run events into AG-UI events, and their protobuf encoding, without a server.
 */
class AguiEventsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static AguiRequest request() throws Exception {
    return AguiRequest.read(
        WireObject.root(
            (ObjectNode)
                JSON.readTree(
                    """
        {"threadId": "t", "runId": "r", "messages": [{"id": "u", "role": "user", "content": "leave"}],
         "forwardedProps": {"retrieval": {"corpus": "c1", "sources": ["public/*"], "revision": 4}}}""")),
        Limits.DEFAULT);
  }

  static RunEvent event(String type, long seq, ObjectNode data) {
    return new RunEvent(type, "run_x", seq, Instant.ofEpochMilli(1_000 + seq), data);
  }

  static List<String> types(AguiEvents t, RunEvent... events) {
    List<String> out = new ArrayList<>();
    for (RunEvent e : events) {
      t.translate(e)
          .forEach(
              a ->
                  out.add(
                      a.get("type").asText()
                          + (a.has("stepName") ? ":" + a.get("stepName").asText() : "")));
    }
    return out;
  }

  @Test
  void aRunThatFailsWhileSearching_finishesItsStepThenErrors() throws Exception {
    AguiEvents t = new AguiEvents(request(), JSON);
    ObjectNode error = JsonNodeFactory.instance.objectNode();
    error
        .putObject("error")
        .put("code", "REVISION_EXPIRED")
        .put("message", "gone")
        .put("retryable", false);
    List<String> types =
        types(
            t,
            event(RunEvent.STARTED, 1, JsonNodeFactory.instance.objectNode()),
            event(
                RunEvent.PROGRESS,
                2,
                JsonNodeFactory.instance.objectNode().put("phase", "retrieval.resolving-sources")),
            event(
                RunEvent.PROGRESS,
                3,
                JsonNodeFactory.instance.objectNode().put("phase", "retrieval.searching")),
            event(RunEvent.FAILED, 4, error));
    assertEquals(
        List.of(
            "RUN_STARTED",
            "STEP_STARTED:retrieval.resolving-sources",
            "STEP_FINISHED:retrieval.resolving-sources",
            "STEP_STARTED:retrieval.searching",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "STEP_FINISHED:retrieval.searching",
            "RUN_ERROR"),
        types);
  }

  @Test
  void theToolCallsArgumentsAreTheSearch() throws Exception {
    AguiEvents t = new AguiEvents(request(), JSON);
    t.translate(event(RunEvent.STARTED, 1, JsonNodeFactory.instance.objectNode()));
    List<ObjectNode> out =
        t.translate(
            event(
                RunEvent.PROGRESS,
                2,
                JsonNodeFactory.instance.objectNode().put("phase", "retrieval.searching")));
    assertEquals(
        JSON.readTree(
            "{\"corpus\": \"c1\", \"query\": \"leave\", \"topK\": 5, \"sources\": [\"public/*\"], \"revision\": 4}"),
        JSON.readTree(out.get(2).get("delta").asText()));
  }

  @Test
  void protobuf_encodesTheOneofTheBaseEventAndTheFields() {
    ObjectNode step =
        JsonNodeFactory.instance
            .objectNode()
            .put("type", "STEP_STARTED")
            .put("timestamp", 300)
            .put("stepName", "s");
    // Event.stepStarted (15, length 10) { baseEvent (1, length 5) { type 14, timestamp 300 },
    // stepName (2) "s" }
    assertArrayEquals(
        new byte[] {(byte) 0x7a, 10, 0x0a, 5, 0x08, 14, 0x10, (byte) 0xac, 0x02, 0x12, 1, 's'},
        AguiProto.encode(step));
    ObjectNode finished = JsonNodeFactory.instance.objectNode().put("type", "RUN_FINISHED");
    finished.putObject("result").put("n", 1);
    finished.putObject("outcome").put("type", "success");
    // result is a google.protobuf.Value holding a Struct {"n": 1.0}; outcome the string "success".
    byte[] bytes = AguiProto.encode(finished);
    assertEquals((byte) 0x6a, bytes[0]);
    String tail =
        new String(bytes, bytes.length - 7, 7, java.nio.charset.StandardCharsets.US_ASCII);
    assertEquals("success", tail);
  }
}
