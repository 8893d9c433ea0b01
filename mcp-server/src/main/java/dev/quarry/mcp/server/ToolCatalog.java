package dev.quarry.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The tools' names, descriptions, annotations and JSON schemas, read once from {@code tools.json}
 * beside this class: one file an agent's view of the tools can be reviewed in, and docs/mcp.md
 * quotes.
 */
final class ToolCatalog {
  private final Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();
  private final Set<String> indexing;

  @SuppressWarnings("unchecked")
  ToolCatalog(ObjectMapper mapper) {
    JsonNode all;
    try (InputStream in = ToolCatalog.class.getResourceAsStream("tools.json")) {
      all = mapper.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("tools.json is missing from the mcp module's jar", e);
    }
    Set<String> index = new HashSet<>();
    for (JsonNode t : all) {
      JsonNode a = t.get("annotations");
      String name = t.get("name").asText();
      tools.put(
          name,
          McpSchema.Tool.builder()
              .name(name)
              .title(t.get("title").asText())
              .description(t.get("description").asText())
              .inputSchema(mapper.convertValue(t.get("inputSchema"), Map.class))
              .outputSchema(mapper.convertValue(t.get("outputSchema"), Map.class))
              .annotations(
                  new McpSchema.ToolAnnotations(
                      t.get("title").asText(),
                      a.get("readOnlyHint").asBoolean(),
                      a.get("destructiveHint").asBoolean(),
                      a.get("idempotentHint").asBoolean(),
                      a.get("openWorldHint").asBoolean(),
                      null))
              .build());
      if (t.path("index").asBoolean(false)) {
        index.add(name);
      }
    }
    this.indexing = Set.copyOf(index);
  }

  McpSchema.Tool tool(String name) {
    McpSchema.Tool tool = tools.get(name);
    assert tool != null : "tools.json has no tool " + name;
    return tool;
  }

  /** Whether the tool writes, and so is listed only for tokens with the index scope. */
  boolean indexes(String name) {
    return indexing.contains(name);
  }

  /** The input schema's property names: the only arguments a tool accepts. */
  @SuppressWarnings("unchecked")
  Set<String> arguments(String name) {
    Object properties = tool(name).inputSchema().get("properties");
    return ((Map<String, ?>) properties).keySet();
  }
}
