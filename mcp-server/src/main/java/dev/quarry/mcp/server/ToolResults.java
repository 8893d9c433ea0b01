package dev.quarry.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.engine.QuarryException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * Tool answers: a result as structured content with the same JSON as text (for clients that read
 * only text), a refusal as a tool error ({@code isError: true}) whose text is Quarry's error
 * envelope, so that an agent sees the code and the field and can correct its call. Protocol-level
 * failures (resources) are JSON-RPC errors with the envelope's error as {@code data}.
 */
final class ToolResults {
  private final ObjectMapper mapper;

  ToolResults(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  McpSchema.CallToolResult ok(ObjectNode structured) {
    return McpSchema.CallToolResult.builder()
        .addTextContent(structured.toString())
        .structuredContent(asMap(structured))
        .isError(false)
        .build();
  }

  /**
   * {@code e} as a tool error whose one text content is Quarry's error envelope, {@code {"error":
   * {"code", "message", "retryable", "field"?}}}: readable by a model and parsable by a program. It
   * carries no structured content, which clients hold to the tool's output schema even on errors.
   * The text is written for clients (ErrorResponses.of has made sure).
   */
  McpSchema.CallToolResult refused(QuarryException e) {
    return McpSchema.CallToolResult.builder()
        .addTextContent(ErrorEnvelope.of(e).toString())
        .isError(true)
        .build();
  }

  /**
   * {@code e} as a JSON-RPC error: not found as -32002, the caller's mistakes as -32602, else
   * -32603.
   */
  McpError protocolError(QuarryException e) {
    int code =
        switch (e.code()) {
          case CORPUS_NOT_FOUND, SOURCE_NOT_FOUND, NOT_FOUND ->
              McpSchema.ErrorCodes.RESOURCE_NOT_FOUND;
          case INTERNAL, UNAVAILABLE, CAPACITY, INSUFFICIENT_STORAGE ->
              McpSchema.ErrorCodes.INTERNAL_ERROR;
          default -> McpSchema.ErrorCodes.INVALID_PARAMS;
        };
    ObjectNode envelope = ErrorEnvelope.of(e);
    return McpError.builder(code)
        .message(envelope.path("error").path("message").asText())
        .data(asMap((ObjectNode) envelope.get("error")))
        .build();
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> asMap(ObjectNode node) {
    return mapper.convertValue(node, Map.class);
  }
}
