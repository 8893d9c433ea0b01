package dev.quarry.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.routes.Responses;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.corpora.jobs.JobSettings;
import dev.quarry.extractors.Extractors;
import io.javalin.Javalin;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenAI's vector stores and files API over real HTTP on loopback, real corpora on disk, real
 * ingestion jobs and a real extraction pool: what a file-search application does, the shapes the
 * SDKs read, and the refusals they turn into their error classes.
 */
class OpenAiApiTest {
  static final String ADMIN = "admin-token";
  static final String READER = "reader-token";
  static final String WRITER = "writer-token";
  static final long MAX_UPLOAD = 64 * 1024;

  /** Bounds a hang; never a measure of speed. */
  static final long WAIT_MILLIS = 120_000;

  static final Path FIXTURES = Path.of("fixtures");

  static Extractors extractors;
  static final ObjectMapper JSON = new ObjectMapper();
  final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path dir;
  Corpora corpora;
  IngestJobs jobs;
  Javalin app;
  String base;

  /** The server's tokens: a test may add one for a store it made. */
  final Map<String, Access> tokens = new ConcurrentHashMap<>();

  /** The stores the reader may search: set before the server starts. */
  String readable = "vs_readable";

  @BeforeAll
  static void startExtractors() {
    extractors = Extractors.builder().workers(1).build();
  }

  @AfterAll
  static void stopExtractors() {
    extractors.close();
  }

