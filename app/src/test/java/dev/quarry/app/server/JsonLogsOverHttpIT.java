package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --log-format json} (and {@code logging.format}) over a real server process: every line on
 * stderr is one JSON object with time, level, logger and message, and each line logged while a
 * request was served carries that request's id.
 */
class JsonLogsOverHttpIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void everyLineIsAJsonObjectAndLinesOfARequestCarryItsId() throws Exception {
    Path config = backupConfig("text");
    List<JsonNode> lines;
    try (ServerProcess server =
        ServerProcess.serve(
            dir.resolve("data"), TestTokens.write(dir), config, List.of("--log-format", "json"))) {
      ApiClient api = server.client();
      ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"));
      // A backup logs on the request's own thread, besides the access log line written afterwards.
      assertEquals(
          200,
          api.post("/v1/admin/backup")
              .token(TestTokens.ADMIN)
              .header("X-Request-Id", "backup-req-1")
              .json("{\"name\": \"b1\"}")
              .send()
              .status());
      lines = awaitLines(server, "backup-req-1", 2);
    }
    for (JsonNode line : lines) {
      for (String field : List.of("time", "level", "logger", "thread", "message")) {
        assertTrue(line.hasNonNull(field), () -> "no " + field + " in " + line);
      }
    }
    List<JsonNode> ofRequest =
        lines.stream()
            .filter(l -> "backup-req-1".equals(l.path("requestId").asText(null)))
            .toList();
    assertTrue(
        ofRequest.stream()
            .anyMatch(
                l ->
                    l.get("logger").asText().equals("dev.quarry.access")
                        && l.get("message")
                            .asText()
                            .startsWith("method=POST path=/v1/admin/backup ")),
        () -> "no access line: " + ofRequest);
    assertFalse(
        lines.stream().anyMatch(l -> l.get("message").asText().contains("backup-req-1")),
        "the request id is the requestId field, not part of a message");
    assertTrue(
        ofRequest.stream()
            .anyMatch(
                l ->
                    l.get("logger").asText().endsWith("Backups")
                        && l.get("message").asText().contains("backup b1 written")),
        () -> "no line of the backup itself: " + ofRequest);
    assertFalse(
        lines.stream()
            .anyMatch(
                l ->
                    l.get("message").asText().contains("backup b1 written") && !l.has("requestId")),
        "the backup's line carries the request id");
  }

  @Test
  void theConfigFileChoosesJsonAndTextLinesNameTheRequestToo() throws Exception {
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), backupConfig("json"))) {
      server.client().get("/healthz").header("X-Request-Id", "health-req-1").send();
      assertFalse(awaitLines(server, "health-req-1", 1).isEmpty());
    }
    Path text = dir.resolve("text");
    Files.createDirectories(text);
    try (ServerProcess server =
        ServerProcess.serve(text.resolve("data"), TestTokens.write(text), null)) {
      ApiClient.ok(
          server.client().retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"));
      server.client().get("/healthz").header("X-Request-Id", "health-req-2").send();
      String line = awaitText(server, "health-req-2");
      assertTrue(
          line.contains(" INFO dev.quarry.access request=health-req-2 - method=GET path=/healthz "),
          line);
      assertEquals(
          line.indexOf("health-req-2"),
          line.lastIndexOf("health-req-2"),
          () -> "the id twice: " + line);
      assertFalse(line.startsWith("{"), line);
    }
  }

  private Path backupConfig(String format) throws IOException {
    return Files.writeString(
        dir.resolve("config-" + format + ".json"),
        "{\"backup\": {\"directory\": \""
            + dir.resolve("backups").toString().replace("\\", "\\\\")
            + "\"}, \"logging\": {\"format\": \""
            + format
            + "\"}}");
  }

  /**
   * Every stderr line, parsed, once {@code count} of them name {@code requestId}; fails on a line
   * that is not JSON.
   */
  private static List<JsonNode> awaitLines(ServerProcess server, String requestId, int count)
      throws Exception {
    for (int attempt = 0; attempt < 200; attempt++) {
      List<JsonNode> parsed = new ArrayList<>();
      String[] raw = server.stderr().split("\n");
      for (String line : raw) {
        if (line.isBlank() || line.startsWith("WARNING: ")) {
          continue; // the JVM's own warnings (Lucene's native access), written before any logger
          // exists
        }
        JsonNode node;
        try {
          node = JSON.readTree(line);
        } catch (IOException e) {
          throw new AssertionError("a log line that is not JSON: " + line, e);
        }
        assertNotNull(node);
        assertTrue(node.isObject(), line);
        parsed.add(node);
      }
      if (parsed.stream().filter(n -> requestId.equals(n.path("requestId").asText(null))).count()
          >= count) {
        return parsed;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "fewer than " + count + " lines name " + requestId + ":\n" + server.stderr());
  }

  private static String awaitText(ServerProcess server, String needle) throws Exception {
    for (int attempt = 0; attempt < 200; attempt++) {
      for (String line : server.stderr().split("\n")) {
        if (line.contains(needle)) {
          return line;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no line with " + needle + ":\n" + server.stderr());
  }
}
