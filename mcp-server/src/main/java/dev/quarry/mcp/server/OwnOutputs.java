package dev.quarry.mcp.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;

/**
 * The SDK's schema check, given only the server's own structured outputs (tool inputs are read by
 * the API's wire readers instead): they are built by the tools from the schemas in tools.json, and
 * the tests hold them to those schemas, so nothing is checked again per call. It also keeps the
 * SDK's default validator, and the JSON Schema library version it needs, off the class path: the
 * project's tests use another version of that library.
 */
final class OwnOutputs implements JsonSchemaValidator {
  private final ObjectMapper mapper;

  OwnOutputs(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    try {
      return ValidationResponse.asValid(mapper.writeValueAsString(structuredContent));
    } catch (JsonProcessingException e) {
      return ValidationResponse.asInvalid("the structured content is not JSON");
    }
  }
}
