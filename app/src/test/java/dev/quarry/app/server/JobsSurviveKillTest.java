package dev.quarry.app.server;

import static dev.quarry.api.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.ApiClient;
import dev.quarry.api.TestTokens;
import dev.quarry.app.ServerProcess;
import dev.quarry.engine.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job survives {@code kill -9} of its server: killed while the job is ingesting, the server is
 * started again on the same data folder and the job finishes with every acknowledged file indexed
 * exactly once (one history entry per source) and none lost.
 */
class JobsSurviveKillTest {
  static final String T = TestTokens.ADMIN;
  static final int FILES = 60;

  @TempDir
  Path dir;

  /** A document of some size, so a file takes long enough to ingest for the kill to land mid-job. */
  static byte[] document(int i) {
    StringBuilder text = new StringBuilder("# Document " + i + "\n\n");
    for (int p = 0; p < 400; p++) {
      text.append("Paragraph ").append(p).append(" of document ").append(i)
          .append(" talks about wombat").append(i).append(" and the weather in a long sentence.\n\n");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void killedMidJob_restarted_everyAcknowledgedFileIndexedExactlyOnce() throws Exception {
    Path tokens = TestTokens.write(dir);
    Path data = dir.resolve("data");
    Path config = Files.writeString(dir.resolve("config.json"),
        "{\"extraction\": {\"workers\": 1}, \"jobs\": {\"workers\": 1}}");
    List<String> sources = IntStream.range(0, FILES).mapToObj(i -> "kill/doc-" + i + ".md").toList();
    List<byte[]> bytes = IntStream.range(0, FILES).mapToObj(JobsSurviveKillTest::document).toList();
    String id;
    int indexedBeforeKill;
    ServerProcess first = ServerProcess.serve(data, tokens, config, 384);
    try {
      ApiClient api = first.client();
      ok(api.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
      JsonNode job = ok(JobsOverHttpTest.submit(api, T, "docs", sources, bytes)).get("job");
      id = job.get("id").asText();
      assertEquals(FILES, job.at("/counts/files").asInt());
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (true) {
        JsonNode counts = ok(JobsOverHttpTest.read(api, T, id)).at("/job/counts");
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
    assertTrue(indexedBeforeKill < FILES, "the kill landed before the job ended (" + indexedBeforeKill + " of "
        + FILES + " indexed)");

    try (ServerProcess second = ServerProcess.serve(data, tokens, config, 384)) {
      ApiClient api = second.client();
      JsonNode ended = JobsOverHttpTest.awaitEnd(api, T, id);
      JsonNode counts = ended.at("/job/counts");
      assertEquals("completed", ended.at("/job/state").asText(), ended::toString);
      assertEquals(FILES, counts.get("indexed").asInt(), counts::toString);
      JsonNode all = ok(api.retrieval("jobs/read", T, "{\"job\": \"" + id + "\", \"limit\": 1000}"));
      assertEquals(FILES, all.get("files").size());
      for (int i = 0; i < FILES; i++) {
        JsonNode f = all.get("files").get(i);
        assertEquals("indexed", f.get("status").asText(), f::toString);
        JsonNode source = ok(api.retrieval("sources/read", T,
            "{\"corpus\": \"docs\", \"source\": \"" + sources.get(i) + "\"}"));
        assertEquals(Sha256.of(bytes.get(i)), source.get("contentSha256").asText());
        assertEquals(f.at("/receipt/sourceRevision").asLong(), source.get("sourceRevision").asLong(),
            "the receipt names the revision the source holds");
      }
      // Exactly once: one history entry per source, and one revision per file.
      Map<String, Integer> entries = new HashMap<>();
      JsonNode history = ok(api.retrieval("corpora/history", T, "{\"corpus\": \"docs\", \"limit\": 1000}"));
      history.get("entries").forEach(e -> entries.merge(e.get("source").asText(), 1, Integer::sum));
      assertEquals(FILES, entries.size(), entries::toString);
      entries.forEach((source, n) -> assertEquals(1, n, source + " was indexed " + n + " times"));
      assertEquals(FILES, ok(api.retrieval("corpora/read", T, "{\"corpus\": \"docs\"}")).get("revision").asLong());
    }
  }
}
