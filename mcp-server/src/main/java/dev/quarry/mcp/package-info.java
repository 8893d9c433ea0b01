/**
 * Quarry's retrieval as a Model Context Protocol server: {@link dev.quarry.mcp.McpPlugin} mounts
 * the official MCP Java SDK's Streamable HTTP transport at {@code /mcp} in a host's Javalin app,
 * beside the api module's {@code QuarryPlugin}, with the same bearer tokens, grants, limits and
 * capacity gate. Tools, resources, progress and cancellation are in {@code mcp.server}; docs/mcp.md
 * is the user's guide.
 *
 * <pre>{@code
 * QuarryPlugin quarry = new QuarryPlugin(c -> c.corpora(corpora).authenticator(tokens));
 * McpPlugin mcp = new McpPlugin(c -> c.corpora(corpora).authenticator(tokens).beside(quarry));
 * Javalin app = Javalin.create(config -> { config.registerPlugin(quarry); config.registerPlugin(mcp); });
 * }</pre>
 *
 * <p>It is a module of its own so that a host not using MCP gets no MCP SDK. It is not for HTTP
 * endpoints of the retrieval contract (api) nor for grants (corpora): it speaks MCP and calls the
 * same services the endpoints call, never the endpoints themselves.
 */
package dev.quarry.mcp;
