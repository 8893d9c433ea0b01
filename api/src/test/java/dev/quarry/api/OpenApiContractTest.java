package dev.quarry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ObservedProperties;
import dev.quarry.testing.OpenApiContract;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checker every test's answers go through really refuses what the document does not say. */
class OpenApiContractTest {
  static final OpenApiContract CONTRACT = OpenApiContract.get();
  static final String RECEIPT =
      """
      {"corpus": "c", "corpusId": "k", "source": "s", "revision": 3, "sourceRevision": 3, "status": "indexed",
       "contentSha256": "%s", "chunks": 1%s}""";
  static final String SHA = "a".repeat(64);

  static JsonNode json(String s) throws Exception {
    return ApiClient.JSON.readTree(s);
  }

  @Test
  void aDocumentedAnswerPasses() throws Exception {
    CONTRACT.check(
        "POST",
        "/v1/retrieval/sources/index",
        200,
        "application/json",
        json(RECEIPT.formatted(SHA, "")));
    CONTRACT.check(
        "POST",
        "/v1/retrieval/search",
        403,
        "application/json",
        json("{\"error\": {\"code\": \"FORBIDDEN\", \"message\": \"no\", \"retryable\": false}}"));
  }

  @Test
  void aFieldTheDocumentLacks_fails() throws Exception {
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                CONTRACT.check(
                    "POST",
                    "/v1/retrieval/sources/index",
                    200,
                    "application/json",
                    json(RECEIPT.formatted(SHA, ", \"surprise\": 1"))));
    assertTrue(e.getMessage().contains("surprise"), e.getMessage());
  }

  @Test
  void aMissingRequiredField_aWrongTypeAndAnUndocumentedCode_fail() throws Exception {
    assertThrows(
        AssertionError.class,
        () ->
            CONTRACT.check(
                "POST",
                "/v1/retrieval/sources/index",
                200,
                "application/json",
                json("{\"corpus\": \"c\"}")));
    assertThrows(
        AssertionError.class,
        () ->
            CONTRACT.check(
                "POST",
                "/v1/retrieval/sources/index",
                200,
                "application/json",
                json(RECEIPT.formatted("not-hex", ""))));
    assertThrows(
        AssertionError.class,
        () ->
            CONTRACT.check(
                "POST",
                "/v1/nowhere",
                404,
                "application/json",
                json(
                    "{\"error\": {\"code\": \"NO_SUCH_CODE\", \"message\": \"m\", \"retryable\": false}}")));
  }

  @Test
  void nestedObjectsAreClosedToo() throws Exception {
    String hit =
        "{\"source\": \"s\", \"sourceRevision\": 1, \"chunk\": 0, \"score\": 1.5, \"text\": \"t\","
            + " \"mediaType\": \"text/plain\", \"offsets\": {\"start\": 0, \"end\": 1, \"extra\": 2}, \"metadata\": {}}";
    assertThrows(
        AssertionError.class,
        () ->
            CONTRACT.check(
                "POST",
                "/v1/retrieval/search",
                200,
                "application/json",
                json(
                    "{\"corpus\": \"c\", \"corpusId\": \"k\", \"revision\": 1, \"tookMs\": 0, \"results\": ["
                        + hit
                        + "]}")));
  }

  @Test
  void theObserverIsToldTheDocumentedPropertiesAnAnswerCarried() throws Exception {
    ObservedProperties seen = new ObservedProperties();
    CONTRACT.check(
        "POST",
        "/v1/retrieval/sources/delete",
        200,
        "application/json",
        json(
            "{\"corpus\": \"c\","
                + " \"corpusId\": \"k\", \"source\": \"s\", \"revision\": 3, \"sourceRevision\": 3, \"status\": \"deleted\"}"),
        seen);
    assertTrue(seen.has("Receipt status"));
    assertFalse(seen.has("Receipt chunks"), "absent from the answer");
    CONTRACT.checkEvents(
        "POST",
        "/v1/agui/retrieval",
        200,
        "text/event-stream",
        "data: {\"type\": \"RUN_STARTED\","
            + " \"timestamp\": 1, \"threadId\": \"t\", \"runId\": \"r\", \"metadata\": {\"quarryRunId\": \"q\"}}\n\n",
        seen);
    assertTrue(seen.has("AguiEvent oneOf[RUN_STARTED].metadata.quarryRunId"));
    assertFalse(seen.has("AguiEvent oneOf[STEP_STARTED].type"), "a branch the event did not take");
    assertTrue(
        CONTRACT
            .responseProperties()
            .containsAll(
                Set.of(
                    "Receipt chunks",
                    "Hit snippet.html",
                    "Warnings [].pages",
                    "AguiEvent oneOf[STEP_STARTED].type",
                    "Protocol server.store.minFreeDiskMiB")));
    assertFalse(CONTRACT.responseProperties().contains("SearchRequest query"), "a request schema");
    assertEquals(
        Set.of("Receipt chunks"),
        seen.missing(
            Set.of("Receipt status", "Receipt chunks", "Receipt source"), Set.of("Receipt source")),
        "what no answer carried, but for the exempt");
  }
}
