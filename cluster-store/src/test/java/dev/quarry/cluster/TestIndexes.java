package dev.quarry.cluster;

import dev.quarry.testing.OpenSearchNodes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cluster tests' share of the one test node: each test's indexes under a prefix of its own, so
 * tests (and runs) never see each other's corpora, and its stores closed after it.
 */
final class TestIndexes {
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private TestIndexes() {}

  /**
   * A fresh index prefix starting with {@code label}: unique in this JVM, and across runs likely.
   */
  static String prefix(String label) {
    return "t-" + label + "-" + PREFIXES.incrementAndGet() + "-" + System.nanoTime() % 100000;
  }

  /** Settings for the single test node, no replicas, under a {@link #prefix} of {@code label}. */
  static OpenSearchSettings onSingleNode(String label) throws Exception {
    return OpenSearchSettings.of(OpenSearchNodes.single().urls())
        .withReplicas(0)
        .withPrefix(prefix(label));
  }

  /** Closes each store that was opened (a null is one a failed set-up never made). */
  static void close(OpenSearchCorpusStore... stores) {
    for (OpenSearchCorpusStore s : stores) {
      if (s != null) {
        s.close();
      }
    }
  }
}
