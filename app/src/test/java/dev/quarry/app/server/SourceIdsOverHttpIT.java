package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Source ids over HTTP: a source is never created under an id holding a bidirectional control
 * (which would make {@code x} + U+202E + {@code gnp.exe} read as {@code xexe.png}), and the refusal
 * names the field; reading and deleting by such an id are not refused by that rule, so a source
 * stored before it stays reachable.
 */
class SourceIdsOverHttpIT {
  static final String T = TestTokens.ADMIN;

  /** The id as JSON escapes it, so the test's source holds no invisible character. */
  static final String SPOOF = "x\\u202egnp.exe";

  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTestTokens().corpus("c1");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  static void assertRefused(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
    assertFalse(a.json().path("error").path("retryable").asBoolean(), a::toString);
  }

  static long revision() {
    return ok(api.retrieval("corpora/read", T, "{\"corpus\": \"c1\"}")).path("revision").asLong();
  }

  @Test
  void index_underAnIdWithABidiOverride_isRefusedNamingSource() {
    long before = revision();
    assertRefused(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"c1\", \"source\": \"" + SPOOF + "\", \"text\": \"hello\"}"),
        "source");
    assertRefused(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"c1\", \"source\": \"a\\u2066b\\u2069.md\", \"text\": \"hello\"}"),
        "source");
    assertEquals(before, revision(), "nothing was written");
  }

  @Test
  void batch_withSuchAnId_namesTheOperation_andAppliesNothing() {
    long before = revision();
    assertRefused(
        api.retrieval(
            "sources/batch",
            T,
            "{\"corpus\": \"c1\", \"operations\": ["
                + "{\"index\": {\"source\": \"fine.md\", \"text\": \"x\"}},"
                + "{\"index\": {\"source\": \""
                + SPOOF
                + "\", \"text\": \"x\"}}]}"),
        "operations[1].source");
    assertEquals(before, revision());
  }

  @Test
  void ingestAndJobFiles_underSuchAnId_areRefusedNamingTheField() {
    long before = revision();
    assertRefused(
        IngestOverHttpIT.ingest(api, "c1", SPOOF, "hello".getBytes(StandardCharsets.UTF_8)),
        "source");
    assertRefused(
        JobsOverHttpIT.submit(
            api,
            T,
            "c1",
            List.of("fine.txt", SPOOF),
            List.of("a".getBytes(StandardCharsets.UTF_8), "b".getBytes(StandardCharsets.UTF_8))),
        "files[1].source");
    assertEquals(before, revision());
  }

  @Test
  void readAndDelete_bySuchAnId_areNotRefusedByTheRule() {
    Answer read =
        api.retrieval("sources/read", T, "{\"corpus\": \"c1\", \"source\": \"" + SPOOF + "\"}");
    assertEquals("SOURCE_NOT_FOUND", read.code(), read::toString);
    assertEquals(
        "absent",
        ok(api.retrieval(
                "sources/delete", T, "{\"corpus\": \"c1\", \"source\": \"" + SPOOF + "\"}"))
            .path("status")
            .asText());
  }

  @Test
  void rightToLeftText_inAnId_isStillAccepted() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"c1\", \"source\": \"\\u05e9\\u05dc\\u05d5\\u05dd.md\", \"text\": \"shalom\"}"));
    ok(
        api.retrieval(
            "sources/delete",
            T,
            "{\"corpus\": \"c1\", \"source\": \"\\u05e9\\u05dc\\u05d5\\u05dd.md\"}"));
  }
}
