package dev.quarry.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.Hit;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Waits for what the indexer did, never for how fast: the machine may be busy with other work. */
class PacedIndexerTest {
  /** Long enough for a few batches on a saturated machine; a pass takes milliseconds. */
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** Document {@code n} holds the word {@code markern}, found in no other document. */
  private static final Corpus MARKED =
      new Corpus() {
        @Override
        public SourceDocument document(long ordinal) {
          return new SourceDocument(
              "doc-" + ordinal, null, "Shared words in every document, and marker" + ordinal + ".");
        }

        @Override
        public String describe() {
          return "marked";
        }
      };

  @Test
  void indexesNewDocumentsFromTheFirstOrdinal_inBatches_andStopsOnRequest() throws Exception {
    RecordingContender target = new RecordingContender();
    PacedIndexer indexer = new PacedIndexer(target, MARKED, 100, 1_000, 5);
    indexer.start();
    awaitTrue(() -> target.batches.size() >= 3);
    indexer.stop();

    int batches = target.batches.size();
    assertEquals(5L * batches, indexer.indexedDocuments());
    for (int b = 0; b < batches; b++) {
      List<String> ids = target.batches.get(b).stream().map(SourceDocument::id).toList();
      assertEquals(
          List.of(
              "doc-" + (100 + 5 * b),
              "doc-" + (101 + 5 * b),
              "doc-" + (102 + 5 * b),
              "doc-" + (103 + 5 * b),
              "doc-" + (104 + 5 * b)),
          ids);
    }
    Thread.sleep(50);
    assertEquals(batches, target.batches.size(), "no batch after stop");
  }

  @Test
  void documentsIndexedInTheBackground_becomeSearchable(@TempDir Path dir) throws Exception {
    try (Contender quarry = ContenderKind.QUARRY.open(dir.resolve("index"))) {
      PacedIndexer indexer = new PacedIndexer(quarry, MARKED, 0, 200, 2);
      indexer.start();
      awaitTrue(() -> indexer.indexedDocuments() >= 4);
      indexer.stop();

      for (int n = 0; n < 4; n++) {
        List<?> hits = quarry.search("marker" + n);
        assertEquals(1, hits.size(), "marker" + n);
        assertEquals("doc-" + n, ((Hit) hits.get(0)).source());
      }
    }
  }

  @Test
  void aFailingBatch_stopsTheThread_andIsThrownByCheckAndStop() throws Exception {
    RecordingContender target = new RecordingContender();
    target.failAfter = 2;
    PacedIndexer indexer = new PacedIndexer(target, MARKED, 0, 1_000, 1);
    indexer.start();
    awaitTrue(
        () -> {
          try {
            indexer.checkHealthy();
            return false;
          } catch (IOException e) {
            return true;
          }
        });
    IOException stopped = assertThrows(IOException.class, indexer::stop);
    assertInstanceOf(IllegalStateException.class, stopped.getCause());
    assertTrue(stopped.getMessage().contains("after 2 documents"), stopped.getMessage());
    assertEquals(2, target.batches.size());
  }

  @Test
  void aRateOrBatchBelowOne_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PacedIndexer(new RecordingContender(), MARKED, 0, 0, 10));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PacedIndexer(new RecordingContender(), MARKED, 0, 10, 0));
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not done within " + PATIENCE);
      Thread.sleep(5);
    }
  }

  /** Keeps the batches it is given; fails every batch after {@code failAfter} when set. */
  private static final class RecordingContender implements Contender {
    final List<List<SourceDocument>> batches = new CopyOnWriteArrayList<>();
    volatile int failAfter = Integer.MAX_VALUE;

    @Override
    public void indexBatch(List<SourceDocument> documents) {
      if (batches.size() >= failAfter) {
        throw new IllegalStateException("disk full");
      }
      batches.add(List.copyOf(documents));
    }

    @Override
    public List<?> search(String query) {
      return List.of();
    }

    @Override
    public void close() {}
  }
}
