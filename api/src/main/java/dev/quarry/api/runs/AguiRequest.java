package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.run.RetrievalOptions;
import dev.quarry.engine.QuarryException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * AG-UI's {@code RunAgentInput} as {@code POST /v1/agui/retrieval} reads it. The query is the last
 * user message (its text, or its text parts joined), unless {@code forwardedProps.retrieval.query}
 * is given; the corpus and options are {@code forwardedProps.retrieval}, exactly the {@code
 * retrieval} option of {@code /v1/runs}, and {@code forwardedProps.idleTimeoutMs} bounds the run's
 * quiet time. Read as strictly as every Quarry request: unknown fields of the input or of {@code
 * forwardedProps}, wrong types and {@code null} are {@code 400 INVALID_REQUEST} naming the field.
 * {@code state}, {@code context} and {@code tools} are accepted and not used: this agent runs no
 * application tools and keeps no state.
 */
record AguiRequest(
    String threadId, String runId, String query, RetrievalOptions options, Duration idleTimeout) {
  static final Set<String> FIELDS =
      Set.of(
          "threadId",
          "runId",
          "parentRunId",
          "protocolVersion",
          "state",
          "messages",
          "tools",
          "context",
          "forwardedProps",
          "resume");
  static final Set<String> FORWARDED_FIELDS = Set.of("retrieval", "idleTimeoutMs");

  /** The AG-UI protocol major version this binding speaks. */
  static final String PROTOCOL_MAJOR = "1";

  private static final int MAX_ID_CHARS = 256;
  private static final int MAX_MESSAGES = 10_000;

  static AguiRequest read(WireObject body, Limits limits) {
    body.allowOnly(FIELDS);
    String threadId = id(body, "threadId");
    String runId = id(body, "runId");
    body.optionalString("parentRunId", MAX_ID_CHARS);
    String version = body.optionalString("protocolVersion", 32);
    if (version != null
        && !(version.equals(PROTOCOL_MAJOR) || version.startsWith(PROTOCOL_MAJOR + "."))) {
      throw QuarryException.invalid(
          "protocolVersion",
          "protocolVersion " + version + " is not supported; this agent speaks AG-UI 1.x");
    }
    body.optionalArray("tools", Integer.MAX_VALUE);
    body.optionalArray("context", Integer.MAX_VALUE);
    List<JsonNode> resume = body.optionalArray("resume", Integer.MAX_VALUE);
    if (resume != null && !resume.isEmpty()) {
      throw QuarryException.invalid(
          "resume", "there is nothing to resume: this agent never interrupts a run");
    }
    WireObject forwarded = body.optionalObject("forwardedProps");
    if (forwarded == null) {
      throw body.missing("forwardedProps");
    }
    forwarded.allowOnly(FORWARDED_FIELDS);
    WireObject retrieval = forwarded.optionalObject("retrieval");
    if (retrieval == null) {
      throw forwarded.missing("retrieval");
    }
    RetrievalOptions options = RunRequest.retrieval(retrieval, limits);
    Long idleMs = forwarded.optionalLong("idleTimeoutMs", 1, RunRequest.MAX_IDLE_TIMEOUT_MS);
    String question = lastUserText(body, options.query() == null);
    if (options.query() == null && question.length() > limits.get(Limit.MAX_QUERY_CHARS)) {
      throw QuarryException.invalid(
          "messages",
          "the last user message, used as the query, may have at most "
              + limits.get(Limit.MAX_QUERY_CHARS)
              + " characters; got "
              + question.length()
              + "; send forwardedProps.retrieval.query");
    }
    return new AguiRequest(
        threadId,
        runId,
        options.query() != null ? options.query() : question,
        options,
        idleMs == null ? null : Duration.ofMillis(idleMs));
  }

  private static String id(WireObject body, String field) {
    String id = body.requireString(field);
    if (id.isEmpty() || id.length() > MAX_ID_CHARS) {
      throw QuarryException.invalid(
          field, field + " must have 1 to " + MAX_ID_CHARS + " characters");
    }
    return id;
  }

  /**
   * The text of the last user message; required when it is the query, else "" when there is none.
   */
  private static String lastUserText(WireObject body, boolean required) {
    List<JsonNode> messages = body.optionalArray("messages", MAX_MESSAGES);
    if (messages == null) {
      throw body.missing("messages");
    }
    for (int i = messages.size() - 1; i >= 0; i--) {
      String path = "messages[" + i + "]";
      WireObject m = WireObject.at(messages.get(i), path);
      String role = m.requireString("role");
      m.requireString("id");
      if (!role.equals("user")) {
        continue;
      }
      JsonNode content = m.raw("content");
      if (content != null && content.isTextual()) {
        return content.textValue();
      }
      if (content != null && content.isArray()) {
        StringBuilder text = new StringBuilder();
        for (int p = 0; p < content.size(); p++) {
          WireObject part = WireObject.at(content.get(p), m.pathOf("content") + "[" + p + "]");
          if (!"text".equals(part.requireString("type"))) {
            throw QuarryException.invalid(
                part.pathOf("type"), "only text parts can be searched for");
          }
          text.append(text.isEmpty() ? "" : "\n").append(part.requireString("text"));
        }
        return text.toString();
      }
      throw QuarryException.invalid(
          m.pathOf("content"), m.pathOf("content") + " must be a string or a list of text parts");
    }
    if (required) {
      throw QuarryException.invalid(
          "messages", "no user message to search for; send one, or forwardedProps.retrieval.query");
    }
    return "";
  }
}
