package dev.quarry.app.cli;

import dev.quarry.client.QuarryClient;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Where a client command sends its requests: {@code --url} and {@code --token} (or the {@code
 * QUARRY_URL} and {@code QUARRY_TOKEN} environment variables), and the {@link QuarryClient} that
 * sends them.
 */
final class RemoteOptions {
  /**
   * How long a command waits for an answer's headers: generous, since a person waits at a terminal
   * and a loaded server is better answered slowly than not at all.
   */
  static final Duration TIMEOUT = Duration.ofMinutes(5);

  @Option(
      names = "--url",
      defaultValue = "${env:QUARRY_URL:-http://127.0.0.1:8080}",
      paramLabel = "URL",
      description = "The server. Default: $QUARRY_URL or ${DEFAULT-VALUE}.")
  String url;

  @Option(
      names = "--token",
      defaultValue = "${env:QUARRY_TOKEN}",
      paramLabel = "TOKEN",
      description = "The bearer token. Default: $QUARRY_TOKEN.")
  String token;

  /**
   * The client of the server at {@code --url} with {@code --token}.
   *
   * @throws UsageException without a token, or with a URL that is not an http(s) address
   */
  QuarryClient client() {
    if (token == null || token.isBlank()) {
      throw new UsageException("no token: pass --token TOKEN or set QUARRY_TOKEN");
    }
    return QuarryClient.builder(checkedUrl(url)).token(token).timeout(TIMEOUT).build();
  }

  /** {@code url} when it is an absolute http or https address with a host. */
  static String checkedUrl(String url) {
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return url;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new UsageException(
        "--url must be an http:// or https:// address such as http://127.0.0.1:8080; got '"
            + url
            + "'");
  }
}
