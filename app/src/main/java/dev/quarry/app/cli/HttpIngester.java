package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * Ingests through a running server's {@code POST /v1/retrieval/ingest}: each file is streamed from
 * disk as a multipart upload, never read whole into memory. Answers the server marks retryable
 * ({@code 429 CAPACITY}, {@code 503}) are retried a few times with a growing pause.
 */
final class HttpIngester implements DocumentIngester {
  /** Tries per file when the server answers with a retryable error. */
  static final int MAX_ATTEMPTS = 5;
  /** The pause before the second try; each further try waits one more of these. */
  static final Duration RETRY_PAUSE = Duration.ofMillis(500);
  /** Extraction of a large document may take a minute; this bounds a hung connection, not speed. */
  static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(10);

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String baseUrl;
  private final String token;

  String baseUrl() {
    return baseUrl;
  }

  ObjectMapper json() {
    return json;
  }

  HttpIngester(String baseUrl, String token) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.token = token;
  }

  @Override
  public String checkCorpus(String corpus) {
    try {
      Answer a = postJson("corpora/read", json.createObjectNode().put("corpus", corpus));
      return a.status() == 200 ? null : a.code() + ": " + a.message();
    } catch (IOException e) {
      return "UNREACHABLE: " + baseUrl + ": " + e.getMessage();
    }
  }

  @Override
  public String createCorpus(String corpus) {
    try {
      Answer a = postJson("corpora/create", json.createObjectNode().put("corpus", corpus));
      return a.status() == 200 ? null : a.code() + ": " + a.message();
    } catch (IOException e) {
      return "UNREACHABLE: " + baseUrl + ": " + e.getMessage();
    }
  }

  @Override
  public IngestOutcome ingest(String corpus, DocumentFiles.DocumentFile file, String sha256) {
    try {
      Answer read = postJson("sources/read", json.createObjectNode().put("corpus", corpus).put("source", file.source()));
      if (read.status() == 200 && sha256.equals(read.body().path("contentSha256").asText())) {
        return IngestOutcome.of(IngestOutcome.UNCHANGED);
      }
      ObjectNode request = json.createObjectNode().put("corpus", corpus).put("source", file.source());
      if (file.declaredMediaType() != null) {
        request.put("mediaType", file.declaredMediaType());
      }
      Answer answer = null;
      for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        answer = upload(request, file);
        if (answer.status() == 200 || !answer.retryable()) {
          break;
        }
        Thread.sleep(RETRY_PAUSE.toMillis() * attempt);
      }
      return answer.status() == 200 ? IngestOutcome.of(answer.body().path("status").asText())
          : IngestOutcome.failed(answer.code(), answer.message());
    } catch (FileNotFoundException | java.nio.file.NoSuchFileException e) {
      return IngestOutcome.failed("UNREADABLE", "the file could not be read: " + e.getMessage());
    } catch (IOException e) {
      return IngestOutcome.failed("UNREACHABLE", baseUrl + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return IngestOutcome.failed("CANCELLED", "interrupted");
    }
  }

  private Answer upload(ObjectNode request, DocumentFiles.DocumentFile file) throws IOException, InterruptedException {
    String boundary = "quarry-" + UUID.randomUUID();
    String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"request\"\r\n"
        + "Content-Type: application/json\r\n\r\n" + json.writeValueAsString(request) + "\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName(file) + "\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n";
    String tail = "\r\n--" + boundary + "--\r\n";
    HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.concat(
        HttpRequest.BodyPublishers.ofString(head, StandardCharsets.UTF_8),
        HttpRequest.BodyPublishers.ofFile(file.path()),
        HttpRequest.BodyPublishers.ofString(tail, StandardCharsets.UTF_8));
    return send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/retrieval/ingest"))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary).POST(body));
  }

  /** The file's name for the part header, without characters that would break the header. */
  static String fileName(DocumentFiles.DocumentFile file) {
    return file.path().getFileName().toString().replaceAll("[\"\\\\\\r\\n]", "_");
  }

  /** POSTs {@code body} to {@code /v1/retrieval/<endpoint>}. */
  Answer postJson(String endpoint, ObjectNode body) throws IOException {
    try {
      return send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/retrieval/" + endpoint))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body), StandardCharsets.UTF_8)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Sends {@code request} with the token and version header; the answer's body parsed as JSON. */
  Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(request.header("Authorization", "Bearer " + token)
        .header("AgenticDriver-Version", "1.0").timeout(REQUEST_TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    JsonNode body;
    try {
      body = json.readTree(response.body());
    } catch (IOException notJson) {
      body = json.createObjectNode();
    }
    return new Answer(response.statusCode(), body == null ? json.createObjectNode() : body);
  }

  /** A server's answer: the status and the JSON body (an error envelope unless 200). */
  record Answer(int status, JsonNode body) {
    String code() {
      return body.path("error").path("code").asText("HTTP_" + status);
    }

    String message() {
      return body.path("error").path("message").asText("");
    }

    boolean retryable() {
      return body.path("error").path("retryable").asBoolean(false);
    }
  }

  @Override
  public void close() {
    http.close();
  }
}
