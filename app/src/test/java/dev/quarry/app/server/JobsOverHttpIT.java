package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.engine.Sha256;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion jobs over HTTP against server processes: submit in one request or create, upload in
 * several and close; read state, counts and keyset pages of outcomes (a receipt per indexed file, a
 * typed error per failed one); cancel; grants (a token never learns of another subject's jobs); and
 * the per-job and server-wide bounds of a second, tightly configured server.
 */
class JobsOverHttpIT {
  static final String T = TestTokens.ADMIN;
  static final String PUBLIC = TestTokens.PUBLIC_C1;

  @TempDir static Path dir;
  static ServerProcess server;
  static ServerProcess tight;
  static ApiClient api;
  static ApiClient tightApi;

  @BeforeAll
  static void start() throws Exception {
    Path tokens = TestTokens.write(dir);
    Path tightConfig =
        Files.writeString(
            dir.resolve("tight.json"),
            "{\"limits\": {\"maxJobFiles\": 3, \"maxJobBytes\": 1000}, \"jobs\": {\"maxActiveJobs\": 1}}");
    CompletableFuture<ServerProcess> second =
        CompletableFuture.supplyAsync(
            () -> ServerProcess.serve(dir.resolve("data-tight"), tokens, tightConfig, 384));
    server = ServerProcess.serve(dir.resolve("data"), tokens, null, 384);
    tight = second.get();
    api = server.client();
    tightApi = tight.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"c1\"}"));
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
    ok(tightApi.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
  }

  @AfterAll
  static void stop() {
    for (ServerProcess s : new ServerProcess[] {server, tight}) {
      if (s != null) {
        s.close();
      }
    }
  }

  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String files(List<String> sources) {
    return sources.stream()
        .map(s -> "{\"source\": \"" + s + "\"}")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  static Answer submit(
      ApiClient client, String token, String corpus, List<String> sources, List<byte[]> bytes) {
    return Upload.post(
        client,
        token,
        "/v1/retrieval/jobs/submit",
        Upload.body("{\"corpus\": \"" + corpus + "\", \"files\": " + files(sources) + "}", bytes));
  }

  static Answer upload(
      ApiClient client,
      String token,
      String job,
      List<String> sources,
      List<byte[]> bytes,
      boolean close) {
    return Upload.post(
        client,
        token,
        "/v1/retrieval/jobs/upload",
        Upload.body(
            "{\"job\": \""
                + job
                + "\", \"files\": "
                + files(sources)
                + (close ? ", \"close\": true" : "")
                + "}",
            bytes));
  }

  static Answer read(ApiClient client, String token, String job) {
    return client.retrieval("jobs/read", token, "{\"job\": \"" + job + "\"}");
  }

  /**
   * Reads the job until it has ended; fails after two minutes (a bound on a hang, not on speed).
   */
  static JsonNode awaitEnd(ApiClient client, String token, String job) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      JsonNode page = ok(read(client, token, job));
      if (page.path("job").has("endedAt")) {
        return page;
      }
      assertTrue(System.nanoTime() < deadline, "the job did not end: " + page);
      Thread.sleep(50);
    }
  }

  static void assertError(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
  }

  @Test
  void protocol_advertisesIngestionJobs_andTheirLimits() {
    JsonNode protocol = ok(api.get("/v1/protocol").token(T).send());
    List<String> features = new ArrayList<>();
    protocol.get("features").forEach(f -> features.add(f.asText()));
    assertTrue(features.contains("ingestion-jobs"), features::toString);
    assertEquals(10_000, protocol.at("/limits/maxJobFiles").asLong());
    JsonNode tightLimits = ok(tightApi.get("/v1/protocol").token(T).send()).get("limits");
    assertEquals(3, tightLimits.get("maxJobFiles").asLong());
    assertEquals(1000, tightLimits.get("maxJobBytes").asLong());
  }

  @Test
  void eachFilePartsName_isADetectionHint_asOnASingleIngest() throws Exception {
    // Markdown that opens with an HTML comment reads as XML by its bytes alone; its name says
    // Markdown.
    byte[] markdown =
        text("<!-- generated -->\n# Wombat care\n\nWombats dig burrows with their claws.\n");
    JsonNode job =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \"docs\", \"files\": [{\"source\": \"named/wombats\"}]}",
                    List.of("wombats.md"),
                    List.of(markdown))))
            .get("job");
    String id = job.get("id").asText();
    JsonNode page = awaitEnd(api, T, id);
    assertEquals(1, page.at("/job/counts/indexed").asInt(), page::toString);
    assertEquals("text/markdown", page.at("/files/0/receipt/mediaType").asText(), page::toString);
  }

  @Test
  void submit_ingestsEveryFile_withAReceiptEach_andPagesByCursor() throws Exception {
    List<String> sources = IntStream.range(0, 5).mapToObj(i -> "submit/doc-" + i + ".txt").toList();
    List<byte[]> bytes =
        IntStream.range(0, 5)
            .mapToObj(
                i ->
                    text(
                        "Submitted document "
                            + i
                            + " mentions quokka"
                            + i
                            + " and nothing else.\n"))
            .toList();
    JsonNode job = ok(submit(api, T, "docs", sources, bytes)).get("job");
    assertEquals(5, job.at("/counts/files").asInt());
    assertTrue(List.of("running", "completed").contains(job.get("state").asText()), job::toString);
    assertNotNull(job.get("closedAt"), "a submitted job is closed at once");
    String id = job.get("id").asText();

    JsonNode ended = awaitEnd(api, T, id).get("job");
    assertEquals("completed", ended.get("state").asText(), ended::toString);
    assertEquals(5, ended.at("/counts/indexed").asInt(), ended::toString);
    assertNotNull(ended.get("expiresAt"));

    List<JsonNode> files = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page =
          ok(
              api.retrieval(
                  "jobs/read",
                  T,
                  "{\"job\": \""
                      + id
                      + "\", \"limit\": 2"
                      + (cursor == null ? "" : ", \"cursor\": \"" + cursor + "\"")
                      + "}"));
      assertTrue(page.get("files").size() <= 2);
      page.get("files").forEach(files::add);
      cursor = page.path("nextCursor").asText(null);
      assertTrue(++pages <= 3, () -> "five files in pages of two take three pages: " + page);
    } while (cursor != null);
    assertEquals(5, files.size());
    Set<Long> revisions = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      JsonNode f = files.get(i);
      assertEquals(i, f.get("index").asInt());
      assertEquals(sources.get(i), f.get("source").asText());
      assertEquals(Sha256.of(bytes.get(i)), f.get("contentSha256").asText());
      assertEquals("indexed", f.get("status").asText());
      assertEquals("indexed", f.at("/receipt/status").asText());
      revisions.add(f.at("/receipt/revision").asLong());
      JsonNode source =
          ok(
              api.retrieval(
                  "sources/read",
                  T,
                  "{\"corpus\": \"docs\", \"source\": \"" + sources.get(i) + "\"}"));
      assertEquals(Sha256.of(bytes.get(i)), source.get("contentSha256").asText());
    }
    assertEquals(5, revisions.size(), "each file is its own revision");
    JsonNode hit =
        ok(api.retrieval("search", T, "{\"corpus\": \"docs\", \"query\": \"quokka3\"}"))
            .get("results")
            .get(0);
    assertEquals("submit/doc-3.txt", hit.get("source").asText());
  }

  @Test
  void uploadsInSeveralRequests_thenClose_andNothingAfterClose() throws Exception {
    String id =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}")).at("/job/id").asText();
    JsonNode first =
        ok(
            upload(
                api, T, id, List.of("multi/a.md"), List.of(text("# A\n\nFirst upload.\n")), false));
    assertEquals("open", first.at("/job/state").asText());
    JsonNode second =
        ok(
            upload(
                api,
                T,
                id,
                List.of("multi/b.md", "multi/c.md"),
                List.of(text("# B\n\nSecond upload.\n"), text("# C\n\nSecond upload too.\n")),
                false));
    assertEquals(3, second.at("/job/counts/files").asInt());
    assertError(
        upload(api, T, id, List.of("multi/a.md"), List.of(text("again")), false),
        400,
        "INVALID_REQUEST");
    JsonNode closed = ok(api.retrieval("jobs/close", T, "{\"job\": \"" + id + "\"}")).get("job");
    assertFalse(closed.get("state").asText().equals("open"), closed::toString);
    assertError(
        upload(api, T, id, List.of("multi/d.md"), List.of(text("late")), false), 409, "JOB_CLOSED");
    JsonNode ended = awaitEnd(api, T, id);
    assertEquals(3, ended.at("/job/counts/indexed").asInt(), ended::toString);
    assertEquals(3, ended.get("files").size());
  }

  @Test
  void aBadFile_failsAlone_withItsTypedError() throws Exception {
    byte[] random = new byte[4096];
    new java.util.Random(19).nextBytes(random);
    String id =
        ok(submit(
                api,
                T,
                "docs",
                List.of("bad/good.txt", "bad/random.bin"),
                List.of(text("A perfectly good document.\n"), random)))
            .at("/job/id")
            .asText();
    JsonNode ended = awaitEnd(api, T, id);
    assertEquals("completed", ended.at("/job/state").asText());
    assertEquals(1, ended.at("/job/counts/indexed").asInt());
    assertEquals(1, ended.at("/job/counts/failed").asInt());
    JsonNode failed = ended.get("files").get(1);
    assertEquals("failed", failed.get("status").asText());
    assertEquals("UNSUPPORTED_MEDIA_TYPE", failed.at("/error/code").asText());
    assertNull(failed.get("receipt"));
    assertError(
        api.retrieval("sources/read", T, "{\"corpus\": \"docs\", \"source\": \"bad/random.bin\"}"),
        404,
        "SOURCE_NOT_FOUND");
  }

  @Test
  void cancel_keepsWhatIsIndexed_andIndexesNothingMore() throws Exception {
    int n = 40;
    List<String> sources = IntStream.range(0, n).mapToObj(i -> "cancel/doc-" + i + ".txt").toList();
    List<byte[]> bytes =
        IntStream.range(0, n).mapToObj(i -> text("Cancelled batch document " + i + ".\n")).toList();
    String id = ok(submit(api, T, "docs", sources, bytes)).at("/job/id").asText();
    JsonNode cancelled =
        ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + id + "\"}")).get("job");
    // "cancelled" once the work has stopped, with endedAt; "running" while a file is still
    // extracted.
    assertEquals(
        cancelled.has("endedAt") ? "cancelled" : "running",
        cancelled.get("state").asText(),
        cancelled::toString);
    assertEquals(0, cancelled.at("/counts/queued").asInt(), cancelled::toString);
    JsonNode ended = awaitEnd(api, T, id);
    assertEquals("cancelled", ended.at("/job/state").asText());
    JsonNode counts = ended.at("/job/counts");
    // The cancel answers once no file is being written: what it reports as indexed is final.
    assertEquals(
        cancelled.at("/counts/indexed").asInt(),
        counts.get("indexed").asInt(),
        () -> "indexed after the cancel answered: " + cancelled + " then " + counts);
    assertEquals(
        n, counts.get("indexed").asInt() + counts.get("cancelled").asInt(), counts::toString);
    assertTrue(
        counts.get("cancelled").asInt() > 0,
        "a cancel right after submit leaves files out: " + counts);
    long before =
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"docs\"}")).get("revision").asLong();
    JsonNode all = ok(api.retrieval("jobs/read", T, "{\"job\": \"" + id + "\", \"limit\": 1000}"));
    for (JsonNode f : all.get("files")) {
      Answer source =
          api.retrieval(
              "sources/read",
              T,
              "{\"corpus\": \"docs\", \"source\": \"" + f.get("source").asText() + "\"}");
      if (f.get("status").asText().equals("indexed")) {
        assertEquals(200, source.status(), source::toString);
      } else {
        assertEquals("cancelled", f.get("status").asText());
        assertError(source, 404, "SOURCE_NOT_FOUND");
      }
    }
    assertEquals(
        before,
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"docs\"}")).get("revision").asLong(),
        "nothing is indexed after the cancelled job ended");
    JsonNode again = ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + id + "\"}")).get("job");
    assertEquals("cancelled", again.get("state").asText());
  }

  @Test
  void grants_submitNeedsIndexOnEverySource() {
    assertError(
        submit(
            api,
            PUBLIC,
            "c1",
            List.of("public/a.txt", "private/b.txt"),
            List.of(text("a"), text("b"))),
        403,
        "FORBIDDEN");
    assertError(
        submit(api, TestTokens.SEARCH_C1, "c1", List.of("public/a.txt"), List.of(text("a"))),
        403,
        "FORBIDDEN");
    assertError(
        api.retrieval("jobs/create", TestTokens.SEARCH_C1, "{\"corpus\": \"c1\"}"),
        403,
        "FORBIDDEN");
    assertError(api.retrieval("jobs/create", PUBLIC, "{\"corpus\": \"nope\"}"), 403, "FORBIDDEN");
    assertError(api.retrieval("jobs/create", T, "{\"corpus\": \"nope\"}"), 404, "CORPUS_NOT_FOUND");
  }

  @Test
  void grants_anotherSubjectsJob_answersAsAnUnknownOne() throws Exception {
    String mine =
        ok(api.retrieval("jobs/create", PUBLIC, "{\"corpus\": \"c1\"}")).at("/job/id").asText();
    String admins =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"c1\"}")).at("/job/id").asText();
    Answer notMine = read(api, PUBLIC, admins);
    Answer unknown = read(api, PUBLIC, "job_doesnotexist");
    assertError(notMine, 404, "JOB_NOT_FOUND");
    assertError(unknown, 404, "JOB_NOT_FOUND");
    assertEquals(
        unknown.json().at("/error/message").asText().replace("job_doesnotexist", "ID"),
        notMine.json().at("/error/message").asText().replace(admins, "ID"),
        "not-yours and unknown say the same");
    assertError(
        api.retrieval("jobs/cancel", PUBLIC, "{\"job\": \"" + admins + "\"}"),
        404,
        "JOB_NOT_FOUND");
    assertError(
        upload(api, PUBLIC, admins, List.of("public/x.txt"), List.of(text("x")), false),
        404,
        "JOB_NOT_FOUND");
    assertError(
        api.retrieval("jobs/read", TestTokens.C2_ONLY, "{\"job\": \"" + mine + "\"}"),
        404,
        "JOB_NOT_FOUND");
    // The owner reads its own; a manager of the corpus reads and cancels anyone's.
    assertEquals(mine, ok(read(api, PUBLIC, mine)).at("/job/id").asText());
    assertEquals(mine, ok(read(api, T, mine)).at("/job/id").asText());
    assertEquals(
        "cancelled",
        ok(api.retrieval("jobs/cancel", TestTokens.MANAGE_C1, "{\"job\": \"" + mine + "\"}"))
            .at("/job/state")
            .asText());
    ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + admins + "\"}"));
  }

  @Test
  void malformedUploads_areRefused_andStoreNothing() throws Exception {
    String id =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}")).at("/job/id").asText();
    Answer tooFew =
        upload(api, T, id, List.of("m/a.txt", "m/b.txt"), List.of(text("only one")), false);
    assertError(tooFew, 400, "INVALID_REQUEST");
    assertEquals("files", tooFew.field());
    Answer noJob = upload(api, T, "Not A Job!", List.of("m/a.txt"), List.of(text("a")), false);
    assertError(noJob, 400, "INVALID_REQUEST");
    assertEquals("job", noJob.field());
    Answer unknownField =
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/submit",
            Upload.body(
                "{\"corpus\": \"docs\", \"files\": [{\"source\": \"m/a.txt\", \"tilte\": \"x\"}]}",
                List.of(text("a"))));
    assertError(unknownField, 400, "INVALID_REQUEST");
    assertEquals("files[0].tilte", unknownField.field());
    assertEquals(0, ok(read(api, T, id)).at("/job/counts/files").asInt());
    ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + id + "\"}"));
  }

  @Test
  void bounds_perJobFilesAndBytes_are413_andActiveJobs_429() throws Exception {
    assertError(
        submit(
            tightApi,
            T,
            "docs",
            List.of("a", "b", "c", "d"),
            List.of(text("a"), text("b"), text("c"), text("d"))),
        413,
        "JOB_TOO_LARGE");
    assertError(
        submit(tightApi, T, "docs", List.of("big"), List.of(new byte[1001])), 413, "JOB_TOO_LARGE");
    String open =
        ok(tightApi.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}")).at("/job/id").asText();
    Answer second = tightApi.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}");
    assertError(second, 429, "CAPACITY");
    assertTrue(second.json().at("/error/retryable").asBoolean());
    ok(
        upload(
            tightApi,
            T,
            open,
            List.of("one.txt", "two.txt"),
            List.of(text("one"), text("two")),
            false));
    assertError(
        upload(
            tightApi,
            T,
            open,
            List.of("three.txt", "four.txt"),
            List.of(text("3"), text("4")),
            false),
        413,
        "JOB_TOO_LARGE");
    ok(tightApi.retrieval("jobs/cancel", T, "{\"job\": \"" + open + "\"}"));
    awaitEnd(tightApi, T, open);
    // Once it ended, another job may start.
    String next =
        ok(tightApi.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}")).at("/job/id").asText();
    ok(tightApi.retrieval("jobs/cancel", T, "{\"job\": \"" + next + "\"}"));
  }
}
