/**
 * The standalone server: {@link dev.quarry.app.server.QuarryServer} runs {@code QuarryPlugin} over
 * a data folder with tokens from a {@link dev.quarry.app.server.TokensFile}, settings from a {@link
 * dev.quarry.app.server.ServerConfig}, CORS, {@code GET /v1/protocol}, {@code GET /healthz}, and
 * JSON error answers for every path. It is its own reference host.
 *
 * <p>Common call: {@code QuarryServer.start(dataDir, "127.0.0.1", 0, TokensFile.read(file),
 * ServerConfig.DEFAULT)}; {@code close()} drains and shuts down.
 *
 * <p>Must not know: the contract's request shapes (those are {@code wire} and {@code routes}), or
 * the engine.
 */
package dev.quarry.app.server;
