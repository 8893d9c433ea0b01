package dev.quarry.benchmarks.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.GeneratedCorpus;
import dev.quarry.benchmarks.fixture.PrebuiltIndex;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.load.PacedIndexer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The search trial's set-up and tear-down under concurrent indexing, called as JMH calls them, on
 * the in-process contenders at a tiny size: the trial indexes into its own copy and leaves the
 * prebuilt index as it was.
 */
class SearchBenchmarkTest {
  private static final long CHUNKS = 50;

  @TempDir Path workspace;
  private String previousWorkspace;

  @BeforeEach
  void useTemporaryWorkspace() {
    previousWorkspace = System.getProperty(Workspace.PROPERTY);
    System.setProperty(Workspace.PROPERTY, workspace.toString());
  }

  @AfterEach
  void restoreWorkspace() {
    if (previousWorkspace == null) {
      System.clearProperty(Workspace.PROPERTY);
    } else {
      System.setProperty(Workspace.PROPERTY, previousWorkspace);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ContenderKind.class,
      names = {"QUARRY", "LUCENE"})
  void underIndexing_indexesIntoATrialCopy_deletedAtTearDown(ContenderKind kind) throws Exception {
    Corpus corpus = new GeneratedCorpus(7);
    PrebuiltIndex prebuilt = PrebuiltIndex.obtain(kind, corpus, CHUNKS);
    List<String> prebuiltFiles = files(prebuilt.dir());

    SearchBenchmark trial = trial(kind, 200);
    trial.openIndex();
    PacedIndexer indexer = trial.indexer();
    assertNotNull(indexer);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (indexer.indexedDocuments() < 20 && System.nanoTime() < deadline) {
      assertNotNull(
          trial.search(
              new SearchBenchmark.QueryCursor(), new SearchBenchmark.ConcurrentIndexing()));
      trial.checkIndexing();
    }
    trial.closeIndex();

    assertTrue(indexer.indexedDocuments() >= 20, "indexed " + indexer.indexedDocuments());
    assertEquals(prebuiltFiles, files(prebuilt.dir()), "the prebuilt index is left as built");
    try (Stream<Path> left = Files.list(workspace)) {
      assertEquals(
          List.of(prebuilt.dir().getParent()), left.toList(), "the trial's copy is deleted");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ContenderKind.class,
      names = {"QUARRY", "LUCENE"})
  void idle_searchesThePrebuiltIndex_withoutIndexer(ContenderKind kind) throws Exception {
    SearchBenchmark trial = trial(kind, 0);
    trial.openIndex();
    assertNull(trial.indexer());
    trial.checkIndexing();
    trial.closeIndex();
    try (Stream<Path> left = Files.list(workspace)) {
      assertEquals(1, left.count(), "only the prebuilt index");
    }
  }

  private static SearchBenchmark trial(ContenderKind kind, int docsPerSecond) {
    SearchBenchmark trial = new SearchBenchmark();
    trial.contender = kind.param();
    trial.corpus = Corpus.GENERATED;
    trial.seed = 7;
    trial.chunks = CHUNKS;
    trial.queries = 20;
    trial.indexingDocsPerSecond = docsPerSecond;
    trial.indexingBatchSize = 5;
    return trial;
  }

  /** The names and sizes of the files under {@code dir}, sorted. */
  private static List<String> files(Path dir) throws Exception {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths
          .filter(Files::isRegularFile)
          .map(
              p -> {
                try {
                  return dir.relativize(p) + " " + Files.size(p);
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .sorted()
          .toList();
    }
  }
}
