package dev.quarry.client;

import dev.quarry.api.TestTokens;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokensFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A real Quarry server on loopback, in this JVM, over its own data folder, with the test tokens. */
final class RealServer implements AutoCloseable {
  private final QuarryServer server;

  RealServer(Path dir) {
    this(dir, ServerConfig.DEFAULT);
  }

  RealServer(Path dir, ServerConfig config) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server = QuarryServer.start(dir.resolve("data"), "127.0.0.1", 0, TokensFile.read(TestTokens.write(dir)),
        config);
  }

  String url() {
    return server.url();
  }

  QuarryClient client(String token) {
    return QuarryClient.create(url(), token);
  }

  @Override
  public void close() {
    server.close();
  }
}
