package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.client.QuarryClient;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Where a client command sends its requests: {@code --url} and {@code --token} (or the
 * {@code QUARRY_URL} and {@code QUARRY_TOKEN} environment variables), and the {@link QuarryClient}
 * that sends them.
 */
final class RemoteOptions {
  /**
   * How long a command waits for an answer's headers: generous, since a person waits at a
   * terminal and a loaded server is better answered slowly than not at all.
   */
  static final Duration TIMEOUT = Duration.ofMinutes(5);

  @Option(names = "--url", defaultValue = "${env:QUARRY_URL:-http://127.0.0.1:8080}", paramLabel = "URL",
      description = "The server. Default: $QUARRY_URL or ${DEFAULT-VALUE}.")
  String url;

  @Option(names = "--token", defaultValue = "${env:QUARRY_TOKEN}", paramLabel = "TOKEN",
      description = "The bearer token. Default: $QUARRY_TOKEN.")
  String token;

  /** An answer: the HTTP status and the JSON body. */
  record Answer(int status, JsonNode body) {
    boolean ok() {
      return status == 200;
    }

    /** {@code CODE: message} of an error answer. */
    String error() {
      return body.path("error").path("code").asText("HTTP " + status) + ": " + body.path("error").path("message").asText("");
    }
  }

  /**
   * POSTs {@code body} to {@code path} (such as {@code /v1/admin/backup}, which the client module
   * does not speak), waiting up to {@code timeout}; the URL and token are checked as for {@link #client}.
   */
  Answer postTo(String path, ObjectNode body, ObjectMapper mapper, Duration timeout)
      throws IOException, InterruptedException {
    if (token == null || token.isBlank()) {
      throw new UsageException("no token: pass --token TOKEN or set QUARRY_TOKEN");
    }
    HttpRequest request = HttpRequest.newBuilder(URI.create(checkedUrl(url).replaceAll("/+$", "") + path))
        .timeout(timeout)
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(mapper.writeValueAsBytes(body)))
        .build();
    HttpResponse<byte[]> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), mapper.readTree(response.body()));
  }

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
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return url;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new UsageException("--url must be an http:// or https:// address such as http://127.0.0.1:8080; got '"
        + url + "'");
  }
}
