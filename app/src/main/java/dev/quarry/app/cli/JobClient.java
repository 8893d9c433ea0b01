package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The ingestion-job calls of {@code quarry ingest} over a running server: create a job, upload
 * files in batches (each streamed from disk as one multipart request), close, cancel and read it,
 * and the content hashes a corpus already holds (to skip unchanged files). Errors are {@link
 * JobException}s carrying the server's code.
 */
final class JobClient {
  private final HttpIngester http;

  JobClient(HttpIngester http) {
    this.http = http;
  }

  String baseUrl() {
    return http.baseUrl();
  }

  /** A refusal: the server's error code and message. */
  static final class JobException extends Exception {
    final String code;
    final String detail;

    JobException(String code, String message) {
      super(code + ": " + message);
      this.code = code;
      this.detail = message;
    }
  }

  /** A new open job for {@code corpus}; its id. */
  String create(String corpus) throws IOException, JobException {
    return ok(http.postJson("jobs/create", http.json().createObjectNode().put("corpus", corpus))).at("/job/id").asText();
  }

  /** Uploads {@code files} to the job (closing it after them when {@code close}); the job's answer. */
  JsonNode upload(String job, List<DocumentFiles.DocumentFile> files, boolean close) throws IOException, JobException {
    ObjectNode request = http.json().createObjectNode().put("job", job);
    ArrayNode entries = request.putArray("files");
    for (DocumentFiles.DocumentFile f : files) {
      ObjectNode entry = entries.addObject().put("source", f.source());
      if (f.declaredMediaType() != null) {
        entry.put("mediaType", f.declaredMediaType());
      }
    }
    if (close) {
      request.put("close", true);
    }
    String boundary = "quarry-" + UUID.randomUUID();
    List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
    parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"request\"\r\n"
        + "Content-Type: application/json\r\n\r\n" + http.json().writeValueAsString(request) + "\r\n",
        StandardCharsets.UTF_8));
    for (DocumentFiles.DocumentFile f : files) {
      parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; "
          + "filename=\"" + HttpIngester.fileName(f) + "\"\r\nContent-Type: application/octet-stream\r\n\r\n",
          StandardCharsets.UTF_8));
      parts.add(HttpRequest.BodyPublishers.ofFile(f.path()));
      parts.add(HttpRequest.BodyPublishers.ofString("\r\n", StandardCharsets.UTF_8));
    }
    parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "--\r\n", StandardCharsets.UTF_8));
    try {
      return ok(http.send(HttpRequest.newBuilder(URI.create(http.baseUrl() + "/v1/retrieval/jobs/upload"))
          .header("Content-Type", "multipart/form-data; boundary=" + boundary)
          .POST(HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new)))));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  JsonNode close(String job) throws IOException, JobException {
    return ok(http.postJson("jobs/close", http.json().createObjectNode().put("job", job)));
  }

  JsonNode cancel(String job) throws IOException, JobException {
    return ok(http.postJson("jobs/cancel", http.json().createObjectNode().put("job", job)));
  }

  /**
   * The job and a page of its files after {@code cursor} (null: the first page). A read changes
   * nothing, so one refused for a passing reason (a busy server: 429, 503, or a body cut off as too
   * slow, 408) is simply sent again, a few times.
   */
  JsonNode read(String job, String cursor, int limit) throws IOException, JobException {
    ObjectNode body = http.json().createObjectNode().put("job", job).put("limit", limit);
    if (cursor != null) {
      body.put("cursor", cursor);
    }
    for (int attempt = 1; ; attempt++) {
      HttpIngester.Answer answer = http.postJson("jobs/read", body);
      boolean passing = answer.status() == 408 || answer.status() == 429 || answer.status() == 503;
      if (!passing || attempt == HttpIngester.MAX_ATTEMPTS) {
        return ok(answer);
      }
      try {
        Thread.sleep(HttpIngester.RETRY_PAUSE.toMillis() * attempt);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  /** Every source of {@code corpus} the token may see, with its content hash. */
  Map<String, String> contentHashes(String corpus) throws IOException, JobException {
    Map<String, String> out = new HashMap<>();
    String cursor = null;
    do {
      ObjectNode body = http.json().createObjectNode().put("corpus", corpus).put("limit", 1000);
      if (cursor != null) {
        body.put("cursor", cursor);
      }
      JsonNode page = ok(http.postJson("sources/list", body));
      for (JsonNode s : page.path("sources")) {
        if (s.has("contentSha256")) {
          out.put(s.get("source").asText(), s.get("contentSha256").asText());
        }
      }
      cursor = page.path("nextCursor").asText(null);
    } while (cursor != null);
    return out;
  }

  private static JsonNode ok(HttpIngester.Answer answer) throws JobException {
    if (answer.status() != 200) {
      throw new JobException(answer.code(), answer.message());
    }
    return answer.body();
  }
}
