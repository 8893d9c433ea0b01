package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutations over HTTP against a server process: atomic batches, idempotency (also across a
 * restart), read-your-writes, pinned searches, a clean SIGTERM that keeps every acknowledged write,
 * and the data-folder lock. The restart tests run last, in order, on the same data folder.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MutationsOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @TempDir static Path dir;
  static Path data;
  static Path tokens;
  static ServerProcess server;
  static ApiClient api;

  @BeforeAll
  static void start() {
    data = dir.resolve("data");
    tokens = TestTokens.write(dir);
    server = ServerProcess.serve(data, tokens, null);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"m\"}"));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static long revision() {
    return ok(api.retrieval("corpora/read", T, "{\"corpus\": \"m\"}")).get("revision").asLong();
  }

  static Answer keyed(String endpoint, String key, String body) {
    return api.post("/v1/retrieval/" + endpoint)
        .token(T)
        .header("Idempotency-Key", key)
        .json(body)
        .send();
  }

  @Test
  @Order(1)
  void batch_appliesMixedOperationsAtOneRevision() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"m\", \"source\": \"old.md\", \"text\": \"old words\"}"));
    long before = revision();
    JsonNode b =
        ok(
            api.retrieval(
                "sources/batch",
                T,
                """
        {"corpus": "m", "operations": [
          {"index": {"source": "one.md", "text": "first text about apples", "title": "One"}},
          {"index": {"source": "two.md", "passages": [{"text": "second about pears"}, {"text": "more pears"}]}},
          {"delete": {"source": "old.md"}},
          {"delete": {"source": "never.md"}}]}"""));
    assertEquals(before + 1, b.get("revision").asLong());
    List<String> statuses = new ArrayList<>();
    for (JsonNode r : b.get("results")) {
      statuses.add(r.get("status").asText());
      assertEquals(b.get("revision"), r.get("revision"));
    }
    assertEquals(List.of("indexed", "indexed", "deleted", "absent"), statuses);
    JsonNode history =
        ok(api.retrieval("corpora/history", T, "{\"corpus\": \"m\", \"after\": " + before + "}"));
    assertEquals(3, history.get("entries").size(), history::toString);
  }

  @Test
  @Order(2)
  void batch_withAnInvalidOperation_namesItAndAppliesNothing() {
    long before = revision();
    Answer a =
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "m", "operations": [{"index": {"source": "x1.md", "text": "x"}},
          {"index": {"source": "x2.md", "text": "x", "metadata": {"k": {"nested": 1}}}}]}""");
    assertEquals(400, a.status(), a::toString);
    assertEquals("operations[1].metadata.k", a.field());
    assertEquals(before, revision());
  }

  @Test
  @Order(3)
  void batch_withAConflict_isRevisionConflictAndAppliesNothing() {
    long before = revision();
    Answer a =
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "m", "operations": [{"index": {"source": "y1.md", "text": "y"}},
          {"index": {"source": "one.md", "text": "changed", "expectedRevision": 1}}]}""");
    assertEquals(409, a.status(), a::toString);
    assertEquals("REVISION_CONFLICT", a.code());
    assertEquals(before, revision());
    assertEquals(
        404,
        api.retrieval("sources/read", T, "{\"corpus\": \"m\", \"source\": \"y1.md\"}").status());
  }

  @Test
  @Order(4)
  void expectedRevisionZero_meansMustNotExist() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"m\", \"source\": \"fresh.md\", \"text\": \"f\", \"expectedRevision\": 0}"));
    Answer again =
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"m\", \"source\": \"fresh.md\", \"text\": \"g\", \"expectedRevision\": 0}");
    assertEquals(409, again.status(), again::toString);
    assertEquals("REVISION_CONFLICT", again.code());
  }

  @Test
  @Order(5)
  void idempotentReplay_returnsTheSameReceipt() {
    String body = "{\"corpus\": \"m\", \"source\": \"idem.md\", \"text\": \"only once\"}";
    Answer first = keyed("sources/index", "key-1", body);
    long after = revision();
    // the same JSON value, keys reordered and spaced differently
    Answer second =
        keyed(
            "sources/index",
            "key-1",
            "{ \"text\":\"only once\",\"source\":\"idem.md\", \"corpus\":\"m\" }");
    assertEquals(200, second.status(), second::toString);
    assertEquals(first.json(), second.json());
    assertEquals("true", second.header("Idempotent-Replayed"));
    assertEquals(after, revision());
  }

  @Test
  @Order(6)
  void sameKeyDifferentBody_isKeyReused() {
    keyed("sources/index", "key-2", "{\"corpus\": \"m\", \"source\": \"k2.md\", \"text\": \"a\"}");
    Answer other =
        keyed(
            "sources/index",
            "key-2",
            "{\"corpus\": \"m\", \"source\": \"k2.md\", \"text\": \"b\"}");
    assertEquals(409, other.status(), other::toString);
    assertEquals("IDEMPOTENCY_KEY_REUSED", other.code());
  }

  @Test
  @Order(7)
  void refusedRequest_recordsNoKey() {
    Answer refused = keyed("sources/index", "key-3", "{\"corpus\": \"m\", \"source\": \"k3.md\"}");
    assertEquals(400, refused.status());
    Answer corrected =
        keyed(
            "sources/index",
            "key-3",
            "{\"corpus\": \"m\", \"source\": \"k3.md\", \"text\": \"ok\"}");
    assertEquals(200, corrected.status(), corrected::toString);
  }

  @Test
  @Order(8)
  void concurrentDuplicates_makeOneRevision() throws Exception {
    long before = revision();
    String body = "{\"corpus\": \"m\", \"source\": \"race.md\", \"text\": \"raced\"}";
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        answers.add(pool.submit(() -> keyed("sources/index", "race-key", body)));
      }
      Set<Long> revisions = new HashSet<>();
      for (Future<Answer> f : answers) {
        Answer a = f.get();
        if (a.status() == 200) {
          revisions.add(a.json().get("revision").asLong());
        } else {
          assertEquals("IDEMPOTENCY_IN_PROGRESS", a.code(), a::toString);
          assertTrue(a.json().at("/error/retryable").asBoolean());
        }
      }
      assertEquals(Set.of(before + 1), revisions);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(before + 1, revision());
  }

  @Test
  @Order(9)
  void receipt_isVisibleToTheNextSearch() {
    JsonNode r =
        ok(
            api.retrieval(
                "sources/index",
                T,
                "{\"corpus\": \"m\", \"source\": \"ryw.md\", \"text\": \"kumquat marmalade recipe\"}"));
    JsonNode s = ok(api.retrieval("search", T, "{\"corpus\": \"m\", \"query\": \"kumquat\"}"));
    assertTrue(s.get("revision").asLong() >= r.get("revision").asLong());
    assertEquals("ryw.md", s.at("/results/0/source").asText(), s::toString);
  }

  @Test
  @Order(10)
  void pinnedSearch_isTheSameEveryTime() {
    String pinnedQuery =
        "{\"corpus\": \"m\", \"query\": \"pears apples\", \"revision\": " + revision() + "}";
    JsonNode first = ok(api.retrieval("search", T, pinnedQuery));
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"m\", \"source\": \"later.md\", \"text\": \"pears pears apples\"}"));
    ok(api.retrieval("sources/delete", T, "{\"corpus\": \"m\", \"source\": \"two.md\"}"));
    for (int i = 0; i < 3; i++) {
      JsonNode again = ok(api.retrieval("search", T, pinnedQuery));
      assertEquals(first.get("results"), again.get("results"));
      assertEquals(first.get("revision"), again.get("revision"));
    }
    JsonNode latest =
        ok(api.retrieval("search", T, "{\"corpus\": \"m\", \"query\": \"pears apples\"}"));
    assertNotEquals(first.get("results"), latest.get("results"));
  }

  @Test
  @Order(20)
  void secondServer_onTheSameData_refusesToStart() {
    ServerProcess.Ended second =
        ServerProcess.run(
            List.of(
                "serve", "--data", data.toString(), "--port", "0", "--tokens", tokens.toString()));
    assertNotEquals(0, second.exitCode());
    assertTrue(second.stderr().contains("is in use by another Quarry process"), second.stderr());
  }

  @Test
  @Order(21)
  void sigterm_thenRestart_keepsEveryAcknowledgedWriteAndKey() {
    List<JsonNode> receipts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      receipts.add(
          ok(
              api.retrieval(
                  "sources/index",
                  T,
                  "{\"corpus\": \"m\", \"source\": \"durable-"
                      + i
                      + ".md\", \"text\": \"durable text "
                      + i
                      + "\"}")));
    }
    Answer keyedBefore =
        keyed(
            "sources/index",
            "key-restart",
            "{\"corpus\": \"m\", \"source\": \"kr.md\", \"text\": \"k\"}");
    long revisionBefore = revision();
    // 128 + SIGTERM: the JVM ran its shutdown hooks (drain, commit, close) and exited.
    assertEquals(143, server.terminate(), server::stderr);
    server = ServerProcess.serve(data, tokens, null);
    api = server.client();
    assertEquals(revisionBefore, revision());
    for (JsonNode r : receipts) {
      JsonNode s =
          ok(
              api.retrieval(
                  "sources/read", T, "{\"corpus\": \"m\", \"source\": " + r.get("source") + "}"));
      assertEquals(r.get("sourceRevision"), s.get("sourceRevision"));
      assertEquals(r.get("contentSha256"), s.get("contentSha256"));
    }
    Answer replay =
        keyed(
            "sources/index",
            "key-restart",
            "{\"corpus\": \"m\", \"source\": \"kr.md\", \"text\": \"k\"}");
    assertEquals(keyedBefore.json(), replay.json());
    assertEquals("true", replay.header("Idempotent-Replayed"));
    assertEquals(revisionBefore, revision());
  }

  @Test
  @Order(22)
  void sigterm_letsTheRequestInFlightFinish() throws Exception {
    String body =
        "{\"corpus\": \"m\", \"source\": \"in-flight.md\", \"text\": \"sent while stopping\"}";
    byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.net.URI uri = java.net.URI.create(server.url());
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      java.io.OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /v1/retrieval/sources/index HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + T
                  + "\r\nContent-Type: application/json\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: "
                  + bytes.length
                  + "\r\n\r\n")
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.flush();
      // Jetty answers "100 Continue" once the handler starts reading the body: the request is in
      // flight.
      java.io.InputStream in = socket.getInputStream();
      StringBuilder interim = new StringBuilder();
      while (!interim.toString().endsWith("\r\n\r\n")) {
        int c = in.read();
        assertTrue(c >= 0, "connection closed before 100 Continue: " + interim);
        interim.append((char) c);
      }
      assertTrue(interim.toString().startsWith("HTTP/1.1 100"), interim::toString);
      out.write(bytes, 0, 10);
      out.flush();
      server.signalTerm();
      // Draining has begun once new requests are refused (503) or no longer connect.
      boolean draining = false;
      for (int i = 0; i < 400 && !draining; i++) {
        try {
          draining = api.get("/healthz").send().status() == 503;
        } catch (RuntimeException refused) {
          draining = true;
        }
        if (!draining) {
          Thread.sleep(25);
        }
      }
      assertTrue(draining, "the server never started draining");
      out.write(bytes, 10, bytes.length - 10);
      out.flush();
      String response = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 200"), response);
      assertTrue(response.contains("\"status\":\"indexed\""), response);
    }
    assertEquals(143, server.terminate(), server::stderr);
    server = ServerProcess.serve(data, tokens, null);
    api = server.client();
    assertEquals(
        200,
        api.retrieval("sources/read", T, "{\"corpus\": \"m\", \"source\": \"in-flight.md\"}")
            .status());
  }

  @Test
  @Order(23)
  void bad_tokensFile_stopsStartupNamingTheProblem() throws Exception {
    Path bad = dir.resolve("bad-tokens.json");
    java.nio.file.Files.writeString(
        bad,
        """
        {"tokens": [{"subject": "a", "token": "t", "grants": [{"corpus": "c", "scopes": ["search", "admin"]}]}]}""");
    ServerProcess.Ended ended =
        ServerProcess.run(
            List.of(
                "serve",
                "--data",
                dir.resolve("other").toString(),
                "--port",
                "0",
                "--tokens",
                bad.toString()));
    assertNotEquals(0, ended.exitCode());
    assertTrue(
        ended.stderr().contains("tokens[0].grants[0].scopes[1]: unknown scope 'admin'"),
        ended.stderr());
  }
}
