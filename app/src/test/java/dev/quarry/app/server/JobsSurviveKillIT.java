package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.Sha256;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job survives {@code kill -9} of its server: killed while the job is ingesting, the server is
 * started again on the same data folder and the job finishes with every acknowledged file indexed
 * exactly once (one history entry per source) and none lost. Killed in the middle of an upload that
 * a client streams slowly, the restarted server holds the files of the uploads it had answered,
 * nothing of the one cut short, and the job is still open for the rest; a submit cut short leaves
 * no job.
 */
class JobsSurviveKillIT {
  static final String T = TestTokens.ADMIN;
  static final int FILES = 60;

  @TempDir Path dir;

  /**
   * A document of some size, so a file takes long enough to ingest for the kill to land mid-job.
   */
  static byte[] document(int i) {
    StringBuilder text = new StringBuilder("# Document " + i + "\n\n");
    for (int p = 0; p < 400; p++) {
      text.append("Paragraph ")
          .append(p)
          .append(" of document ")
          .append(i)
          .append(" talks about wombat")
          .append(i)
          .append(" and the weather in a long sentence.\n\n");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void killedMidJob_restarted_everyAcknowledgedFileIndexedExactlyOnce() throws Exception {
    Path tokens = TestTokens.write(dir);
    Path data = dir.resolve("data");
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"extraction\": {\"workers\": 1}, \"jobs\": {\"workers\": 1}}");
    List<String> sources =
        IntStream.range(0, FILES).mapToObj(i -> "kill/doc-" + i + ".md").toList();
    List<byte[]> bytes = IntStream.range(0, FILES).mapToObj(JobsSurviveKillIT::document).toList();
    String id;
    int indexedBeforeKill;
    ServerProcess first = ServerProcess.serve(data, tokens, config, 384);
    try {
      ApiClient api = first.client();
      ok(api.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
      JsonNode job = ok(JobsOverHttpIT.submit(api, T, "docs", sources, bytes)).get("job");
      id = job.get("id").asText();
      assertEquals(FILES, job.at("/counts/files").asInt());
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (true) {
        JsonNode counts = ok(JobsOverHttpIT.read(api, T, id)).at("/job/counts");
        indexedBeforeKill = counts.get("indexed").asInt();
        if (indexedBeforeKill >= 3) {
          break;
        }
        assertTrue(System.nanoTime() < deadline, "no progress: " + counts);
        Thread.sleep(50);
      }
    } finally {
      first.kill();
    }
    System.out.println("kill -9 with " + indexedBeforeKill + " of " + FILES + " files indexed");
    assertTrue(
        indexedBeforeKill < FILES,
        "the kill landed before the job ended ("
            + indexedBeforeKill
            + " of "
            + FILES
            + " indexed)");

    try (ServerProcess second = ServerProcess.serve(data, tokens, config, 384)) {
      ApiClient api = second.client();
      JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, id);
      JsonNode counts = ended.at("/job/counts");
      assertEquals("completed", ended.at("/job/state").asText(), ended::toString);
      assertEquals(FILES, counts.get("indexed").asInt(), counts::toString);
      JsonNode all =
          ok(api.retrieval("jobs/read", T, "{\"job\": \"" + id + "\", \"limit\": 1000}"));
      assertEquals(FILES, all.get("files").size());
      for (int i = 0; i < FILES; i++) {
        JsonNode f = all.get("files").get(i);
        assertEquals("indexed", f.get("status").asText(), f::toString);
        JsonNode source =
            ok(
                api.retrieval(
                    "sources/read",
                    T,
                    "{\"corpus\": \"docs\", \"source\": \"" + sources.get(i) + "\"}"));
        assertEquals(Sha256.of(bytes.get(i)), source.get("contentSha256").asText());
        assertEquals(
            f.at("/receipt/sourceRevision").asLong(),
            source.get("sourceRevision").asLong(),
            "the receipt names the revision the source holds");
      }
      // Exactly once: one history entry per source, and one revision per file.
      Map<String, Integer> entries = new HashMap<>();
      JsonNode history =
          ok(api.retrieval("corpora/history", T, "{\"corpus\": \"docs\", \"limit\": 1000}"));
      history.get("entries").forEach(e -> entries.merge(e.get("source").asText(), 1, Integer::sum));
      assertEquals(FILES, entries.size(), entries::toString);
      entries.forEach((source, n) -> assertEquals(1, n, source + " was indexed " + n + " times"));
      assertEquals(
          FILES,
          ok(api.retrieval("corpora/read", T, "{\"corpus\": \"docs\"}")).get("revision").asLong());
    }
  }

  /**
   * Sends {@code body} as a multipart POST to {@code path} over a raw connection, slowly: quickly
   * up to {@code pauseAt}, then a trickle, as a client on a slow link. {@code reached} counts down
   * once {@code pauseAt} bytes are written; the writer stops at its first failed write (the server
   * gone).
   */
  static Thread streamSlowly(
      String url, String path, byte[] body, int pauseAt, CountDownLatch reached) {
    Thread writer =
        new Thread(
            () -> {
              URI uri = URI.create(url);
              try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
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
                int sent = 0;
                while (sent < body.length) {
                  int chunk =
                      Math.min(
                          sent < pauseAt ? 4096 : 256,
                          (sent < pauseAt ? pauseAt : body.length) - sent);
                  out.write(body, sent, chunk);
                  out.flush();
                  sent += chunk;
                  if (sent == pauseAt) {
                    reached.countDown();
                  }
                  Thread.sleep(sent <= pauseAt ? 5 : 200);
                }
              } catch (IOException e) {
                // The server was killed mid-body: what a client on the other end of a crash sees.
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "slow-upload");
    writer.setDaemon(true);
    writer.start();
    return writer;
  }

  /**
   * Where the bytes of the file part named {@code fileName} start in a body built by {@link
   * Upload#namedBody}.
   */
  static int fileStart(byte[] body, String fileName) {
    String head = "filename=\"" + fileName + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
    int at = new String(body, StandardCharsets.ISO_8859_1).indexOf(head);
    assertTrue(at > 0, fileName + " is in the body");
    return at + head.length();
  }

  static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  static String filesJson(List<String> sources) {
    return sources.stream()
        .map(s -> "{\"source\": \"" + s + "\"}")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  @Test
  void killedMidUpload_restarted_keepsTheAnsweredFilesOnce_dropsTheCutUpload_andTheJobGoesOn()
      throws Exception {
    Path tokens = TestTokens.write(dir);
    Path data = dir.resolve("data");
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"extraction\": {\"workers\": 1}, \"jobs\": {\"workers\": 1}}");
    List<String> answered = List.of("up/a.md", "up/b.md", "up/c.md", "up/d.md");
    List<String> cut = List.of("up/e.md", "up/f.md", "up/g.md");
    List<String> submitted = List.of("sub/x.md", "sub/y.md");
    Map<String, byte[]> bytes = new HashMap<>();
    Map<String, Integer> number = new HashMap<>();
    for (int i = 0; i < answered.size() + cut.size(); i++) {
      String source = i < answered.size() ? answered.get(i) : cut.get(i - answered.size());
      number.put(source, 100 + i);
      bytes.put(source, document(100 + i));
    }
    String id;
    ServerProcess first = ServerProcess.serve(data, tokens, config, 384);
    try {
      ApiClient api = first.client();
      ok(api.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
      id =
          ok(api.retrieval("jobs/create", T, "{\"corpus\": \"docs\", \"ocr\": \"off\"}"))
              .at("/job/id")
              .asText();
      for (List<String> two : List.of(answered.subList(0, 2), answered.subList(2, 4))) {
        JsonNode job =
            ok(
                JobsOverHttpIT.upload(
                    api, T, id, two, two.stream().map(bytes::get).toList(), false));
        assertEquals("open", job.at("/job/state").asText(), job::toString);
      }
      // Three more files in one upload with close, streamed slowly; the kill lands in the middle of
      // the second.
      byte[] body =
          Upload.namedBody(
              "{\"job\": \"" + id + "\", \"files\": " + filesJson(cut) + ", \"close\": true}",
              cut,
              cut.stream().map(bytes::get).toList());
      int middleOfSecond = fileStart(body, cut.get(1)) + bytes.get(cut.get(1)).length / 2;
      // And a submit of two more, streamed alongside and cut in its first file: it was never
      // answered.
      byte[] submitBody =
          Upload.namedBody(
              "{\"corpus\": \"docs\", \"files\": " + filesJson(submitted) + "}",
              submitted,
              List.of(document(200), document(201)));
      CountDownLatch midFile = new CountDownLatch(2);
      Thread writer =
          streamSlowly(first.url(), "/v1/retrieval/jobs/upload", body, middleOfSecond, midFile);
      Thread submitter =
          streamSlowly(
              first.url(),
              "/v1/retrieval/jobs/submit",
              submitBody,
              fileStart(submitBody, submitted.get(0)) + document(200).length / 2,
              midFile);
      assertTrue(
          midFile.await(60, TimeUnit.SECONDS),
          "the upload and the submit reached the middle of a file");
      first.kill();
      writer.join(30_000);
      submitter.join(30_000);
    } finally {
      first.kill();
    }

    try (ServerProcess second = ServerProcess.serve(data, tokens, config, 384)) {
      ApiClient api = second.client();
      JsonNode page =
          JobsSurviveDisconnectsIT.await(
              "the answered files",
              () -> ok(api.retrieval("jobs/read", T, "{\"job\": \"" + id + "\", \"limit\": 1000}")),
              p -> p.at("/job/counts/indexed").asInt() == answered.size());
      assertEquals(
          "open",
          page.at("/job/state").asText(),
          "a job that was open when killed takes files again: " + page);
      assertEquals(
          "off", page.at("/job/ocr").asText(), "the job's OCR choice survives the kill: " + page);
      assertEquals(answered.size(), page.at("/job/counts/files").asInt(), page::toString);
      for (int i = 0; i < answered.size(); i++) {
        JsonNode f = page.get("files").get(i);
        assertEquals(answered.get(i), f.get("source").asText(), f::toString);
        assertEquals(
            Sha256.of(bytes.get(answered.get(i))), f.get("contentSha256").asText(), f::toString);
      }
      try (var left = Files.list(data.resolve(IngestJobs.FOLDER).resolve(id).resolve("files"))) {
        assertEquals(
            List.of(),
            left.map(p -> p.getFileName().toString()).toList(),
            "neither the cut upload's parts nor an ingested file's bytes are left");
      }
      JsonNode listed = ok(api.retrieval("jobs/list", T, "{\"corpus\": \"docs\"}")).get("jobs");
      assertEquals(1, listed.size(), "the cut submit left no job: " + listed);
      assertEquals(id, listed.get(0).get("id").asText(), listed::toString);
      for (String source : concat(cut, submitted)) {
        Answer absent =
            api.retrieval(
                "sources/read", T, "{\"corpus\": \"docs\", \"source\": \"" + source + "\"}");
        assertEquals(
            404, absent.status(), source + " of the cut upload was never acknowledged: " + absent);
      }

      // The cut upload sent again: its sources were not in the job (else refused as already there),
      // and it closes it.
      JsonNode resumed =
          ok(JobsOverHttpIT.upload(api, T, id, cut, cut.stream().map(bytes::get).toList(), true));
      assertEquals(
          answered.size() + cut.size(), resumed.at("/job/counts/files").asInt(), resumed::toString);
      JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, id);
      assertEquals("completed", ended.at("/job/state").asText(), ended::toString);
      int total = answered.size() + cut.size();
      assertEquals(total, ended.at("/job/counts/indexed").asInt(), ended::toString);

      // Exactly once: one revision and one history entry per file, and search at the final revision
      // sees each once.
      long revision =
          ok(api.retrieval("corpora/read", T, "{\"corpus\": \"docs\"}")).get("revision").asLong();
      assertEquals(total, revision);
      Map<String, Integer> entries = new HashMap<>();
      ok(api.retrieval("corpora/history", T, "{\"corpus\": \"docs\", \"limit\": 1000}"))
          .get("entries")
          .forEach(e -> entries.merge(e.get("source").asText(), 1, Integer::sum));
      assertEquals(bytes.keySet(), entries.keySet());
      entries.forEach((source, n) -> assertEquals(1, n, source + " was indexed " + n + " times"));
      JsonNode results =
          ok(api.retrieval(
                  "search",
                  T,
                  "{\"corpus\": \"docs\", \"query\": \"weather\", \"revision\": "
                      + revision
                      + ", \"topK\": 100, \"maxChunksPerSource\": 1}"))
              .get("results");
      Map<String, Integer> seen = new HashMap<>();
      results.forEach(r -> seen.merge(r.get("source").asText(), 1, Integer::sum));
      assertEquals(bytes.keySet(), seen.keySet(), results::toString);
      for (var doc : number.entrySet()) {
        JsonNode own =
            ok(api.retrieval(
                    "search",
                    T,
                    "{\"corpus\": \"docs\", \"query\": \"wombat"
                        + doc.getValue()
                        + "\", \"revision\": "
                        + revision
                        + ", \"topK\": 100}"))
                .get("results");
        Set<String> sources = new HashSet<>();
        own.forEach(r -> sources.add(r.get("source").asText()));
        assertEquals(
            Set.of(doc.getKey()), sources, "only " + doc.getKey() + " holds its own word: " + own);
      }
    }
  }
}
