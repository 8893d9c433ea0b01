package dev.quarry.app.cli;

import dev.quarry.app.logging.Logging;
import dev.quarry.app.server.LogFormat;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokenReloader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quarry serve}: runs the standalone server until SIGTERM or Ctrl-C, then shuts down
 * cleanly. Prints exactly one line on stdout, {@code listening on http://HOST:PORT}, once it takes
 * requests; everything else goes to stderr.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run the standalone HTTP server.")
final class ServeCommand implements Callable<Integer> {
  @Option(
      names = "--data",
      required = true,
      paramLabel = "DIR",
      description = "The data folder (created if missing).")
  Path data;

  @Option(
      names = "--port",
      defaultValue = "8080",
      paramLabel = "PORT",
      description = "Port; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      paramLabel = "HOST",
      description = "Address to listen on. Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(
      names = "--tokens",
      required = true,
      paramLabel = "FILE",
      description = "The tokens file (JSON; see docs/configuration.md).")
  Path tokens;

  @Option(
      names = "--tokens-check-seconds",
      defaultValue = "2",
      paramLabel = "SECONDS",
      description =
          "How often the tokens file is checked for changes; 0: only on SIGHUP. Default: ${DEFAULT-VALUE}.")
  int tokensCheckSeconds;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Server settings (JSON; see docs/configuration.md).")
  Path config;

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      description =
          "Log lines on stderr: text (for people) or json (one object per line). Default: the config "
              + "file's logging.format, else text.")
  String logFormat;

  @Override
  public Integer call() throws InterruptedException {
    if (tokensCheckSeconds < 0 || tokensCheckSeconds > 86_400) {
      System.err.println(
          "quarry: --tokens-check-seconds must be 0 to 86400; got " + tokensCheckSeconds);
      return 2;
    }
    ServerConfig settings;
    TokenReloader authenticator;
    LogFormat format = logFormat == null ? null : LogFormat.fromName(logFormat);
    if (logFormat != null && format == null) {
      System.err.println("quarry: --log-format is text or json; got '" + logFormat + "'");
      return 2;
    }
    try {
      settings = config == null ? ServerConfig.DEFAULT : ServerConfig.read(config);
      if (format != null) {
        settings = settings.withLogFormat(format);
      }
      Logging.use(settings.logFormat());
      authenticator = TokenReloader.watch(tokens, tokensCheckSeconds * 1000L);
    } catch (IllegalArgumentException e) {
      System.err.println("quarry: " + e.getMessage());
      return 2;
    }
    authenticator.reloadOnHangup();
    ServerConfig serverSettings = settings;
    return Serving.serveUntilStopped(
        () -> QuarryServer.start(data, host, port, authenticator, serverSettings),
        server -> {
          LoggerFactory.getLogger(ServeCommand.class).info("web console: {}", server.consoleUrl());
          return null;
        },
        authenticator::close);
  }
}
