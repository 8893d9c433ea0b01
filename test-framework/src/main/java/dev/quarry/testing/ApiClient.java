package dev.quarry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small HTTP client for tests: real requests on loopback, answers parsed as JSON and checked
 * against {@code openapi.yaml} ({@link OpenApiContract}).
 */
public final class ApiClient {
  public static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String baseUrl;
  private final OpenApiContract.Observer observer;

  public ApiClient(String baseUrl) {
    this(baseUrl, OpenApiContract.Observer.NONE);
  }

  /** A client that also tells {@code observer} every documented property its answers carried. */
  public ApiClient(String baseUrl, OpenApiContract.Observer observer) {
    this.baseUrl = baseUrl;
    this.observer = observer;
  }

  /** The JSON body of a 200 answer; fails the test, showing the answer, on any other status. */
  public static JsonNode ok(Answer answer) {
    assertEquals(200, answer.status(), answer::toString);
    return answer.json();
  }

  /** One answer: status, headers, body text and the body as JSON (null if not JSON). */
  public record Answer(int status, HttpResponse<String> raw, JsonNode json) {
    public String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }

    public String code() {
      return json == null || !json.has("error") ? null : json.path("error").path("code").asText();
    }

    public String field() {
      return json == null ? null : json.path("error").path("field").asText(null);
    }

    public String body() {
      return raw.body();
    }

    @Override
    public String toString() {
      return status + " " + raw.body();
    }
  }

  /** A request builder with sensible defaults: JSON content type, no token, no version header. */
  public final class Call {
    private final String method;
    private final String path;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte[] body;

    Call(String method, String path) {
      this.method = method;
      this.path = path;
    }

    public Call token(String token) {
      return header("Authorization", "Bearer " + token);
    }

    public Call header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    public Call json(String json) {
      headers.putIfAbsent("Content-Type", "application/json");
      this.body = json.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    public Call bytes(byte[] bytes) {
      this.body = bytes;
      return this;
    }

    public Answer send() {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60));
      headers.forEach(b::header);
      b.method(
          method,
          body == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      try {
        HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = null;
        try {
          json = res.body().isEmpty() ? null : JSON.readTree(res.body());
        } catch (IOException notJson) {
          // left null: the test decides whether that is a failure
        }
        // Every answer a test receives is held to openapi.yaml.
        String contentType = res.headers().firstValue("Content-Type").orElse(null);
        OpenApiContract.get().check(method, path, res.statusCode(), contentType, json, observer);
        OpenApiContract.get()
            .checkEvents(method, path, res.statusCode(), contentType, res.body(), observer);
        return new Answer(res.statusCode(), res, json);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  public Call post(String path) {
    return new Call("POST", path);
  }

  public Call get(String path) {
    return new Call("GET", path);
  }

  public Call request(String method, String path) {
    return new Call(method, path);
  }

  /** POST {@code json} to a retrieval endpoint with {@code token}. */
  public Answer retrieval(String endpoint, String token, String json) {
    return post("/v1/retrieval/" + endpoint).token(token).json(json).send();
  }

  public HttpClient http() {
    return http;
  }

  public String baseUrl() {
    return baseUrl;
  }
}