  @BeforeEach
  void start() {
    Path data = dir.resolve("data");
    corpora = Corpora.builder().dataDir(data).extractors(extractors).build();
    // One runner: a held file holds the job's others in the queue.
    JobSettings d = JobSettings.DEFAULT;
    jobs =
        IngestJobs.open(
            data,
            holding(corpora),
            new JobSettings(
                d.maxFilesPerJob(),
                d.maxBytesPerJob(),
                d.maxActiveJobs(),
                d.maxQueuedFiles(),
                d.maxQueuedBytes(),
                d.retention(),
                d.openIdleTimeout(),
                1));
    tokens.put(
        ADMIN, new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class)))));
    tokens.put(
        WRITER,
        new Access(
            "writer", List.of(new Grant("vs_*", null, EnumSet.of(Scope.SEARCH, Scope.INDEX)))));
    tokens.put(
        READER, new Access("reader", List.of(new Grant(readable, null, EnumSet.of(Scope.SEARCH)))));
    OpenAiPlugin plugin =
        new OpenAiPlugin(
            c ->
                c.corpora(corpora)
                    .jobs(jobs)
                    .authenticator(t -> Optional.ofNullable(tokens.get(t)))
                    .folder(data.resolve("openai"))
                    .limits(MAX_UPLOAD, 1 << 20));
    app =
        Javalin.create(
                c -> {
                  c.startup.showJavalinBanner = false;
                  c.registerPlugin(plugin);
                  // As the standalone server does: a host's own error page for what no handler
                  // answered.
                  for (int status : new int[] {400, 403, 404, 413}) {
                    c.routes.error(
                        status,
                        ctx -> {
                          if (!Responses.answered(ctx)) {
                            ctx.result("host error page");
                          }
                        });
                  }
                })
            .start("127.0.0.1", 0);
    base = "http://127.0.0.1:" + app.port() + OpenAiPlugin.PREFIX;
  }

  @AfterEach
  void stop() throws Exception {
    app.stop();
    jobs.close();
    corpora.close();
  }

  // ----- helpers

  /**
   * While set, each ingestion of the jobs waits for it: files held in extraction, so a cancel meets
   * them.
   */
  volatile CountDownLatch hold;

  /** {@code real}, whose {@code ingest} waits for {@link #hold} while it is set. */
  Corpora holding(Corpora real) {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) -> {
              CountDownLatch latch = hold;
              if (method.getName().equals("ingest") && latch != null) {
                assertTrue(
                    latch.await(WAIT_MILLIS, TimeUnit.MILLISECONDS),
                    "the test never released the ingestion");
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  record Answer(int status, JsonNode body, HttpResponse<byte[]> raw) {
    JsonNode error() {
      return body.get("error");
    }
  }

  Answer send(String token, String method, String path, String json) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    b.method(
        method,
        json == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      b.header("Content-Type", "application/json");
    }
    return answer(http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray()));
  }

  static Answer answer(HttpResponse<byte[]> r) throws Exception {
    String type = r.headers().firstValue("Content-Type").orElse("");
    JsonNode body = type.startsWith("application/json") ? JSON.readTree(r.body()) : null;
    return new Answer(r.statusCode(), body, r);
  }

  Answer ok(String token, String method, String path, String json) throws Exception {
    Answer a = send(token, method, path, json);
    assertEquals(200, a.status(), () -> method + " " + path + ": " + a.body());
    return a;
  }

  Answer upload(String token, String filename, byte[] bytes, String purpose) throws Exception {
    String boundary = "b0undary" + System.nanoTime();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (purpose != null) {
      out.writeBytes(
          ("--"
                  + boundary
                  + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n"
                  + purpose
                  + "\r\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    out.writeBytes(
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + filename
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    out.writeBytes(bytes);
    out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/files"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray()))
            .build();
    return answer(http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
  }

  String uploadFixture(String token, String name) throws Exception {
    Answer a = upload(token, name, Files.readAllBytes(FIXTURES.resolve(name)), "assistants");
    assertEquals(200, a.status(), () -> a.body().toString());
    return a.body().get("id").asText();
  }

  JsonNode awaitBatch(String token, String store, String batch) throws Exception {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (true) {
      JsonNode b =
          ok(token, "GET", "/vector_stores/" + store + "/file_batches/" + batch, null).body();
      if (!b.get("status").asText().equals("in_progress")) {
        return b;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the batch did not end: " + b);
      Thread.sleep(50);
    }
  }

  /**
   * A store holding the handbook PDF and the remote-work Markdown, both indexed, with attributes.
   */
  record Loaded(String store, String pdf, String md, String batch) {}

  Loaded load(String token, String name) throws Exception {
    String pdf = uploadFixture(token, "handbook.pdf");
    String md = uploadFixture(token, "remote-work.md");
    String store =
        ok(
                token,
                "POST",
                "/vector_stores",
                "{\"name\": \"" + name + "\", \"metadata\": {\"team\": \"hr\"}}")
            .body()
            .get("id")
            .asText();
    JsonNode batch =
        ok(
                token,
                "POST",
                "/vector_stores/" + store + "/file_batches",
                """
        {"files": [{"file_id": "%s", "attributes": {"kind": "pdf", "year": 2024}},
                   {"file_id": "%s", "attributes": {"kind": "markdown", "year": 2025, "draft": false}}]}
        """
                    .formatted(pdf, md))
            .body();
    assertEquals("vector_store.files_batch", batch.get("object").asText());
    assertEquals(2, batch.get("file_counts").get("total").asInt());
    JsonNode done = awaitBatch(token, store, batch.get("id").asText());
    assertEquals("completed", done.get("status").asText(), done.toString());
    assertEquals(2, done.get("file_counts").get("completed").asInt(), done.toString());
    return new Loaded(store, pdf, md, batch.get("id").asText());
  }

  // ----- the application's path

  @Test
  void fileSearch_uploadAttachSearch_answersWithTheFilesTextAndPages() throws Exception {
    Loaded l = load(ADMIN, "Handbook");
    JsonNode store = ok(ADMIN, "GET", "/vector_stores/" + l.store(), null).body();
    assertEquals("vector_store", store.get("object").asText());
    assertEquals("Handbook", store.get("name").asText());
    assertEquals("hr", store.get("metadata").get("team").asText());
    assertEquals(2, store.get("file_counts").get("completed").asInt());
    assertEquals("completed", store.get("status").asText());
    assertTrue(store.get("usage_bytes").asLong() > 0);

    JsonNode page =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + l.store() + "/search",
                "{\"query\": \"how long is parental leave\", \"max_num_results\": 3}")
            .body();
    assertEquals("vector_store.search_results.page", page.get("object").asText());
    assertEquals("how long is parental leave", page.get("search_query").get(0).asText());
    JsonNode first = page.get("data").get(0);
    assertEquals(l.pdf(), first.get("file_id").asText());
    assertEquals("handbook.pdf", first.get("filename").asText());
    assertEquals("pdf", first.get("attributes").get("kind").asText());
    assertEquals(2024, first.get("attributes").get("year").asInt());
    assertEquals("text", first.get("content").get(0).get("type").asText());
    assertTrue(
        first.get("content").get(0).get("text").asText().contains("Parental leave is 20 weeks"),
        first.toString());
    assertEquals(1, first.get("quarry").get("pages").get("from").asInt(), first.toString());
    assertTrue(page.get("quarry").get("revision").asLong() >= 2);

    // Filters on attributes: the same words, only the Markdown file.
    JsonNode filtered =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + l.store() + "/search",
                """
        {"query": ["remote", "work"], "filters": {"type": "and", "filters": [
          {"key": "kind", "type": "eq", "value": "markdown"}, {"key": "year", "type": "gte", "value": 2025}]}}
        """)
            .body();
    assertTrue(filtered.get("data").size() > 0, filtered.toString());
    for (JsonNode hit : filtered.get("data")) {
      assertEquals(l.md(), hit.get("file_id").asText());
      assertEquals("remote-work.md", hit.get("filename").asText());
    }
    JsonNode none =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + l.store() + "/search",
                "{\"query\": \"parental leave\", \"filters\": {\"key\": \"kind\", \"type\": \"nin\", \"value\": [\"pdf\", \"markdown\"]}}")
            .body();
    assertEquals(0, none.get("data").size(), none.toString());

    // The files of the store, their content, and deletion.
    JsonNode files =
        ok(ADMIN, "GET", "/vector_stores/" + l.store() + "/files?order=asc", null).body();
    assertEquals("list", files.get("object").asText());
    assertEquals(2, files.get("data").size());
    assertEquals("completed", files.get("data").get(0).get("status").asText());
    JsonNode content =
        ok(ADMIN, "GET", "/vector_stores/" + l.store() + "/files/" + l.md() + "/content", null)
            .body();
    assertTrue(
        content.get("data").get(0).get("text").asText().contains("Employees may work remotely"),
        content.toString());
    ok(ADMIN, "DELETE", "/vector_stores/" + l.store() + "/files/" + l.pdf(), null);
    JsonNode after =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + l.store() + "/search",
                "{\"query\": \"parental leave\"}")
            .body();
    for (JsonNode hit : after.get("data")) {
      assertNotEquals(l.pdf(), hit.get("file_id").asText());
    }
    assertEquals(
        404,
        send(ADMIN, "GET", "/vector_stores/" + l.store() + "/files/" + l.pdf(), null).status());
    // The uploaded file stays until it is deleted itself; its bytes come back as sent.
    Answer bytes = send(ADMIN, "GET", "/files/" + l.pdf() + "/content", null);
    assertEquals(200, bytes.status());
    assertEquals(Files.size(FIXTURES.resolve("handbook.pdf")), bytes.raw().body().length);
    JsonNode deleted = ok(ADMIN, "DELETE", "/vector_stores/" + l.store(), null).body();
    assertTrue(deleted.get("deleted").asBoolean());
    assertEquals(404, send(ADMIN, "GET", "/vector_stores/" + l.store(), null).status());
  }

  @Test
  void searchResults_carryTheSectionLanguageAndTableOfQuarrysHits() throws Exception {
    Answer file =
        upload(
            ADMIN,
            "tides.md",
            ("# Harbour\n\nThe harbour master keeps the logbook.\n\n## Tides\n\n"
                    + "| Port | High tide |\n|---|---|\n| Bergen | 06:40 |\n| Oslo | 07:15 |\n")
                .getBytes(StandardCharsets.UTF_8),
            "assistants");
    assertEquals(200, file.status(), () -> file.body().toString());
    String store =
        ok(ADMIN, "POST", "/vector_stores", "{\"name\": \"Tides\"}").body().get("id").asText();
    JsonNode batch =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + store + "/file_batches",
                "{\"file_ids\": [\"" + file.body().get("id").asText() + "\"]}")
            .body();
    JsonNode done = awaitBatch(ADMIN, store, batch.get("id").asText());
    assertEquals("completed", done.get("status").asText(), done.toString());

    JsonNode row =
        ok(ADMIN, "POST", "/vector_stores/" + store + "/search", "{\"query\": \"Bergen\"}")
            .body()
            .at("/data/0/quarry");
    assertEquals(JSON.readTree("[\"Harbour\", \"Tides\"]"), row.get("section"), row::toString);
    assertEquals("english", row.path("language").asText(), row::toString);
    assertEquals(JSON.readTree("{\"index\": 0, \"rows\": [1, 2]}"), row.get("table"));
    JsonNode prose =
        ok(ADMIN, "POST", "/vector_stores/" + store + "/search", "{\"query\": \"logbook\"}")
            .body()
            .at("/data/0/quarry");
    assertEquals(JSON.readTree("[\"Harbour\"]"), prose.get("section"), prose::toString);
    assertEquals("english", prose.path("language").asText());
    assertFalse(prose.has("table"), prose::toString);
  }

  @Test
  void updateAttributes_ingestsTheFileAgain_andFiltersSeeTheNewValues() throws Exception {
    Loaded l = load(ADMIN, "Attributes");
    String path = "/vector_stores/" + l.store() + "/files/" + l.md();
    JsonNode updated =
        ok(ADMIN, "POST", path, "{\"attributes\": {\"kind\": \"note\", \"reviewed\": true}}")
            .body();
    assertEquals("note", updated.get("attributes").get("kind").asText());
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (!ok(ADMIN, "GET", path, null).body().get("status").asText().equals("completed")) {
      assertTrue(System.currentTimeMillis() < deadline);
      Thread.sleep(50);
    }
    JsonNode hits =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + l.store() + "/search",
                "{\"query\": \"remote\", \"filters\": {\"key\": \"reviewed\", \"type\": \"eq\", \"value\": true}}")
            .body();
    assertTrue(hits.get("data").size() > 0, hits.toString());
    assertEquals(l.md(), hits.get("data").get(0).get("file_id").asText());
    assertEquals("note", hits.get("data").get(0).get("attributes").get("kind").asText());
    assertEquals(400, send(ADMIN, "POST", path, "{}").status(), "attributes is required");
  }

  @Test
  void singleAttach_statusComesFromTheJob_andAFailedFileCarriesItsError() throws Exception {
    String store = ok(ADMIN, "POST", "/vector_stores", "{}").body().get("id").asText();
    Answer junk =
        upload(ADMIN, "noise.bin", new byte[] {0, 1, 2, 3, (byte) 0xff, 0, 7}, "assistants");
    String bad = junk.body().get("id").asText();
    JsonNode attached =
        ok(ADMIN, "POST", "/vector_stores/" + store + "/files", "{\"file_id\": \"" + bad + "\"}")
            .body();
    assertEquals("vector_store.file", attached.get("object").asText());
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    JsonNode f;
    do {
      f = ok(ADMIN, "GET", "/vector_stores/" + store + "/files/" + bad, null).body();
      assertTrue(System.currentTimeMillis() < deadline);
    } while (f.get("status").asText().equals("in_progress"));
    assertEquals("failed", f.get("status").asText());
    assertEquals("unsupported_file", f.get("last_error").get("code").asText(), f.toString());
    JsonNode counts = ok(ADMIN, "GET", "/vector_stores/" + store, null).body().get("file_counts");
    assertEquals(1, counts.get("failed").asInt());
    JsonNode failedOnly =
        ok(ADMIN, "GET", "/vector_stores/" + store + "/files?filter=failed", null).body();
    assertEquals(bad, failedOnly.get("data").get(0).get("id").asText());
  }

  @Test
  void batchCancel_keepsEveryFileNotYetWrittenOut_andReadsCancelled() throws Exception {
    String store = ok(ADMIN, "POST", "/vector_stores", "{}").body().get("id").asText();
    List<String> files = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      files.add(
          upload(
                  ADMIN,
                  "note" + i + ".md",
                  ("# Note " + i + "\n\nThe quokka number " + i + " lives here.\n")
                      .getBytes(StandardCharsets.UTF_8),
                  "assistants")
              .body()
              .get("id")
              .asText());
    }
    CountDownLatch release = new CountDownLatch(1);
    hold = release;
    String batch =
        ok(
                ADMIN,
                "POST",
                "/vector_stores/" + store + "/file_batches",
                JSON.writeValueAsString(Map.of("file_ids", files)))
            .body()
            .get("id")
            .asText();
    // The cancel answers once no file is being written, so the held file is let go while it waits:
    // after the queued files read cancelled, which shows the cancel has arrived.
    CompletableFuture<HttpResponse<byte[]>> cancel =
        http.sendAsync(
            HttpRequest.newBuilder(
                    URI.create(
                        base + "/vector_stores/" + store + "/file_batches/" + batch + "/cancel"))
                .header("Authorization", "Bearer " + ADMIN)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (ok(ADMIN, "GET", "/vector_stores/" + store + "/file_batches/" + batch, null)
            .body()
            .get("file_counts")
            .get("cancelled")
            .asInt()
        < 2) {
      assertTrue(System.currentTimeMillis() < deadline, "the queued files were never cancelled");
      Thread.sleep(20);
    }
    hold = null;
    release.countDown();
    Answer cancelled = answer(cancel.get(WAIT_MILLIS, TimeUnit.MILLISECONDS));
    assertEquals(200, cancelled.status(), () -> cancelled.body().toString());
    assertEquals(batch, cancelled.body().get("id").asText());
    JsonNode done = awaitBatch(ADMIN, store, batch);
    assertEquals("cancelled", done.get("status").asText(), done.toString());
    assertEquals(3, done.get("file_counts").get("cancelled").asInt(), done.toString());
    JsonNode listed =
        ok(
                ADMIN,
                "GET",
                "/vector_stores/" + store + "/file_batches/" + batch + "/files?filter=cancelled",
                null)
            .body();
    assertEquals(3, listed.get("data").size());
    JsonNode search =
        ok(ADMIN, "POST", "/vector_stores/" + store + "/search", "{\"query\": \"quokka\"}").body();
    assertEquals(0, search.get("data").size(), search.toString());
    assertEquals(
        404,
        send(ADMIN, "GET", "/vector_stores/" + store + "/file_batches/vsfb_nothing", null)
            .status());
  }

  // ----- pagination

  @Test
  void lists_pageWithAfterAndBefore_asTheSdksFollowThem() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(
          ok(ADMIN, "POST", "/vector_stores", "{\"name\": \"s" + i + "\"}")
              .body()
              .get("id")
              .asText());
    }
    List<String> seen = new ArrayList<>();
    String path = "/vector_stores?limit=2&order=asc";
    while (true) {
      JsonNode page = ok(ADMIN, "GET", path, null).body();
      page.get("data").forEach(s -> seen.add(s.get("id").asText()));
      assertEquals(
          page.get("data").get(page.get("data").size() - 1).get("id").asText(),
          page.get("last_id").asText());
      if (!page.get("has_more").asBoolean()) {
        break;
      }
      path = "/vector_stores?limit=2&order=asc&after=" + page.get("last_id").asText();
    }
    assertEquals(ids.stream().sorted().toList(), seen.stream().sorted().toList());
    assertEquals(5, seen.size());
    JsonNode before =
        ok(ADMIN, "GET", "/vector_stores?limit=2&order=asc&before=" + seen.get(4), null).body();
    assertEquals(seen.get(2), before.get("first_id").asText());
    assertEquals(seen.get(3), before.get("last_id").asText());
    JsonNode desc = ok(ADMIN, "GET", "/vector_stores?limit=1", null).body();
    assertEquals(seen.get(4), desc.get("first_id").asText());
  }

  // ----- refusals, in OpenAI's error body

  @Test
  void errors_haveOpenAisBodyAndStatus() throws Exception {
    Answer noToken = send(null, "GET", "/vector_stores", null);
    assertEquals(401, noToken.status());
    assertEquals("invalid_api_key", noToken.error().get("code").asText());
    assertEquals("invalid_request_error", noToken.error().get("type").asText());
    assertTrue(noToken.error().has("param"));

    Answer unknown =
        send(ADMIN, "POST", "/vector_stores", "{\"name\": \"x\", \"colour\": \"red\"}");
    assertEquals(400, unknown.status());
    assertEquals("colour", unknown.error().get("param").asText());
    assertEquals("unknown_parameter", unknown.error().get("code").asText());
    assertEquals("false", unknown.raw().headers().firstValue("x-should-retry").orElse(""));

    String store = ok(ADMIN, "POST", "/vector_stores", "{}").body().get("id").asText();
    Answer nested =
        send(
            ADMIN,
            "POST",
            "/vector_stores/" + store + "/search",
            "{\"query\": \"q\", \"filters\": {\"type\": \"or\", \"filters\": [{\"key\": \"a\", \"type\": \"eq\", \"value\": 1, \"x\": 2}]}}");
    assertEquals(400, nested.status());
    assertEquals("filters.filters[0].x", nested.error().get("param").asText());
    Answer rewrite =
        send(
            ADMIN,
            "POST",
            "/vector_stores/" + store + "/search",
            "{\"query\": \"q\", \"rewrite_query\": true}");
    assertEquals(400, rewrite.status());
    assertEquals("rewrite_query", rewrite.error().get("param").asText());
    Answer wrongType =
        send(
            ADMIN,
            "POST",
            "/vector_stores/" + store + "/search",
            "{\"query\": \"q\", \"max_num_results\": \"5\"}");
    assertEquals("invalid_type", wrongType.error().get("code").asText());
    Answer chunking =
        send(
            ADMIN,
            "POST",
            "/vector_stores",
            "{\"chunking_strategy\": {\"type\": \"static\", \"static\": "
                + "{\"max_chunk_size_tokens\": 800, \"chunk_overlap_tokens\": 500}}}");
    assertEquals(
        "chunking_strategy.static.chunk_overlap_tokens", chunking.error().get("param").asText());

    Answer missing = send(ADMIN, "GET", "/vector_stores/vs_nothing", null);
    assertEquals(404, missing.status());
    assertTrue(missing.error().get("message").asText().contains("vs_nothing"));
    assertEquals(404, send(ADMIN, "GET", "/files/file-nothing", null).status());
    assertEquals(404, send(ADMIN, "GET", "/no_such_endpoint", null).status());

    Answer big = upload(ADMIN, "big.txt", new byte[(int) MAX_UPLOAD + 1], "assistants");
    assertEquals(413, big.status());
    assertEquals("document_too_large", big.error().get("code").asText());
    // Sent without its length (chunked): the parser stops at the bound all the same.
    String boundary = "chunked-boundary";
    byte[] head =
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nassistants\r\n--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8);
    // Just past the bound: a body much larger would still be arriving when the server, having
    // answered, closes the connection, and the client would see the reset rather than the answer.
    byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + (int) MAX_UPLOAD + 1024 + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    System.arraycopy(tail, 0, body, body.length - tail.length, tail.length);
    HttpRequest chunked =
        HttpRequest.newBuilder(URI.create(base + "/files"))
            .header("Authorization", "Bearer " + ADMIN)
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
            .build();
    // The server answers 413 and closes the connection while the client may still be sending: a
    // client then sees either the answer or the reset, depending on timing. Either way nothing is
    // kept.
    try {
      Answer bigChunked = answer(http.send(chunked, HttpResponse.BodyHandlers.ofByteArray()));
      assertEquals(413, bigChunked.status(), () -> String.valueOf(bigChunked.body()));
      assertEquals("document_too_large", bigChunked.error().get("code").asText());
    } catch (IOException reset) {
      // the connection closed before the answer was read
    }
    for (JsonNode f : ok(ADMIN, "GET", "/files", null).body().get("data")) {
      assertNotEquals("big.bin", f.get("filename").asText());
    }
    Answer noPurpose = upload(ADMIN, "a.txt", "hello".getBytes(StandardCharsets.UTF_8), null);
    assertEquals(400, noPurpose.status());
    assertEquals("purpose", noPurpose.error().get("param").asText());
  }

  @Test
  void chunkingStrategy_static_becomesTheStoresChunking_andAnotherOneIsRefusedAtAttach()
      throws Exception {
    JsonNode store =
        ok(
                ADMIN,
                "POST",
                "/vector_stores",
                "{\"chunking_strategy\": {\"type\": \"static\", \"static\": "
                    + "{\"max_chunk_size_tokens\": 200, \"chunk_overlap_tokens\": 40}}}")
            .body();
    JsonNode described = store.get("quarry").get("chunking_strategy").get("static");
    assertEquals(200, described.get("max_chunk_size_tokens").asInt());
    assertEquals(40, described.get("chunk_overlap_tokens").asInt());
    String file = uploadFixture(ADMIN, "remote-work.md");
    Answer other =
        send(
            ADMIN,
            "POST",
            "/vector_stores/" + store.get("id").asText() + "/files",
            "{\"file_id\": \""
                + file
                + "\", \"chunking_strategy\": {\"type\": \"static\", \"static\": {\"max_chunk_size_tokens\": 800, "
                + "\"chunk_overlap_tokens\": 400}}}");
    assertEquals(400, other.status());
    assertEquals("chunking_strategy", other.error().get("param").asText());
    ok(
        ADMIN,
        "POST",
        "/vector_stores/" + store.get("id").asText() + "/files",
        "{\"file_id\": \"" + file + "\", \"chunking_strategy\": {\"type\": \"auto\"}}");
  }

  // ----- grants

  @Test
  void restrictedToken_seesOnlyItsStores_andRefusalsNameNothingElse() throws Exception {
    // The reader is granted search on 'vs_readable', a corpus made through the same API's admin.
    corpora.createCorpus(
        new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class)))),
        readable,
        null);
    Loaded secret = load(ADMIN, "Secret");
    JsonNode list = ok(READER, "GET", "/vector_stores", null).body();
    assertEquals(1, list.get("data").size(), list.toString());
    assertEquals(readable, list.get("data").get(0).get("id").asText());
    Answer other =
        send(
            READER,
            "POST",
            "/vector_stores/" + secret.store() + "/search",
            "{\"query\": \"leave\"}");
    assertEquals(403, other.status());
    Answer absent = send(READER, "GET", "/vector_stores/vs_never_made", null);
    assertEquals(403, absent.status(), "grants are decided before existence");
    assertEquals(other.error().get("message").asText(), absent.error().get("message").asText());
    assertFalse(other.error().get("message").asText().contains(secret.store()));
    // Files are their uploader's: another subject does not learn they exist.
    assertEquals(404, send(WRITER, "GET", "/files/" + secret.pdf(), null).status());
    assertEquals(0, ok(WRITER, "GET", "/files", null).body().get("data").size());
    // A read-only token stores nothing on the server.
    assertEquals(
        403, upload(READER, "a.md", "# a".getBytes(StandardCharsets.UTF_8), "assistants").status());
    // The writer may index into vs_* but not create corpora (manage).
    assertEquals(403, send(WRITER, "POST", "/vector_stores", "{}").status());
  }

  @Test
  void aSourceRestrictedToken_countsOnlyTheFilesItSees() throws Exception {
    Loaded loaded = load(ADMIN, "Counted");
    tokens.put(
        "part-token",
        new Access(
            "part",
            List.of(new Grant(loaded.store(), List.of(loaded.md()), EnumSet.of(Scope.SEARCH)))));
    // The job indexed two files; the token sees one of them, and counts it alone.
    String batch = "/vector_stores/" + loaded.store() + "/file_batches/" + loaded.batch();
    JsonNode part = ok("part-token", "GET", batch, null).body();
    assertEquals(1, part.get("file_counts").get("total").asInt(), part.toString());
    assertEquals(1, part.get("file_counts").get("completed").asInt(), part.toString());
    assertEquals(2, ok(ADMIN, "GET", batch, null).body().get("file_counts").get("total").asInt());
    assertEquals(1, ok("part-token", "GET", batch + "/files", null).body().get("data").size());
    JsonNode store = ok("part-token", "GET", "/vector_stores/" + loaded.store(), null).body();
    assertEquals(1, store.get("file_counts").get("total").asInt(), store.toString());
    assertEquals(1, store.get("file_counts").get("completed").asInt(), store.toString());
  }
}
