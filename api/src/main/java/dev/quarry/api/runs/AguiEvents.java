package dev.quarry.api.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.run.RetrievalProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Translates one retrieval run's wire events into AG-UI events (docs/agui.md has the table): the
 * run's phases become steps, the search is the agent's own tool call ({@value #TOOL_NAME}) with its
 * arguments and its result (the passages with their provenance), and an assistant text message
 * cites what was found. Exactly one terminal event ends it: {@code RUN_FINISHED} with the result,
 * or {@code RUN_ERROR} with the error's code. Only fields of AG-UI's event schemas are written, so
 * a strict client strips nothing.
 *
 * <p>Not thread-safe: one per run, fed in sequence order by the run's stream writer.
 */
final class AguiEvents {
  /** The agent's own search tool, as its tool calls name it and its capabilities declare it. */
  static final String TOOL_NAME = "quarry_search";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** How much of each passage the cited answer quotes. */
  private static final int QUOTE_CHARS = 240;

  private final AguiRequest request;
  private final ObjectMapper mapper;
  private String quarryRunId;
  private String openStep;
  private boolean searched;

  AguiEvents(AguiRequest request, ObjectMapper mapper) {
    this.request = request;
    this.mapper = mapper;
  }

  /**
   * The AG-UI events that {@code event} becomes, in order (none for a phase that opens nothing
   * new).
   */
  List<ObjectNode> translate(RunEvent event) {
    List<ObjectNode> out = new ArrayList<>();
    long at = event.timestamp().toEpochMilli();
    switch (event.type()) {
      case RunEvent.STARTED -> {
        quarryRunId = event.runId();
        ObjectNode started =
            base("RUN_STARTED", at)
                .put("threadId", request.threadId())
                .put("runId", request.runId());
        // Quarry's own run id, for logs: AG-UI's metadata is open by key.
        started.putObject("metadata").put("quarryRunId", event.runId());
        out.add(started);
      }
      case RunEvent.PROGRESS ->
          phase(event.data().path("phase").asText(), event.data().path("context"), at, out);
      case RunEvent.COMPLETED -> {
        closeStep(at, out);
        JsonNode result = event.data().get("result");
        if (!searched) {
          toolCall(at, out);
        }
        out.add(
            base("TOOL_CALL_RESULT", at)
                .put("messageId", id("result"))
                .put("toolCallId", id("call"))
                .put("role", "tool")
                .put("content", json(result)));
        String textId = id("answer");
        out.add(base("TEXT_MESSAGE_START", at).put("messageId", textId).put("role", "assistant"));
        out.add(
            base("TEXT_MESSAGE_CONTENT", at)
                .put("messageId", textId)
                .put("delta", citation(result)));
        out.add(base("TEXT_MESSAGE_END", at).put("messageId", textId));
        ObjectNode finished =
            base("RUN_FINISHED", at)
                .put("threadId", request.threadId())
                .put("runId", request.runId());
        finished.set("result", result);
        finished.putObject("outcome").put("type", "success");
        out.add(finished);
      }
      case RunEvent.FAILED, RunEvent.CANCELLED -> {
        closeStep(at, out);
        JsonNode error = event.data().path("error");
        out.add(
            base("RUN_ERROR", at)
                .put("message", error.path("message").asText())
                .put("code", error.path("code").asText()));
      }
      default ->
          throw new IllegalStateException(
              "a run event this binding does not know: " + event.type());
    }
    return out;
  }

  private void phase(String phase, JsonNode context, long at, List<ObjectNode> out) {
    closeStep(at, out);
    // The completed phase ends the search step; the result and the answer follow with the run's
    // end.
    if (phase.equals(RetrievalProgress.COMPLETED)) {
      return;
    }
    openStep = phase;
    out.add(base("STEP_STARTED", at).put("stepName", phase));
    if (phase.equals(RetrievalProgress.SEARCHING)) {
      toolCall(at, out);
    }
  }

  /** The search as the agent's own tool call: start, its arguments in one piece, end. */
  private void toolCall(long at, List<ObjectNode> out) {
    searched = true;
    out.add(
        base("TOOL_CALL_START", at)
            .put("toolCallId", id("call"))
            .put("toolCallName", TOOL_NAME)
            .put("parentMessageId", id("search")));
    ObjectNode args =
        NODES
            .objectNode()
            .put("corpus", request.options().corpus())
            .put("query", request.query())
            .put("topK", request.options().topK());
    if (!request.options().sources().entries().isEmpty()) {
      ArrayNode sources = args.putArray("sources");
      request.options().sources().entries().forEach(sources::add);
    }
    if (request.options().revision() != null) {
      args.put("revision", request.options().revision());
    }
    out.add(base("TOOL_CALL_ARGS", at).put("toolCallId", id("call")).put("delta", json(args)));
    out.add(base("TOOL_CALL_END", at).put("toolCallId", id("call")));
  }

  private void closeStep(long at, List<ObjectNode> out) {
    if (openStep != null) {
      out.add(base("STEP_FINISHED", at).put("stepName", openStep));
      openStep = null;
    }
  }

  /** The assistant's answer: what was searched, and each passage cited by source (and pages). */
  private static String citation(JsonNode result) {
    JsonNode passages = result.path("passages");
    String where =
        result.path("corpus").asText() + " (revision " + result.path("revision").asLong() + ")";
    if (passages.isEmpty()) {
      return "No passages in " + where + " match the question.";
    }
    StringBuilder text =
        new StringBuilder(
            "Found "
                + passages.size()
                + (passages.size() == 1 ? " passage" : " passages")
                + " in "
                + where
                + ":");
    int n = 0;
    for (JsonNode p : passages) {
      text.append("\n[").append(++n).append("] ");
      if (p.hasNonNull("title")) {
        text.append(p.get("title").asText()).append(", ");
      }
      text.append(p.path("source").asText());
      if (p.has("pages")) {
        int from = p.path("pages").path("from").asInt();
        int to = p.path("pages").path("to").asInt();
        text.append(
            from == to ? ", page " + from : String.format(Locale.ROOT, ", pages %d-%d", from, to));
      }
      String quote = p.path("text").asText().strip().replaceAll("\\s+", " ");
      text.append(": \"")
          .append(quote.length() > QUOTE_CHARS ? quote.substring(0, QUOTE_CHARS) + "..." : quote)
          .append('"');
    }
    return text.toString();
  }

  private String id(String what) {
    return quarryRunId + "_" + what;
  }

  private static ObjectNode base(String type, long at) {
    return NODES.objectNode().put("type", type).put("timestamp", at);
  }

  private String json(JsonNode node) {
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree always writes", e);
    }
  }
}
