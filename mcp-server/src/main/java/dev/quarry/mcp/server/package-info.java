/**
 * The MCP server's parts: {@link dev.quarry.mcp.server.McpEndpoint}, the servlet in front of the
 * SDK's Streamable HTTP transport (authentication, body bound, JSON-RPC shape, cancellation);
 * {@link dev.quarry.mcp.server.QuarryMcpServer}, the SDK server with Quarry's tools ({@link
 * dev.quarry.mcp.server.QuarryTools}, described in {@code tools.json}) and resources ({@link
 * dev.quarry.mcp.server.QuarryResources}). Tools read their arguments with the api module's wire
 * readers and call corpora's services, so an MCP call and an HTTP call check the same things in the
 * same order. The SDK routes no {@code notifications/cancelled} to a server, so {@code McpEndpoint}
 * reads them on the way in and raises the named call's cancellation. It must not know the
 * application (app) nor call the HTTP endpoints.
 */
package dev.quarry.mcp.server;
