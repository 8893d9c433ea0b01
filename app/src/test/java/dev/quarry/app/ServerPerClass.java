package dev.quarry.app;

import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link ServerProcess} for a whole test class: {@code serve} over a fresh folder with the
 * {@link TestTokens} or a tokens file of the class's own (and a config file when one is given),
 * started before the class's {@code @BeforeAll} methods, with the corpora it is given created by
 * the admin token, so those methods can fill them, and stopped after its last test, its folder then
 * removed. Registered as a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ServerPerClass server = ServerPerClass.withTestTokens().config("{...}").heapMiB(512)
 *     .corpus("c1").corpus("h", "{\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}");
 * }</pre>
 */
public final class ServerPerClass implements BeforeAllCallback, AfterAllCallback {
  private String tokens = TestTokens.FILE;
  private Function<Path, String> config;
  private int heapMiB = ServerProcess.DEFAULT_HEAP_MIB;
  private final List<String> corpora = new ArrayList<>();
  private Path dir;
  private ServerProcess process;

  private ServerPerClass() {}

  /** A server with the test tokens, no config file and the default heap. */
  public static ServerPerClass withTestTokens() {
    return new ServerPerClass();
  }

  /** A server with this tokens file instead, no config file and the default heap. */
  public static ServerPerClass withTokens(String tokensJson) {
    ServerPerClass server = new ServerPerClass();
    server.tokens = tokensJson;
    return server;
  }

  /** Starts the server with this config file. */
  public ServerPerClass config(String json) {
    return config(dir -> json);
  }

  /**
   * Starts the server with the config file {@code json} writes, given the server's folder (for
   * paths in it).
   */
  public ServerPerClass config(Function<Path, String> json) {
    this.config = json;
    return this;
  }

  /** The server's heap (extraction workers have their own). */
  public ServerPerClass heapMiB(int heapMiB) {
    this.heapMiB = heapMiB;
    return this;
  }

  /** Creates corpus {@code name}, with the default settings, once the server is up. */
  public ServerPerClass corpus(String name) {
    return corpus(name, null);
  }

  /**
   * Creates corpus {@code name} with {@code settings} (a JSON object, as corpora/create takes it)
   * once the server is up.
   */
  public ServerPerClass corpus(String name, String settings) {
    corpora.add(
        "{\"corpus\": \""
            + name
            + "\""
            + (settings == null ? "" : ", \"settings\": " + settings)
            + "}");
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    // One server per registration: a @Nested class would run this again and leak the first one.
    if (dir != null) {
      throw new IllegalStateException(
          "ServerPerClass already started for " + context.getRequiredTestClass());
    }
    dir = Files.createTempDirectory("quarry-server-");
    Path tokens = TestTokens.write(dir, this.tokens);
    Path configFile =
        config == null ? null : Files.writeString(dir.resolve("config.json"), config.apply(dir));
    process = ServerProcess.serve(dir.resolve("data"), tokens, configFile, heapMiB);
    ApiClient api = process.client();
    for (String create : corpora) {
      ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, create));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (process != null) {
        process.close();
      }
    } finally {
      if (dir != null) {
        deleteTree(dir);
      }
    }
  }

  /**
   * Removes {@code dir} and everything in it: a test server's folder, once the server is closed.
   */
  public static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(ServerPerClass::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The running server (fails before {@code beforeAll} started it). */
  public ServerProcess process() {
    if (process == null) {
      throw new IllegalStateException(
          "the server starts before the class's @BeforeAll methods, not earlier");
    }
    return process;
  }

  public ApiClient client() {
    return process().client();
  }

  public String url() {
    return process().url();
  }

  public String stderr() {
    return process().stderr();
  }
}
