package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every message a client reads is written for a client: hostile and broken bodies sent to every
 * JSON endpoint of a real server (real corpora on disk), and a backup that cannot be written, are
 * answered with text that names no Java class, member, exception or library, and no path of the
 * server.
 */
class ClientTextOverHttpTest {
  static final List<String> ENDPOINTS =
      List.of(
          "/v1/retrieval/search",
          "/v1/retrieval/sources/index",
          "/v1/retrieval/sources/batch",
          "/v1/retrieval/sources/read",
          "/v1/retrieval/corpora/create",
          "/v1/retrieval/whoami",
          "/v1/runs",
          "/v1/agui",
          "/v1/admin/backup");

  @TempDir static Path dir;
  static QuarryServer server;
  static ApiClient api;

  @BeforeAll
  static void start() throws IOException {
    // A backup folder that cannot be made: one of its parents is a file.
    Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "x");
    ServerConfig config =
        ServerConfig.parse(
            ("{\"backup\": {\"directory\": \"" + notAFolder.resolve("backups") + "\"}}")
                .getBytes(StandardCharsets.UTF_8));
    server =
        QuarryServer.start(
            dir.resolve("data"), "127.0.0.1", 0, TokensFile.read(TestTokens.write(dir)), config);
    api = new ApiClient(server.url());
    ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void deepNesting_isRefusedInWordsForClients() {
    Answer a =
        post(
            "/v1/retrieval/search",
            "{\"corpus\": \"c1\", \"query\": \"q\", \"filter\": "
                + "{\"a\": ".repeat(40)
                + "1"
                + "}".repeat(40)
                + "}");
    assertInvalid(a, "$");
    assertTrue(message(a).contains("nests deeper than 32 levels"), a::toString);
  }

  @Test
  void dataAfterTheValue_isRefusedInWordsForClients() {
    for (String body :
        List.of("{\"corpus\": \"c1\", \"query\": \"q\"} {}", "{\"corpus\": \"c1\"} x", "{}]")) {
      Answer a = post("/v1/retrieval/search", body);
      assertInvalid(a, "$");
      assertTrue(message(a).contains("has data after its JSON value"), a::toString);
    }
  }

  @Test
  void aWrongTypeWhereAnObjectIsExpected_namesTheField() {
    for (String filter : List.of("[1]", "\"year\"", "7")) {
      Answer a =
          post(
              "/v1/retrieval/search",
              "{\"corpus\": \"c1\", \"query\": \"q\", \"filter\": " + filter + "}");
      assertInvalid(a, "filter");
      assertTrue(message(a).startsWith("filter must be"), a::toString);
    }
    assertInvalid(post("/v1/retrieval/search", "[{\"corpus\": \"c1\"}]"), "$");
  }

  @Test
  void aBackupThatCannotBeWritten_isUnavailable_withFixedTextAndAReference() {
    Answer a = post("/v1/admin/backup", "{\"name\": \"nightly-1\"}");
    assertEquals(503, a.status(), a::toString);
    assertEquals("UNAVAILABLE", a.code(), a::toString);
    assertTrue(
        message(a).contains("could not be written") && message(a).contains("(reference "),
        a::toString);
    assertWrittenForClients(a);
  }

  @Test
  void anUnknownPath_isQuotedInTheAnswer_asTheClientSentIt() {
    for (String path :
        List.of("/Main.java", "/v1/retrieval/Main.java", "/v1/admin/IOException.md")) {
      Answer a = api.get(path).token(TestTokens.ADMIN).send();
      assertEquals(404, a.status(), a::toString);
      assertEquals("NOT_FOUND", a.code(), a::toString);
      assertTrue(message(a).startsWith("no endpoint GET '" + path + "'"), a::toString);
    }
  }

  @Test
  void hostileBodies_onEveryEndpoint_areAnsweredInWordsForClients() {
    List<String> bodies =
        new ArrayList<>(
            List.of(
                "{",
                "{\"a\"",
                "{\"a\":}",
                "{'a': 1}",
                "{\"a\": 1,}",
                "{\"a\": NaN}",
                "{\"a\": 01}",
                "{\"a\": 1, \"a\": 2}",
                "/* c */ {}",
                "{} // c",
                "[]",
                "1",
                "\"s\"",
                "null",
                "true",
                "{\"corpus\": \"c1\"}{\"corpus\": \"c1\"}",
                "{\"topK\": 1e999999}",
                "{\"topK\": " + "9".repeat(2000) + "}",
                "{\"corpus\": " + "[".repeat(5000) + "]".repeat(5000) + "}",
                "{\"corpus\": \"c1\", \"query\": {\"$ne\": 1}}",
                "{\"corpus\": [\"c1\"], \"query\": \"q\"}",
                "{\"corpus\": \"c1\", \"query\": \"q\", \"topK\": \"10\"}",
                "{\"corpus\": \"c1\", \"query\": \"q\", "
                    + "\"filter\": {\"year\": {\"gte\": []}}}",
                "{\"corpus\": \"c1\", \"operations\": {\"index\": 1}}",
                "{\"corpus\": \"c1\", \"source\": \"../../etc/passwd\", \"text\": \"x\"}",
                "{\"corpus\": \"c1\\u0000\"}",
                "{\"corpus\": \"\\ud800\"}",
                "{\"name\": \"../x\"}",
                "{\"name\": {}}",
                "{\"corpora\": \"c1\", \"name\": \"n\"}",
                "{\"input\": [1], \"retrieval\": \"x\"}",
                "{\"messages\": {}, \"threadId\": 1}",
                " ",
                "\t\n"));
    List<byte[]> raw = new ArrayList<>();
    bodies.forEach(b -> raw.add(b.getBytes(StandardCharsets.UTF_8)));
    raw.add(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'});
    raw.add(new byte[] {(byte) 0xFF, (byte) 0xFE, '{', 0, '}', 0});
    raw.add(
        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'});
    for (String endpoint : ENDPOINTS) {
      for (byte[] body : raw) {
        Answer a =
            api.post(endpoint)
                .token(TestTokens.ADMIN)
                .header("Content-Type", "application/json")
                .bytes(body)
                .send();
        // Refused, or (a source id that looks like a path is just an id) served: never a fault of
        // ours.
        assertTrue(
            a.status() < 500,
            () -> endpoint + " " + new String(body, StandardCharsets.UTF_8) + " -> " + a);
        assertWrittenForClients(a);
        // Written so at its source: the error writer's fallback (which swaps out a library's text)
        // would pass the check above by construction.
        assertFalse(
            message(a).startsWith("the request is not valid (reference ")
                || message(a).startsWith("the request was refused ("),
            () -> endpoint + " " + new String(body, StandardCharsets.UTF_8) + " -> " + a);
      }
    }
  }

  private static Answer post(String path, String json) {
    return api.post(path).token(TestTokens.ADMIN).json(json).send();
  }

  private static String message(Answer a) {
    return a.json().at("/error/message").asText();
  }

  private static void assertInvalid(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.json().at("/error/field").asText(), a::toString);
    assertWrittenForClients(a);
  }

  private static void assertWrittenForClients(Answer a) {
    ClientText.assertNoInternals(a.body(), a::toString);
    assertFalse(a.body().contains(dir.toString()), a::toString);
  }
}
