package dev.quarry.mcp;

import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.mcp.server.McpEndpoint;
import dev.quarry.mcp.server.QuarryMcpServer;
import io.javalin.config.JavalinState;
import io.javalin.plugin.Plugin;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * Quarry's retrieval as an MCP server (Streamable HTTP, protocol revision {@value
 * QuarryMcpServer#PROTOCOL_REVISION}) at {@code /mcp}: the tools {@code search}, {@code read},
 * {@code list_corpora}, {@code list_sources} and, for tokens with the {@code index} scope, {@code
 * index_text} and {@code delete_source}; each corpus and source as a resource. A host registers it
 * beside {@code QuarryPlugin}; see the package doc and docs/mcp.md.
 *
 * <p>The endpoint is a servlet of the official MCP Java SDK mounted on the host's Jetty context, so
 * Javalin's routes, before-handlers and error pages do not see its requests; the servlet filters
 * the host maps to {@code /*} do. Thread-safe once built; the host's app owns its lifecycle.
 *
 * @quarry.experimental
 */
public final class McpPlugin extends Plugin<McpPluginConfig> {
  private final QuarryMcpServer server;
  private final McpEndpoint endpoint;

  /**
   * @throws IllegalStateException when the configuration lacks corpora, an authenticator or the
   *     QuarryPlugin it stands beside
   */
  public McpPlugin(Consumer<McpPluginConfig> userConfig) {
    super(userConfig, new McpPluginConfig());
    pluginConfig.check();
    var quarry = pluginConfig.quarry;
    this.server =
        new QuarryMcpServer(
            pluginConfig.corpora,
            pluginConfig.path,
            quarry.capacityGate(),
            quarry.wireLimits(),
            quarry.offers(Feature.RETRIEVAL_INDEXING));
    this.endpoint =
        new McpEndpoint(
            server, pluginConfig.authenticator, quarry.wireLimits().get(Limit.MAX_REQUEST_BYTES));
  }

  @Override
  public void onInitialize(JavalinState state) {
    state.jetty.modifyServletContextHandler(
        handler -> {
          ServletHolder holder = new ServletHolder("quarry-mcp", endpoint);
          // The SDK answers a request with an event stream it completes from another thread.
          holder.setAsyncSupported(true);
          handler.addServlet(holder, pluginConfig.path);
        });
    state.events.serverStopping(server::close);
  }

  @Override
  public String name() {
    return "quarry-mcp";
  }

  /** The endpoint's path, such as {@code /mcp}. */
  public String path() {
    return pluginConfig.path;
  }

  /**
   * The endpoint's checks before a POST's body: a host that collects bodies before handling
   * requests asks it for requests to {@link #path}, which Javalin's route table does not hold.
   */
  public ChecksBeforeBody checksBeforeBody() {
    return endpoint;
  }
}
