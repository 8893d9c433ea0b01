package dev.quarry.benchmarks.contender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The client side of the HTTP contenders: JSON (or NDJSON) bodies over one keep-alive {@link
 * HttpClient}, answers parsed with Jackson, as an application would call a search server. HTTP/1.1
 * on purpose: both servers speak it, and the client's HTTP/2 upgrade attempt would add a header
 * exchange to every first request. Thread-safe. The cluster benchmark ({@link
 * dev.quarry.benchmarks.cluster}) uses it for its plain OpenSearch index too.
 */
public final class JsonHttp {
  /** Bounds a hung server; a batch of 500 documents takes seconds on a loaded machine. */
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  public final ObjectMapper mapper = new ObjectMapper();
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final String baseUrl;
  private final String authorization;

  /**
   * @param authorization the Authorization header's value, or null for none
   */
  public JsonHttp(String baseUrl, String authorization) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.authorization = authorization;
  }

  /**
   * Sends {@code body} with {@code method} to {@code path}; returns the status and the parsed
   * answer.
   */
  public Answer send(String method, String path, byte[] body, String contentType)
      throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(TIMEOUT)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (body != null) {
      request.header("Content-Type", contentType);
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<byte[]> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + path);
    }
    byte[] bytes = response.body();
    JsonNode json = bytes.length == 0 ? mapper.nullNode() : mapper.readTree(bytes);
    return new Answer(response.statusCode(), json);
  }

  /** POSTs {@code body} as JSON. */
  public Answer postJson(String path, Object body) throws IOException {
    return send("POST", path, mapper.writeValueAsBytes(body), "application/json");
  }

  /** POSTs {@code body} as JSON and fails unless the status is 200. */
  public JsonNode postJsonOk(String path, Object body) throws IOException {
    Answer answer = postJson(path, body);
    return answer.ok(path);
  }

  /** A status and a parsed JSON body. */
  public record Answer(int status, JsonNode json) {
    public JsonNode ok(String path) throws IOException {
      if (status != 200) {
        throw new IOException(path + " answered " + status + ": " + json);
      }
      return json;
    }
  }
}
