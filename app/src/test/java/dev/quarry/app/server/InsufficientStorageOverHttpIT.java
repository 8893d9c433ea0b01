package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storage.minFreeDiskMiB} set above any disk's free space: writes that add data are refused
 * with {@code 507 INSUFFICIENT_STORAGE} (retryable) before any work, while searches, reads and
 * deletions go on, and grants are still decided first.
 */
class InsufficientStorageOverHttpIT {
  @TempDir Path dir;

  @Test
  void belowTheFloorWritesAreRefusedAndSearchesAndDeletesGoOn() throws Exception {
    Path data = dir.resolve("data");
    Path tokens = TestTokens.write(dir);
    try (ServerProcess server = ServerProcess.serve(data, tokens, null)) {
      ApiClient api = server.client();
      assertEquals(
          ServerConfig.DEFAULT_WRITE_MIN_FREE_DISK_MIB,
          advertisedFloor(api),
          "the default floor is advertised");
      ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"));
      for (String s : new String[] {"a", "b"}) {
        ApiClient.ok(
            api.retrieval(
                "sources/index",
                TestTokens.ADMIN,
                "{\"corpus\": \"c1\", \"source\": \""
                    + s
                    + "\", \"text\": \"storage floor words\"}"));
      }
    }
    // More free space than any disk has: every write that adds data is below the floor.
    Path config =
        Files.writeString(
            dir.resolve("config.json"), "{\"storage\": {\"minFreeDiskMiB\": 1099511627776}}");
    try (ServerProcess server = ServerProcess.serve(data, tokens, config)) {
      ApiClient api = server.client();
      assertEquals(
          1099511627776L, advertisedFloor(api), "clients can see the floor that refuses them");
      Answer index =
          api.retrieval(
              "sources/index",
              TestTokens.ADMIN,
              "{\"corpus\": \"c1\", \"source\": \"c\", \"text\": \"more words\"}");
      assertRefused(index);
      assertRefused(
          api.retrieval(
              "sources/batch",
              TestTokens.ADMIN,
              "{\"corpus\": \"c1\", \"operations\": [{\"index\": {\"source\": \"c\", \"text\": \"t\"}}]}"));
      assertRefused(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c9\"}"));
      assertRefused(
          Upload.send(
              api,
              TestTokens.ADMIN,
              "{\"corpus\": \"c1\", \"source\": \"d.txt\"}",
              "d.txt",
              "an uploaded document".getBytes(StandardCharsets.UTF_8)));

      // Grants and existence come first: a refusal never tells what lies outside them.
      assertEquals(
          403,
          api.retrieval(
                  "sources/index",
                  TestTokens.C2_ONLY,
                  "{\"corpus\": \"c1\", \"source\": \"c\", \"text\": \"t\"}")
              .status());
      assertEquals(
          404,
          api.retrieval(
                  "sources/index",
                  TestTokens.ADMIN,
                  "{\"corpus\": \"nope\", \"source\": \"c\", \"text\": \"t\"}")
              .status());

      assertEquals(
          2,
          ApiClient.ok(
                  api.retrieval(
                      "search", TestTokens.ADMIN, "{\"corpus\": \"c1\", \"query\": \"storage\"}"))
              .get("results")
              .size(),
          "searches go on");
      assertEquals(
          "deleted",
          ApiClient.ok(
                  api.retrieval(
                      "sources/delete",
                      TestTokens.ADMIN,
                      "{\"corpus\": \"c1\", \"source\": \"a\"}"))
              .get("status")
              .asText(),
          "deletions free space and go on");
      assertEquals(
          1,
          ApiClient.ok(api.retrieval("corpora/read", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"))
              .get("sources")
              .asLong(),
          "nothing refused was written");
    }
  }

  @Test
  void theFloorIsCheckedWhenTheConfigIsRead() {
    assertEquals(
        0,
        ServerConfig.parse(
                "{\"storage\": {\"minFreeDiskMiB\": 0}}".getBytes(StandardCharsets.UTF_8))
            .writeMinFreeDiskMiB());
    assertEquals(
        ServerConfig.DEFAULT_WRITE_MIN_FREE_DISK_MIB, ServerConfig.DEFAULT.writeMinFreeDiskMiB());
    IllegalArgumentException negative =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                ServerConfig.parse(
                    "{\"storage\": {\"minFreeDiskMiB\": -1}}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(negative.getMessage().contains("storage.minFreeDiskMiB"), negative.getMessage());
  }

  @Test
  void theProtocolClaimsNoFloorWhereNoneGuardsTheWrites() {
    // Setting storage.minFreeDiskMiB beside a cluster is refused (StoreConfigIT); the default
    // floor the settings still carry must not be claimed either.
    ServerConfig cluster =
        ServerConfig.parse(
            """
        {"store": {"opensearch": {"urls": ["http://127.0.0.1:9200"]}}}"""
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(ServerConfig.DEFAULT_WRITE_MIN_FREE_DISK_MIB, cluster.writeMinFreeDiskMiB());
    // What the server writes under server.store: no admission guards a cluster's writes, so no
    // floor is claimed.
    com.fasterxml.jackson.databind.JsonNode store =
        StoreConfig.describe(
            cluster, true, false, new com.fasterxml.jackson.databind.ObjectMapper());
    assertEquals("opensearch", store.get("kind").asText());
    assertTrue(store.path("minFreeDiskMiB").isMissingNode(), store::toString);
    // Corpora handed to the server already open were built without its floor.
    assertTrue(
        StoreConfig.describe(
                ServerConfig.DEFAULT,
                false,
                true,
                new com.fasterxml.jackson.databind.ObjectMapper())
            .path("minFreeDiskMiB")
            .isMissingNode());
  }

  /** {@code server.store.minFreeDiskMiB} of {@code GET /v1/protocol}. */
  private static long advertisedFloor(ApiClient api) {
    com.fasterxml.jackson.databind.JsonNode floor =
        ApiClient.ok(api.get("/v1/protocol").token(TestTokens.C2_ONLY).send())
            .at("/server/store/minFreeDiskMiB");
    assertTrue(floor.isIntegralNumber(), floor::toString);
    return floor.asLong();
  }

  private static void assertRefused(Answer answer) {
    assertEquals(507, answer.status(), answer::toString);
    assertEquals("INSUFFICIENT_STORAGE", answer.code(), answer::toString);
    assertTrue(answer.json().at("/error/retryable").asBoolean(), answer::toString);
    assertTrue(
        answer.json().at("/error/message").asText().contains("storage.minFreeDiskMiB"),
        answer::toString);
  }
}
