package dev.quarry.mcp.server;

import dev.quarry.corpora.access.Access;
import io.modelcontextprotocol.common.McpTransportContext;
import java.util.HashMap;
import java.util.Map;

/**
 * Who makes an MCP request and which JSON-RPC request it is, carried from {@link McpEndpoint}
 * (which authenticates every HTTP request) to the tool handlers through the SDK's transport
 * context. Grants are the current request's token's, never the session's first one.
 *
 * @param session the Mcp-Session-Id, or null before initialize
 * @param requestId the JSON-RPC id of a request, as its JSON text, or null for notifications
 */
record Caller(Access access, String session, String requestId) {
  private static final String KEY = "quarry.caller";

  McpTransportContext context() {
    Map<String, Object> values = new HashMap<>();
    values.put(KEY, this);
    return McpTransportContext.create(values);
  }

  static Caller of(McpTransportContext context) {
    Object caller = context == null ? null : context.get(KEY);
    // McpEndpoint authenticates every request before the SDK sees it.
    assert caller != null : "a request reached the MCP server without McpEndpoint";
    return (Caller) caller;
  }

  /** The request attribute McpEndpoint leaves the caller in for the SDK's context extractor. */
  static final String ATTRIBUTE = KEY;
}
