package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Where a client command sends its request: {@code --url} and {@code --token} (or the
 * {@code QUARRY_URL} and {@code QUARRY_TOKEN} environment variables).
 */
final class RemoteOptions {
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

  /** POSTs {@code body} to {@code /v1/retrieval/<endpoint>}. */
  Answer post(String endpoint, ObjectNode body, ObjectMapper mapper) throws IOException, InterruptedException {
    return postTo("/v1/retrieval/" + endpoint, body, mapper, Duration.ofMinutes(5));
  }

  /** POSTs {@code body} to {@code path} (such as {@code /v1/admin/backup}), waiting up to {@code timeout}. */
  Answer postTo(String path, ObjectNode body, ObjectMapper mapper, Duration timeout)
      throws IOException, InterruptedException {
    if (token == null || token.isBlank()) {
      throw new UsageException("no token: pass --token TOKEN or set QUARRY_TOKEN");
    }
    HttpRequest request = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + path))
        .timeout(timeout)
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(mapper.writeValueAsBytes(body)))
        .build();
    HttpResponse<byte[]> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), mapper.readTree(response.body()));
  }
}
