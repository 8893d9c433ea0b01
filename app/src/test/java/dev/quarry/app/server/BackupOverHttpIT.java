package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup taken over HTTP while two writers keep indexing, restored with {@code quarry restore}
 * into a new data folder and served by a new server process: it holds every receipt acknowledged
 * before the backup began, keeps each corpus's corpusId, and answers pinned searches as the
 * original did.
 */
class BackupOverHttpIT {
  private static final List<String> CORPORA = List.of("c1", "c2");

  @TempDir Path dir;

  /** A receipt a writer got back: the source holds the unique word {@code marker}. */
  private record Acknowledged(String corpus, String source, long revision, String marker) {}

  @Test
  void aBackupTakenDuringIngestionRestoresEveryAcknowledgedReceiptAndAnswersPinnedSearchesAlike()
      throws Exception {
    Path backups = dir.resolve("backups");
    Path config =
        Files.writeString(dir.resolve("config.json"), ServerProcess.backupConfig(backups));
    Path tokens = TestTokens.write(dir);
    List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
    List<Acknowledged> beforeBackup;
    JsonNode manifest;
    Map<String, JsonNode> pinnedBefore = new HashMap<>();
    Map<String, String> corpusIds = new HashMap<>();
    try (ServerProcess server = ServerProcess.serve(dir.resolve("data"), tokens, config)) {
      ApiClient api = server.client();
      for (String c : CORPORA) {
        corpusIds.put(
            c,
            ApiClient.ok(
                    api.retrieval(
                        "corpora/create", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}"))
                .get("corpusId")
                .asText());
      }
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      List<Throwable> failures = new CopyOnWriteArrayList<>();
      for (String c : CORPORA) {
        Thread t =
            new Thread(
                () -> {
                  ApiClient own = new ApiClient(server.url());
                  for (int i = 0; !stop.get(); i++) {
                    String marker = "marker" + c + "x" + i;
                    // Sources are replaced as well as added, so past revisions differ from the
                    // latest.
                    String source = "doc-" + (i % 7);
                    try {
                      JsonNode receipt =
                          ApiClient.ok(
                              own.retrieval(
                                  "sources/index",
                                  TestTokens.ADMIN,
                                  "{\"corpus\": \""
                                      + c
                                      + "\", \"source\": \""
                                      + source
                                      + "\", \"text\": \"shared words about backups "
                                      + "and "
                                      + marker
                                      + " in revision order\"}"));
                      acknowledged.add(
                          new Acknowledged(c, source, receipt.get("revision").asLong(), marker));
                    } catch (Throwable e) {
                      failures.add(e);
                      return;
                    }
                  }
                },
                "writer-" + c);
        t.start();
        writers.add(t);
      }
      awaitWhileWriting(() -> acknowledged.size() >= 20, failures, "20 receipts before the backup");
      beforeBackup = List.copyOf(acknowledged);
      Answer backup =
          api.post("/v1/admin/backup")
              .token(TestTokens.ADMIN)
              .json("{\"name\": \"nightly-1\"}")
              .send();
      int afterBackup = acknowledged.size();
      // Writes go on after the backup too: the writers were writing before, during and after it.
      awaitWhileWriting(
          () -> acknowledged.size() > afterBackup, failures, "a receipt after the backup answered");
      stop.set(true);
      for (Thread t : writers) {
        t.join(60_000);
        assertFalse(t.isAlive(), t.getName() + " did not stop");
      }
      assertTrue(failures.isEmpty(), () -> "a writer failed: " + failures);
      assertEquals(200, backup.status(), backup::toString);
      manifest = backup.json();
      assertTrue(
          acknowledged.size() > afterBackup || afterBackup > beforeBackup.size(),
          "writes went on while the backup was taken");

      Answer again =
          api.post("/v1/admin/backup")
              .token(TestTokens.ADMIN)
              .json("{\"name\": \"nightly-1\"}")
              .send();
      assertEquals(409, again.status(), again::toString);
      assertEquals("BACKUP_EXISTS", again.code());
      Answer narrow =
          api.post("/v1/admin/backup")
              .token(TestTokens.C2_ONLY)
              .json("{\"name\": \"mine\"}")
              .send();
      assertEquals(403, narrow.status(), narrow::toString);
      Answer badName =
          api.post("/v1/admin/backup").token(TestTokens.ADMIN).json("{\"name\": \"../up\"}").send();
      assertEquals(400, badName.status(), badName::toString);
      assertEquals("name", badName.field());

      for (JsonNode c : manifest.get("corpora")) {
        String corpus = c.get("corpus").asText();
        assertEquals(corpusIds.get(corpus), c.get("corpusId").asText());
        long latestBefore =
            beforeBackup.stream()
                .filter(a -> a.corpus().equals(corpus))
                .mapToLong(Acknowledged::revision)
                .max()
                .orElse(0);
        assertTrue(
            c.get("revision").asLong() >= latestBefore,
            () -> corpus + " backed up at " + c + ", before a receipt of revision " + latestBefore);
        for (long revision : List.of(c.get("revision").asLong(), c.get("revision").asLong() / 2)) {
          pinnedBefore.put(corpus + "@" + revision, pinnedSearch(api, corpus, revision));
        }
      }
      assertEquals(CORPORA.size(), manifest.get("corpora").size(), manifest::toString);
    }

    Path backup = backups.resolve("nightly-1");
    ServerProcess.Ended intoUsed =
        ServerProcess.run(
            List.of(
                "restore", "--from", backup.toString(), "--data", dir.resolve("data").toString()));
    assertEquals(2, intoUsed.exitCode(), intoUsed::stderr);
    assertTrue(intoUsed.stderr().contains("is not empty"), intoUsed::stderr);

    Path restored = dir.resolve("restored");
    ServerProcess.Ended restore =
        ServerProcess.run(
            List.of("restore", "--from", backup.toString(), "--data", restored.toString()));
    assertEquals(0, restore.exitCode(), restore::stderr);

    try (ServerProcess server = ServerProcess.serve(restored, tokens, null)) {
      ApiClient api = server.client();
      for (Acknowledged a : beforeBackup) {
        JsonNode found =
            ApiClient.ok(
                api.retrieval(
                    "search",
                    TestTokens.ADMIN,
                    "{\"corpus\": \""
                        + a.corpus()
                        + "\", \"query\": \""
                        + a.marker()
                        + "\", \"revision\": "
                        + a.revision()
                        + "}"));
        assertEquals(
            a.source(),
            found.at("/results/0/source").asText(),
            () -> a + " is not in the restored corpus");
      }
      for (JsonNode c : manifest.get("corpora")) {
        String corpus = c.get("corpus").asText();
        JsonNode read =
            ApiClient.ok(
                api.retrieval(
                    "corpora/read", TestTokens.ADMIN, "{\"corpus\": \"" + corpus + "\"}"));
        assertEquals(corpusIds.get(corpus), read.get("corpusId").asText(), "the corpusId is kept");
        assertEquals(c.get("revision").asLong(), read.get("revision").asLong());
      }
      for (Map.Entry<String, JsonNode> e : pinnedBefore.entrySet()) {
        String[] at = e.getKey().split("@");
        assertEquals(
            e.getValue(),
            pinnedSearch(api, at[0], Long.parseLong(at[1])),
            "pinned search " + e.getKey());
      }
    }
  }

  @Test
  void withoutABackupDirectoryBackupsAreOff() {
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), null)) {
      Answer off =
          server
              .client()
              .post("/v1/admin/backup")
              .token(TestTokens.ADMIN)
              .json("{\"name\": \"n\"}")
              .send();
      assertEquals(404, off.status(), off::toString);
      assertTrue(
          off.json().at("/error/message").asText().contains("backup.directory"), off::toString);
      Answer anonymous = server.client().post("/v1/admin/backup").json("{\"name\": \"n\"}").send();
      assertEquals(401, anonymous.status(), anonymous::toString);
    }
  }

  /**
   * Waits until {@code reached}, or a writer failed; fails after two minutes (a bound on a hang,
   * not on speed).
   */
  private static void awaitWhileWriting(
      BooleanSupplier reached, List<Throwable> failures, String what) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!reached.getAsBoolean() && failures.isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the writers never got to " + what);
      Thread.sleep(20);
    }
  }

  /**
   * The results (sources, chunks, scores, texts, highlights) of a pinned search, without its
   * timing.
   */
  private static JsonNode pinnedSearch(ApiClient api, String corpus, long revision) {
    JsonNode answer =
        ApiClient.ok(
            api.retrieval(
                "search",
                TestTokens.ADMIN,
                "{\"corpus\": \""
                    + corpus
                    + "\", \"query\": \"shared backups revision marker"
                    + corpus
                    + "x3\", \"revision\": "
                    + revision
                    + ", \"topK\": 20}"));
    assertEquals(revision, answer.get("revision").asLong());
    return answer.get("results");
  }
}
