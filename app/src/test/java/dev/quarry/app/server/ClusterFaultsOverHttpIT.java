package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenSearchNodes;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * A server whose corpora live on a real OpenSearch node, under faults and refusals: a node that
 * hangs (SIGSTOP) beside an address that takes connections and never answers, a cluster block, and
 * what the cluster store cannot do (backups), each answered as a client may read it: in time,
 * typed, without the cluster's own words, the cause in the server's log under the request's id.
 */
class ClusterFaultsOverHttpIT {
  static final String T = TestTokens.ADMIN;

  /** requestTimeoutSeconds of the server under test. */
  static final int TIMEOUT_SECONDS = 3;

  @TempDir static Path dir;
  static OpenSearchNodes nodes;
  static ServerSocket silent;
  static ServerProcess server;
  static ApiClient api;
  static String prefix;
  static String unavailable;

  @BeforeAll
  static void start() throws IOException {
    try {
      nodes = ClusterConfig.single();
    } catch (TestAbortedException e) {
      unavailable = e.getMessage();
      return;
    }
    // Takes connections (the kernel completes them) and never reads or answers: a node that hangs.
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    prefix = ClusterConfig.newPrefix("faults");
    Path backups = Files.createDirectories(dir.resolve("backups"));
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            """
        {"backup": {"directory": "%s"},
         "store": {"opensearch": {"urls": ["%s", "http://127.0.0.1:%d/"], "indexPrefix": "%s", "replicas": 0,
                                  "requestTimeoutSeconds": %d}}}"""
                .formatted(
                    backups.toString().replace("\\", "\\\\"),
                    nodes.urls().get(0),
                    silent.getLocalPort(),
                    prefix,
                    TIMEOUT_SECONDS));
    server = ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), config);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      text.append("Paragraph ").append(i).append(" of the handbook speaks of leave and travel. ");
    }
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"docs\", \"source\": \"handbook.md\", \"title\": \"Handbook\","
                + " \"text\": \""
                + text
                + "\", \"metadata\": {\"dept\": \"hr\"}}"));
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    if (silent != null) {
      silent.close();
    }
  }

  @BeforeEach
  void requireCluster() {
    Assumptions.assumeTrue(unavailable == null, unavailable);
  }

  /**
   * The node hangs and the other address never answers: each request is answered, a typed 503,
   * within requestTimeoutSeconds and a small margin, not after every attempt on every node with a
   * full timeout each (which took twice the nodes times the timeout).
   */
  @Test
  void aHangingCluster_isAnsweredWithinTheRequestTimeout() throws Exception {
    OpenSearchNodes.Node node = nodes.nodes().get(0);
    node.pause();
    try {
      for (String[] call :
          new String[][] {
            {"search", "{\"corpus\": \"docs\", \"query\": \"leave\"}"},
            {"sources/read", "{\"corpus\": \"docs\", \"source\": \"handbook.md\"}"},
            {
              "sources/index",
              "{\"corpus\": \"docs\", \"source\": \"b.md\", \"text\": \"travel rules\"}"
            },
            {"corpora/list", "{}"}
          }) {
        long start = System.nanoTime();
        Answer a = api.retrieval(call[0], T, call[1]);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(503, a.status(), call[0] + ": " + a.body());
        assertEquals("UNAVAILABLE", a.code(), a.body());
        assertTrue(a.json().path("error").path("retryable").asBoolean(), a.body());
        assertTrue(ms < TIMEOUT_SECONDS * 1000L + 1500, call[0] + " answered after " + ms + " ms");
        assertClientText(a);
      }
    } finally {
      node.resume();
    }
    // The node runs on: the corpus answers again (the index above may or may not have landed).
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Answer found;
    do {
      found = api.retrieval("search", T, "{\"corpus\": \"docs\", \"query\": \"leave\"}");
    } while (found.status() != 200 && System.nanoTime() < until);
    assertEquals(200, found.status(), found.body());
  }

  /**
   * A write the cluster refuses (the corpus index blocked, as OpenSearch does when a disk fills):
   * 503 with Quarry's words and a reference, never the cluster's error type, index, node or port;
   * the cluster's answer is in the log, on a line with that reference.
   */
  @Test
  void aRefusalByTheCluster_answersFixedText_andLogsTheCause() throws Exception {
    blocks("true");
    try {
      Answer a =
          api.retrieval(
              "sources/index",
              T,
              "{\"corpus\": \"docs\", \"source\": \"c.md\", \"text\": \"blocked\"}");
      assertEquals(503, a.status(), a.body());
      assertEquals("UNAVAILABLE", a.code(), a.body());
      assertClientText(a);
      String id = a.header("X-Request-Id");
      String message = a.json().path("error").path("message").asText();
      assertTrue(message.contains("(reference " + id + ")"), message);
      String log = awaitLogLine(id);
      assertTrue(log.contains("cluster_block_exception"), "the cause is in the log: " + log);
    } finally {
      blocks("null");
    }
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"docs\", \"source\": \"c.md\", \"text\": \"unblocked\"}"));
  }

  /**
   * sources/chunks reads the chunks back from the cluster: every page, in order, with their
   * provenance.
   */
  @Test
  void sourcesChunks_readsTheChunksBack() {
    JsonNode source =
        ok(api.retrieval("sources/read", T, "{\"corpus\": \"docs\", \"source\": \"handbook.md\"}"));
    int count = source.path("source").path("chunks").asInt(source.path("chunks").asInt());
    assertTrue(count > 2, "several chunks: " + source);
    StringBuilder all = new StringBuilder();
    int seen = 0;
    Integer after = null;
    do {
      JsonNode page =
          ok(
              api.retrieval(
                  "sources/chunks",
                  T,
                  "{\"corpus\": \"docs\", \"source\": \"handbook.md\", \"limit\": 2"
                      + (after == null ? "" : ", \"after\": " + after)
                      + "}"));
      assertEquals("Handbook", page.path("title").asText(), page.toString());
      JsonNode state =
          source.has("source") && source.get("source").isObject() ? source.get("source") : source;
      for (String same : List.of("sourceRevision", "contentSha256")) {
        assertEquals(state.path(same), page.path(same), same + ": " + page);
      }
      for (JsonNode c : page.path("chunks")) {
        assertEquals(seen++, c.path("chunk").asInt(), page.toString());
        assertEquals("hr", c.path("metadata").path("dept").asText(), c.toString());
        assertTrue(
            c.path("offsets").path("end").asInt() > c.path("offsets").path("start").asInt(),
            c.toString());
        all.append(c.path("text").asText());
      }
      after = page.hasNonNull("nextAfter") ? page.get("nextAfter").asInt() : null;
    } while (after != null);
    assertEquals(count, seen);
    assertTrue(all.toString().contains("Paragraph 119 of the handbook"), all.toString());
    Answer missing =
        api.retrieval("sources/chunks", T, "{\"corpus\": \"docs\", \"source\": \"nope.md\"}");
    assertEquals("SOURCE_NOT_FOUND", missing.code(), missing.body());
  }

  /** A backup is refused for good, pointing at the cluster's own snapshots: never "try again". */
  @Test
  void aBackup_isRefusedForGood_pointingToSnapshots() {
    Answer a = api.post("/v1/admin/backup").token(T).json("{\"name\": \"nightly\"}").send();
    assertEquals(400, a.status(), a.body());
    assertEquals("BACKUP_UNAVAILABLE", a.code(), a.body());
    assertFalse(a.json().path("error").path("retryable").asBoolean(), a.body());
    assertTrue(a.json().path("error").path("message").asText().contains("snapshots"), a.body());
  }

  /** Nothing of the cluster's own: no exception type, index, node name or port. */
  private static void assertClientText(Answer a) {
    String message = a.json().path("error").path("message").asText();
    for (String leak :
        List.of(
            "exception",
            "_exception",
            prefix,
            "corpus-",
            nodes.nodes().get(0).name(),
            Integer.toString(nodes.urls().get(0).getPort()),
            Integer.toString(silent.getLocalPort()),
            "127.0.0.1",
            "HTTP ",
            "_doc",
            "_search",
            "_bulk")) {
      assertFalse(message.contains(leak), "'" + leak + "' in " + message);
    }
  }

  /**
   * Sets (or with {@code null} clears) the write block on this test's corpus indexes, on the node
   * itself.
   */
  private static void blocks(String value) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        nodes.urls().get(0).resolve("/" + prefix + "-corpus-*/_settings"))
                    .header("Content-Type", "application/json")
                    .PUT(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"index.blocks.read_only_allow_delete\": " + value + "}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
  }

  /**
   * The server's log line naming request {@code id} and what follows it (the cause), once written.
   */
  private static String awaitLogLine(String id) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      String log = server.stderr();
      int at = log.indexOf(id);
      if (at >= 0 && log.indexOf("cluster_block_exception", at) >= 0) {
        return log.substring(at, Math.min(log.length(), at + 2000));
      }
      if (System.nanoTime() > until) {
        return at < 0 ? "(no line names " + id + ")\n" + log : log.substring(at);
      }
      Thread.sleep(100);
    }
  }
}
