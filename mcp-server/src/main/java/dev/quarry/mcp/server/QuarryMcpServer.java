package dev.quarry.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.routes.RequestGate;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.corpora.Corpora;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The official MCP Java SDK's server over its Streamable HTTP servlet transport, with Quarry's
 * tools and resources. One per plugin; {@link #close} ends its sessions.
 */
public final class QuarryMcpServer implements AutoCloseable {
  /**
   * The newest MCP specification revision the SDK speaks; older ones a client asks for are served
   * too.
   */
  public static final String PROTOCOL_REVISION = ProtocolVersions.MCP_2025_11_25;

  private final HttpServletStreamableServerTransportProvider transport;
  private final McpSyncServer server;
  private final Cancellations cancellations = new Cancellations();
  private final ResourceListing listing;

  public QuarryMcpServer(
      Corpora corpora, String path, RequestGate gate, Limits limits, boolean indexing) {
    ObjectMapper mapper = new ObjectMapper();
    JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(mapper);
    this.transport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(json)
            .mcpEndpoint(path)
            // McpEndpoint authenticated the request and left the caller on it.
            .contextExtractor(
                request -> ((Caller) request.getAttribute(Caller.ATTRIBUTE)).context())
            .maxRequestSize((int) Math.min(Integer.MAX_VALUE, limits.get(Limit.MAX_REQUEST_BYTES)))
            .build();
    QuarryTools tools = new QuarryTools(corpora, gate, limits, indexing, mapper, cancellations);
    QuarryResources resources = new QuarryResources(corpora, new ToolResults(mapper));
    this.listing = new ResourceListing(corpora, (int) limits.get(Limit.DEFAULT_LIST_LIMIT));
    this.server =
        McpServer.sync(transport)
            .serverInfo("quarry", version())
            .instructions(
                "Quarry searches document corpora. Start with list_corpora, then search; pass the "
                    + "revision of a search answer to read (and to later searches) to see the same corpus state.")
            .capabilities(
                McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
            .jsonMapper(json)
            .jsonSchemaValidator(new OwnOutputs(mapper))
            // Tools check their arguments with the HTTP API's readers: the same rules and field
            // paths,
            // answered as tool errors with Quarry's codes.
            .validateToolInputs(false)
            // The transport blocks its request thread until the answer is written: run the tool
            // there.
            .immediateExecution(true)
            .tools(tools.specifications())
            .addToolFilter((context, tool) -> tools.visible(Caller.of(context), tool))
            .resourceTemplates(resources.templates())
            .build();
  }

  private static String version() {
    String v = QuarryMcpServer.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }

  Cancellations cancellations() {
    return cancellations;
  }

  /**
   * resources/list, answered per caller by McpEndpoint (the SDK lists one set for every session).
   */
  ResourceListing listing() {
    return listing;
  }

  /** Hands a request that McpEndpoint has checked to the SDK's transport. */
  void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    transport.service(request, response);
  }

  @Override
  public void close() {
    server.closeGracefully();
  }
}
