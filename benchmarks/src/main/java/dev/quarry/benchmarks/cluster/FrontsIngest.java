package dev.quarry.benchmarks.cluster;

import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.cluster.OpenSearchCorpusStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Bulk ingest through one front, then through two at once. A front is an {@link
 * OpenSearchCorpusStore} of its own (its own HTTP client, open corpora and writer-lease owner),
 * writing from a thread of its own: the store keeps no state beyond that, so two stores in one JVM
 * share only the JVM's cores and heap, as two processes on one machine share its cores; a process
 * each would add a JVM start and a second JIT warm-up, not a different path to the cluster.
 *
 * <p>Two layouts: a corpus per front (how the cluster scales when different corpora are written at
 * once), and both fronts writing one corpus (one revision at a time: the fronts take turns through
 * the corpus's writer lease for the write itself, while what a front does before it, such as
 * chunking, overlaps the other front's write). Every front writes {@code batches} batches of new
 * sources in both runs, so two fronts write twice the documents.
 */
final class FrontsIngest {
  /**
   * Documents per second: one front alone, and two fronts together (their documents over the wall
   * time).
   */
  record Rates(double oneFront, double twoFronts) {}

  private final Corpus corpus;
  private final int batchSize;
  private final int batches;

  FrontsIngest(Corpus corpus, int batchSize, int batches) {
    this.corpus = corpus;
    this.batchSize = batchSize;
    this.batches = batches;
  }

  /**
   * One front into a new corpus, then two fronts at once into new corpora: one each when {@code
   * corpusPerFront}, else one they share. Every corpus is deleted at the end.
   *
   * @param names a new corpus name for each call
   */
  Rates measure(
      OpenSearchCorpusStore first,
      OpenSearchCorpusStore second,
      boolean corpusPerFront,
      Supplier<String> names)
      throws Exception {
    List<ClusterStoreFront> created = new ArrayList<>();
    try {
      ClusterStoreFront alone = ClusterStoreFront.create(first, names.get());
      created.add(alone);
      long start = System.nanoTime();
      write(alone, "alone");
      double oneFront = (double) batches * batchSize * 1e9 / (System.nanoTime() - start);

      ClusterStoreFront a = ClusterStoreFront.create(first, names.get());
      created.add(a);
      ClusterStoreFront b;
      if (corpusPerFront) {
        b = ClusterStoreFront.create(second, names.get());
        created.add(b);
      } else {
        b = ClusterStoreFront.open(second, a.corpusName());
      }
      ExecutorService fronts = Executors.newFixedThreadPool(2);
      try {
        start = System.nanoTime();
        Future<?> fa = fronts.submit(() -> write(a, "a"));
        Future<?> fb = fronts.submit(() -> write(b, "b"));
        fa.get();
        fb.get();
      } finally {
        fronts.shutdownNow();
      }
      double twoFronts = 2.0 * batches * batchSize * 1e9 / (System.nanoTime() - start);
      return new Rates(oneFront, twoFronts);
    } finally {
      for (ClusterStoreFront front : created) {
        front.delete();
      }
    }
  }

  /**
   * Writes the batches, each source named after the front, so two fronts on one corpus never
   * replace each other's.
   */
  private Void write(ClusterStoreFront front, String tag) {
    for (int batch = 0; batch < batches; batch++) {
      List<SourceDocument> documents = new ArrayList<>(batchSize);
      for (int i = 0; i < batchSize; i++) {
        documents.add(
            corpus.document((long) batch * batchSize + i).withId(tag + "-" + batch + "-" + i));
      }
      front.indexBatch(documents);
    }
    return null;
  }
}
