package dev.quarry.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The HTTP exchange of every call: the version header out, the version check in (before the body is
 * read), the error envelope turned into a typed exception. Thread-safe.
 */
final class Transport {
  static final String VERSION_HEADER = "AgenticDriver-Version";

  /** The one wire version this client implements, and so the one it asks for. */
  static final String VERSION = "1.0";

  static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /**
   * The tolerant reader: unknown response fields are ignored. The writer leaves out absent (null)
   * fields; what it can write at all is fixed by the request records, so it never sends a field the
   * contract lacks.
   */
  static final ObjectMapper JSON =
      new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private final HttpClient http;
  private final URI base;
  private final String token;
  private final Duration timeout;

  Transport(HttpClient http, URI base, String token, Duration timeout) {
    this.http = http;
    this.base = base;
    this.token = token;
    this.timeout = timeout;
  }

  HttpRequest.Builder request(String path) {
    return request(path, true);
  }

  /**
   * A request to {@code path}; {@code timed}: bounded by the client's timeout (runs are not: they
   * have their own).
   */
  HttpRequest.Builder request(String path, boolean timed) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path)).header(VERSION_HEADER, VERSION);
    if (timed && timeout != null) {
      b.timeout(timeout);
    }
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  /** POSTs {@code body} as JSON and returns the 200 answer's JSON. */
  JsonNode post(String path, Object body, String idempotencyKey) {
    return post(request(path), body, idempotencyKey);
  }

  /**
   * POSTs {@code body} as JSON with the request {@code b} (its path, its timeout) and returns the
   * 200 answer's JSON.
   */
  JsonNode post(HttpRequest.Builder b, Object body, String idempotencyKey) {
    b.header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(write(body)));
    if (idempotencyKey != null) {
      b.header(IDEMPOTENCY_KEY, idempotencyKey);
    }
    return json(send(b.build()));
  }

  JsonNode get(String path) {
    return json(send(request(path).GET().build()));
  }

  /**
   * Sends and returns the answer with its body still unread, once its version is one this client
   * implements (an answer without the header is the legacy 1.0 contract). A non-200 answer is read
   * and thrown as its error.
   */
  HttpResponse<InputStream> send(HttpRequest request) {
    HttpResponse<InputStream> res;
    try {
      // A rejected version's body is discarded unread.
      res =
          http.send(
              request,
              info ->
                  implemented(info.headers().firstValue(VERSION_HEADER).orElse(null))
                      ? HttpResponse.BodySubscribers.ofInputStream()
                      : HttpResponse.BodySubscribers.replacing(InputStream.nullInputStream()));
    } catch (IOException e) {
      throw new TransportException(request.method() + " " + request.uri().getPath() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted", e);
    }
    String version = res.headers().firstValue(VERSION_HEADER).orElse(null);
    if (!implemented(version)) {
      throw new ProtocolException(
          ProtocolException.UNSUPPORTED_PROTOCOL_VERSION,
          "the server answered with wire version '"
              + version
              + "'; this client implements "
              + VERSION);
    }
    if (res.statusCode() != 200) {
      throw error(res.statusCode(), readAll(res));
    }
    return res;
  }

  private static boolean implemented(String version) {
    return version == null || VERSION.equals(version.strip());
  }

  /**
   * The exception of a non-200 answer: a run's error (its envelope names the run) is a {@link
   * RunFailedException}, any other an {@link ApiException} of the status's kind.
   */
  static QuarryClientException error(int status, byte[] body) {
    JsonNode envelope;
    try {
      envelope = JSON.readTree(body);
    } catch (IOException e) {
      envelope = null;
    }
    JsonNode error = envelope == null ? null : envelope.get("error");
    if (error == null || !error.isObject() || !error.path("code").isTextual()) {
      return new ProtocolException(
          ProtocolException.INVALID_RESPONSE,
          "HTTP " + status + " without an error envelope: " + preview(body));
    }
    ErrorInfo info = errorInfo(error);
    if (envelope.path("runId").isTextual()) {
      return new RunFailedException(
          envelope.get("runId").textValue(), RunStream.cancelled(info.code()), info);
    }
    return ApiException.of(status, info);
  }

  static ErrorInfo errorInfo(JsonNode error) {
    return new ErrorInfo(
        error.path("code").asText(),
        error.path("message").asText(""),
        error.path("retryable").asBoolean(false),
        error.path("field").textValue(),
        error.path("outcome").textValue());
  }

  static byte[] readAll(HttpResponse<InputStream> res) {
    try (InputStream in = res.body()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new TransportException("reading the answer failed: " + e, e);
    }
  }

  static JsonNode json(HttpResponse<InputStream> res) {
    byte[] body = readAll(res);
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || !node.isObject()) {
        throw new ProtocolException(
            ProtocolException.INVALID_RESPONSE,
            "the answer is not a JSON object: " + preview(body));
      }
      return node;
    } catch (IOException e) {
      throw new ProtocolException(
          ProtocolException.INVALID_RESPONSE, "the answer is not JSON: " + preview(body), e);
    }
  }

  static byte[] write(Object body) {
    try {
      return JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write the request: " + e.getMessage(), e);
    }
  }

  static <T> T read(JsonNode node, Class<T> type) {
    try {
      return JSON.treeToValue(node, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new ProtocolException(
          ProtocolException.INVALID_RESPONSE,
          "the answer does not read as " + type.getSimpleName() + ": " + e.getMessage(),
          e);
    }
  }

  private static String preview(byte[] body) {
    String s = new String(body, StandardCharsets.UTF_8);
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  HttpClient http() {
    return http;
  }
}
