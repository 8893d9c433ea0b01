package dev.quarry.client;

import dev.quarry.app.ServerPerClass;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokensFile;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Quarry server on loopback, in this JVM, over its own data folder, with the test tokens.
 * {@link #perClass()} gives one for a whole test class. Its clients' answers are held to
 * openapi.yaml ({@link ContractCheckingHttpClient}).
 */
final class RealServer implements AutoCloseable {
  private final QuarryServer server;

  /** Every answer a client of {@link #client} receives is held to openapi.yaml. */
  private final ContractCheckingHttpClient http = ContractCheckingHttpClient.standard();

  RealServer(Path dir) {
    this(dir, ServerConfig.DEFAULT);
  }

  RealServer(Path dir, ServerConfig config) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server =
        QuarryServer.start(
            dir.resolve("data"), "127.0.0.1", 0, TokensFile.read(TestTokens.write(dir)), config);
  }

  String url() {
    return server.url();
  }

  /** A client with {@code token} whose every answer is held to openapi.yaml. */
  QuarryClient client(String token) {
    return QuarryClient.builder(url()).token(token).httpClient(http).build();
  }

  /**
   * Stops the server, then fails if a client of {@link #client} received an answer openapi.yaml
   * does not describe.
   */
  @Override
  public void close() {
    server.close();
    http.assertNoViolations();
  }

  /**
   * One server for a whole test class, the in-process counterpart of {@link ServerPerClass}:
   * started over a fresh folder before the class's {@code @BeforeAll} methods (so they can create
   * its corpora), closed after its last test, its folder then removed. Registered as a static
   * field:
   *
   * <pre>{@code
   * @RegisterExtension
   * static final RealServer.PerClass server = RealServer.perClass();
   * }</pre>
   */
  static PerClass perClass() {
    return new PerClass();
  }

  static final class PerClass implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private RealServer server;

    private PerClass() {}

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
      dir = Files.createTempDirectory("quarry-client-");
      server = new RealServer(dir);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
      try {
        if (server != null) {
          server.close();
        }
      } finally {
        if (dir != null) {
          ServerPerClass.deleteTree(dir);
        }
      }
    }

    /** The running server (fails before {@code beforeAll} started it). */
    RealServer server() {
      if (server == null) {
        throw new IllegalStateException(
            "the server starts before the class's @BeforeAll methods, not earlier");
      }
      return server;
    }

    String url() {
      return server().url();
    }

    QuarryClient client(String token) {
      return server().client(token);
    }
  }
}
