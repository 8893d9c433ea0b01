package dev.quarry.app.cli;

import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokenAuthenticator;
import dev.quarry.app.server.TokensFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quarry serve}: runs the standalone server until SIGTERM or Ctrl-C, then shuts down
 * cleanly. Prints exactly one line on stdout, {@code listening on http://HOST:PORT}, once it takes
 * requests; everything else goes to stderr.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the standalone HTTP server.")
final class ServeCommand implements Callable<Integer> {
  @Option(names = "--data", required = true, paramLabel = "DIR", description = "The data folder (created if missing).")
  Path data;

  @Option(names = "--port", defaultValue = "8080", paramLabel = "PORT", description = "Port; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST", description = "Address to listen on. Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(names = "--tokens", required = true, paramLabel = "FILE", description = "The tokens file (JSON; see docs/configuration.md).")
  Path tokens;

  @Option(names = "--config", paramLabel = "FILE", description = "Server settings (JSON; see docs/configuration.md).")
  Path config;

  @Override
  public Integer call() throws InterruptedException {
    TokenAuthenticator authenticator;
    ServerConfig settings;
    try {
      authenticator = TokensFile.read(tokens);
      settings = config == null ? ServerConfig.DEFAULT : ServerConfig.read(config);
    } catch (IllegalArgumentException e) {
      System.err.println("quarry: " + e.getMessage());
      return 2;
    }
    return Serving.serveUntilStopped(() -> QuarryServer.start(data, host, port, authenticator, settings),
        server -> System.err.println("web console: " + server.consoleUrl()));
  }
}
