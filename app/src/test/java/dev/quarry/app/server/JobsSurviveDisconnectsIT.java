package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that goes away never cancels an ingestion job: an upload cut off in the middle of a file
 * leaves the job as it was (its acknowledged files go on being ingested, the cut-off files and the
 * upload's {@code close} are not taken) and the job can still take files and end; a cut-off submit
 * leaves no job; pollers that hang up change nothing. Clients are raw sockets closed mid-body, as a
 * crashed process or a dropped network would leave them.
 */
class JobsSurviveDisconnectsIT {
  static final String T = TestTokens.ADMIN;
  static final String TRAILER = "\r\n--" + Upload.BOUNDARY + "--\r\n";

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens().corpus("docs").corpus("gone");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A text document of about {@code kib} KiB, big enough that a cut in its middle falls inside it.
   */
  static byte[] bigText(String word, int kib) {
    StringBuilder b = new StringBuilder();
    while (b.length() < kib * 1024) {
      b.append(word).append(" is a word of this long document.\n");
    }
    return text(b.toString());
  }

  static String files(List<String> sources) {
    return String.join(", ", sources.stream().map(s -> "{\"source\": \"" + s + "\"}").toList());
  }

  /**
   * Opens a connection and sends {@code body} to {@code path} declaring its whole length, but only
   * up to the middle of its last file part; the caller closes it without reading an answer.
   */
  static Socket sendCutOff(String path, byte[] body, int lastFileBytes) throws IOException {
    int cut = body.length - TRAILER.length() - lastFileBytes / 2;
    Socket s = new Socket("127.0.0.1", URI.create(server.url()).getPort());
    OutputStream out = s.getOutputStream();
    out.write(
        ("POST "
                + path
                + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + T
                + "\r\nContent-Type: multipart/form-data; boundary="
                + Upload.BOUNDARY
                + "\r\nContent-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(body, 0, cut);
    out.flush();
    return s;
  }

  /**
   * Sends a JSON request's head and part of its body, or all of it, then hangs up without reading.
   */
  static void hangUp(String endpoint, String json, boolean wholeBody) throws IOException {
    byte[] body = text(json);
    try (Socket s = new Socket("127.0.0.1", URI.create(server.url()).getPort())) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST /v1/retrieval/"
                  + endpoint
                  + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + T
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, wholeBody ? body.length : body.length / 2);
      out.flush();
    }
  }

  static JsonNode read(String job) {
    return ok(api.retrieval("jobs/read", T, "{\"job\": \"" + job + "\", \"limit\": 1000}"));
  }

  /** Reads the job until {@code done} holds. */
  static JsonNode awaitJob(String job, Predicate<JsonNode> done) throws InterruptedException {
    return await("the job", () -> read(job), done);
  }

  /** Lists the jobs of {@code corpus} until {@code done} holds. */
  static JsonNode awaitList(String corpus, Predicate<JsonNode> done) throws InterruptedException {
    return await(
        "the jobs of " + corpus,
        () -> ok(api.retrieval("jobs/list", T, "{\"corpus\": \"" + corpus + "\"}")).get("jobs"),
        done);
  }

  /**
   * Reads {@code what} until {@code done} holds; fails after two minutes (a bound on a hang, not on
   * speed).
   */
  static JsonNode await(String what, Supplier<JsonNode> reading, Predicate<JsonNode> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      JsonNode read = reading.get();
      if (done.test(read)) {
        return read;
      }
      assertTrue(System.nanoTime() < deadline, what + " did not get there: " + read);
      Thread.sleep(50);
    }
  }

  @Test
  void uploadCutOffMidFile_keepsTheJobAndItsAcknowledgedFiles_andTheJobGoesOn() throws Exception {
    String id =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"docs\"}")).at("/job/id").asText();
    ok(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.body(
                "{\"job\": \""
                    + id
                    + "\", \"files\": ["
                    + files(List.of("cut/a.txt", "cut/b.txt"))
                    + "]}",
                List.of(text("Aardvark notes.\n"), text("Bilby notes.\n")))));

    byte[] big = bigText("wallaby", 256);
    byte[] cutBody =
        Upload.body(
            "{\"job\": \""
                + id
                + "\", \"files\": ["
                + files(List.of("cut/c.txt", "cut/d.txt"))
                + "], \"close\": true}",
            List.of(text("Cassowary notes.\n"), big));
    sendCutOff("/v1/retrieval/jobs/upload", cutBody, big.length).close();

    // The acknowledged files are ingested; nothing of the cut-off upload is in the job, and it is
    // still open.
    JsonNode page = awaitJob(id, p -> p.at("/job/counts/indexed").asInt() == 2);
    assertEquals("open", page.at("/job/state").asText(), page::toString);
    assertEquals(2, page.at("/job/counts/files").asInt(), page::toString);
    assertEquals(0, page.at("/job/counts/cancelled").asInt(), page::toString);

    // The same sources again: had any part of the cut-off upload been kept, they would be refused
    // as already in the job.
    JsonNode resumed =
        ok(
            Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/upload",
                Upload.body(
                    "{\"job\": \""
                        + id
                        + "\", \"files\": ["
                        + files(List.of("cut/c.txt", "cut/d.txt"))
                        + "], \"close\": true}",
                    List.of(text("Cassowary notes.\n"), big))));
    assertEquals(4, resumed.at("/job/counts/files").asInt(), resumed::toString);
    JsonNode ended = awaitJob(id, p -> p.path("job").has("endedAt"));
    assertEquals("completed", ended.at("/job/state").asText(), ended::toString);
    assertEquals(4, ended.at("/job/counts/indexed").asInt(), ended::toString);
    JsonNode hit =
        ok(api.retrieval("search", T, "{\"corpus\": \"docs\", \"query\": \"wallaby\"}"))
            .get("results")
            .get(0);
    assertEquals("cut/d.txt", hit.get("source").asText());
  }

  @Test
  void submitCutOffMidFile_leavesNoJob_andIndexesNothing() throws Exception {
    byte[] big = bigText("quoll", 256);
    byte[] body =
        Upload.body(
            "{\"corpus\": \"gone\", \"files\": ["
                + files(List.of("gone/a.txt", "gone/b.txt"))
                + "]}",
            List.of(text("Quokka notes.\n"), big));
    try (Socket cutOff = sendCutOff("/v1/retrieval/jobs/submit", body, big.length)) {
      // While its files arrive, the submit's job exists (open, no file acknowledged yet): the
      // server is mid-file.
      JsonNode during = awaitList("gone", jobs -> jobs.size() == 1);
      assertEquals("open", during.get(0).get("state").asText(), during::toString);
      assertEquals(0, during.get(0).at("/counts/files").asInt(), during::toString);
    }
    // Once the server sees the connection end, the job is dropped with whatever had arrived.
    awaitList("gone", jobs -> jobs.isEmpty());
    for (String source : List.of("gone/a.txt", "gone/b.txt")) {
      Answer a =
          api.retrieval(
              "sources/read", T, "{\"corpus\": \"gone\", \"source\": \"" + source + "\"}");
      assertEquals(404, a.status(), a::toString);
    }
    assertEquals(
        0, ok(api.retrieval("corpora/read", T, "{\"corpus\": \"gone\"}")).get("revision").asLong());
  }

  @Test
  void pollersThatHangUp_cancelNothing() throws Exception {
    int n = 12;
    List<String> sources = IntStream.range(0, n).mapToObj(i -> "polled/doc-" + i + ".txt").toList();
    List<byte[]> bytes =
        IntStream.range(0, n)
            .mapToObj(i -> text("Polled document " + i + " about numbats.\n"))
            .toList();
    String id =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.body("{\"corpus\": \"docs\", \"files\": [" + files(sources) + "]}", bytes)))
            .at("/job/id")
            .asText();
    for (int i = 0; i < 5; i++) {
      hangUp("jobs/read", "{\"job\": \"" + id + "\", \"limit\": 1000}", true);
      hangUp("jobs/read", "{\"job\": \"" + id + "\", \"limit\": 1000}", false);
      hangUp("jobs/list", "{\"corpus\": \"docs\"}", true);
    }
    JsonNode ended = awaitJob(id, p -> p.path("job").has("endedAt"));
    assertEquals("completed", ended.at("/job/state").asText(), ended::toString);
    assertEquals(n, ended.at("/job/counts/indexed").asInt(), ended::toString);
    assertEquals(0, ended.at("/job/counts/cancelled").asInt(), ended::toString);
  }
}
