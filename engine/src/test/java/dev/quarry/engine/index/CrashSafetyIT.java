package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceState;
import dev.quarry.testing.TestSeed;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing process with SIGKILL at random moments and checks, after each kill, that every
 * acknowledged revision survived, that no source is half-written, and that revisions go on without
 * gaps.
 */
@ExtendWith(TestSeed.class)
class CrashSafetyIT {
  private static final int KILLS = 10;

  @TempDir Path tmp;

  @Test
  void sigkill_neverLosesAcknowledgedRevisions(Random random) throws Exception {
    long seed = random.nextLong();
    Path dir = tmp.resolve("index");
    Path log = tmp.resolve("receipts.log");
    long lastRevision = 0;
    for (int run = 0; run < KILLS; run++) {
      Process p =
          new ProcessBuilder(
                  javaBinary(),
                  "-Xmx256m",
                  "--enable-native-access=ALL-UNNAMED",
                  "-cp",
                  System.getProperty("java.class.path"),
                  CrashWriterMain.class.getName(),
                  dir.toString(),
                  log.toString(),
                  Long.toString(seed + run))
              .redirectErrorStream(true)
              .start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.equals("writing")) {
        System.out.println("writer: " + line);
      }
      assertEquals("writing", line, "the writer process did not start");
      // Kill at a random point of the receipt stream: after a random number of new receipts,
      // plus a random delay, so that kills land before, during and after commits.
      long target = lines(log) + 1 + random.nextInt(40);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (lines(log) < target && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(20);
      }
      Thread.sleep(random.nextInt(300));
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      lastRevision = verify(dir, log, lastRevision);
    }
    assertTrue(
        lines(log) >= KILLS, "the writer acknowledged too little to test anything: " + lines(log));
  }

  /** Checks the index against the receipt log; returns the recovered revision. */
  private long verify(Path dir, Path log, long previousRevision) throws IOException {
    List<String[]> receipts = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      String[] f = line.split(" ");
      if (f.length == 4) {
        receipts.add(f);
      }
    }
    long revision;
    try (CorpusIndex index =
        CorpusIndex.open(dir, CrashWriterMain.INFO, CrashWriterMain.config())) {
      revision = index.revision();
      assertTrue(
          revision >= previousRevision,
          "revision went back from " + previousRevision + " to " + revision);
      Map<Long, Set<String>> history = new HashMap<>();
      long after = 0;
      while (true) {
        HistoryPage page = index.history(after, 500, s -> true);
        for (HistoryEntry e : page.entries()) {
          history
              .computeIfAbsent(e.revision(), r -> new HashSet<>())
              .add(
                  e.source()
                      + " "
                      + e.operation()
                      + " "
                      + (e.contentSha256() == null ? "-" : e.contentSha256()));
        }
        if (page.nextAfter() == null) {
          break;
        }
        after = page.nextAfter();
      }
      for (long r = 1; r <= revision; r++) {
        assertTrue(
            history.containsKey(r), "revision " + r + " of " + revision + " has no history entry");
      }
      for (String[] rc : receipts) {
        long r = Long.parseLong(rc[0]);
        assertTrue(
            r <= revision,
            "acknowledged revision " + r + " is missing; the corpus is at " + revision);
        String status = rc[2];
        if (status.equals("INDEXED")) {
          assertTrue(
              history.get(r).contains(rc[1] + " index " + rc[3]),
              "acknowledged " + String.join(" ", rc) + " lost");
        } else if (status.equals("DELETED")) {
          assertTrue(
              history.get(r).contains(rc[1] + " delete -"),
              "acknowledged " + String.join(" ", rc) + " lost");
        }
      }
      // The next mutation continues without a gap.
      assertEquals(
          revision + 1,
          index
              .apply(
                  dev.quarry.engine.Mutation.of(
                      dev.quarry.engine.SourceOperation.Index.text(
                          "verified-" + revision,
                          null,
                          "checked after a kill at revision " + revision,
                          null),
                      "verifier"))
              .revision());
      revision++;
      List<SourceState> sources = new ArrayList<>();
      String cursor = null;
      do {
        SourcePage page = index.listSources(null, cursor, 500, s -> true);
        sources.addAll(page.sources());
        cursor = page.nextCursor();
      } while (cursor != null);
      checkWholeSources(dir, sources);
    }
    return revision;
  }

  /** Every live source record has exactly its chunks live beside it: nothing half-written. */
  private static void checkWholeSources(Path dir, List<SourceState> sources) throws IOException {
    try (FSDirectory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      IndexSearcher searcher =
          new IndexSearcher(
              new org.apache.lucene.index.SoftDeletesDirectoryReaderWrapper(
                  reader, Fields.SOFT_DELETES));
      int liveChunks = 0;
      for (SourceState s : sources) {
        int chunks =
            searcher.count(
                new org.apache.lucene.search.BooleanQuery.Builder()
                    .add(
                        new TermQuery(
                            new Term(
                                Fields.VERSION_KEY,
                                Fields.versionKey(s.source(), s.sourceRevision()))),
                        org.apache.lucene.search.BooleanClause.Occur.FILTER)
                    .add(
                        new TermQuery(new Term(Fields.KIND, Fields.KIND_CHUNK)),
                        org.apache.lucene.search.BooleanClause.Occur.FILTER)
                    .build());
        assertEquals(s.chunks(), chunks, "source " + s.source() + " is half-written");
        liveChunks += chunks;
      }
      assertEquals(
          liveChunks,
          searcher.count(new TermQuery(new Term(Fields.KIND, Fields.KIND_CHUNK))),
          "live chunks exist without a live source record");
    }
  }

  private static long lines(Path log) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    try (var s = Files.lines(log)) {
      return s.count();
    }
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }
}
