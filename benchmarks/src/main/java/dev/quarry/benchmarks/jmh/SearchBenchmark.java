package dev.quarry.benchmarks.jmh;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Filling;
import dev.quarry.benchmarks.fixture.PrebuiltIndex;
import dev.quarry.benchmarks.fixture.TrialIndex;
import dev.quarry.benchmarks.load.PacedIndexer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Search latency: each operation is one search (top 10, highlights, provenance) for a query of one
 * to three words from {@link QueryMix}, or, with {@code querySet} naming a file, for the real
 * queries of that file in turn ({@link QueryFile}), over an index of at least {@code chunks}
 * chunks. Sample-time mode records the latency distribution, from which the harness reports p50 and
 * p99.
 *
 * <p>With {@code grant} naming sources, each search is by a token granted only them: scoped to them
 * and scored with their own statistics (beside {@code grant=all}, the cost of a restricted token).
 *
 * <p>With {@code indexingDocsPerSecond} above 0 the searches run under concurrent indexing: the
 * trial searches its own copy of the prebuilt index ({@link TrialIndex}, deleted at the end) while
 * a {@link PacedIndexer} adds new documents to it in batches of {@code indexingBatchSize}, at that
 * rate, from the trial's set-up to its tear-down, warm-up included. The {@link ConcurrentIndexing}
 * counters record how many documents the indexer got in during each iteration, so the report can
 * show the rate achieved beside the latencies. A failure of the indexer fails the trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SearchBenchmark {
  /** Queries are drawn from the words of at most this many of the indexed documents. */
  static final int QUERY_SAMPLE_DOCUMENTS = 5_000;

  @Param({"lucene", "quarry"})
  public String contender;

  @Param("generated")
  public String corpus;

  @Param("42")
  public long seed;

  @Param("10000")
  public long chunks;

  /** Distinct generated queries; unused when {@code querySet} names a file. */
  @Param("1000")
  public int queries;

  /** {@code generated} ({@link QueryMix}) or {@code jsonl:<path>}: a BEIR {@code queries.jsonl}. */
  @Param(QueryFile.GENERATED)
  public String querySet;

  /** Documents per second indexed beside the searches; 0 searches an idle index. */
  @Param("0")
  public int indexingDocsPerSecond;

  /** Documents per batch of the concurrent indexing: small, as live updates come. */
  @Param("10")
  public int indexingBatchSize;

  /**
   * The searching token's grant: {@code all} (every source: the corpus's statistics), or its source
   * entries separated by {@code ;} (ids, prefixes ending in {@code *}): then only they are
   * searched, with statistics over their visible chunks alone, as the server searches for a token
   * granted them. The generated corpus names its sources {@code doc-<n>}, so {@code
   * doc-1*;doc-2*;doc-3*} grants about a third of them. Quarry's engine only.
   */
  @Param("all")
  public String grant = "all";

  /**
   * With a grant: {@code true} scores with the grant's own statistics (what the server does);
   * {@code false} with every source's, as before they were the grant's, so the two set the cost of
   * counting them apart from that of the grant's scope filter.
   */
  @Param("true")
  public boolean grantStatistics = true;

  private Contender target;

  /** The queries asked, in turn. */
  private List<String> queryTexts;

  /** The grant's source entries, or null for every source. */
  private List<String> granted;

  /** The trial's own index when it indexes, else null (the prebuilt index is searched as it is). */
  private TrialIndex trialIndex;

  /** The concurrent indexing, or null when there is none. */
  private PacedIndexer indexer;

  @Setup(Level.Trial)
  public void openIndex() throws IOException {
    Corpus documents = Corpus.fromSpec(corpus, seed);
    ContenderKind kind = ContenderKind.fromParam(contender);
    Path dir;
    Filling filling;
    if (indexingDocsPerSecond > 0) {
      trialIndex = TrialIndex.create(kind, documents, chunks);
      dir = trialIndex.dir();
      filling = trialIndex.filling();
    } else {
      PrebuiltIndex index = PrebuiltIndex.obtain(kind, documents, chunks);
      dir = index.dir();
      filling = index.filling();
    }
    // Queries come from the documents indexed before the trial, so the concurrent indexing does
    // not change what is asked, only what is found.
    int sampled = (int) Math.min(filling.documents(), QUERY_SAMPLE_DOCUMENTS);
    List<SourceDocument> sample = new ArrayList<>(sampled);
    for (int i = 0; i < sampled; i++) {
      sample.add(documents.document(i));
    }
    queryTexts =
        QueryFile.isFile(querySet)
            ? QueryFile.load(QueryFile.path(querySet))
            : QueryMix.from(sample, queries, seed).queries();
    granted = grant.equals("all") ? null : List.of(grant.split(";"));
    target = kind.open(dir);
    if (indexingDocsPerSecond > 0) {
      indexer =
          new PacedIndexer(
              target, documents, filling.documents(), indexingDocsPerSecond, indexingBatchSize);
      indexer.start();
    }
  }

  /** Fails the trial at the end of the iteration in which the concurrent indexing failed. */
  @TearDown(Level.Iteration)
  public void checkIndexing() throws IOException {
    if (indexer != null) {
      indexer.checkHealthy();
    }
  }

  @TearDown(Level.Trial)
  public void closeIndex() throws IOException, InterruptedException {
    try {
      if (indexer != null) {
        indexer.stop();
      }
    } finally {
      indexer = null;
      try {
        target.close();
      } finally {
        if (trialIndex != null) {
          trialIndex.delete();
          trialIndex = null;
        }
      }
    }
  }

  /** The concurrent indexing of this trial, or null when it searches an idle index. */
  PacedIndexer indexer() {
    return indexer;
  }

  @Benchmark
  public Object search(QueryCursor cursor, ConcurrentIndexing indexing) throws IOException {
    String query = queryTexts.get((int) Math.floorMod(cursor.next++, (long) queryTexts.size()));
    return granted == null ? target.search(query) : target.search(query, granted, grantStatistics);
  }

  /**
   * Where each thread is in the query list; threads start far apart so they ask different queries.
   */
  @State(Scope.Thread)
  public static class QueryCursor {
    private static final long THREAD_STRIDE = 7_919;
    long next;

    @Setup(Level.Trial)
    public void start(ThreadParams thread) {
      next = thread.getThreadIndex() * THREAD_STRIDE;
    }
  }

  /**
   * What the concurrent indexing did during one iteration, as JMH secondary results: documents
   * indexed, the milliseconds they were indexed in, and batches that started late. Only thread 0
   * counts (the others report 0), so JMH's sum over threads is the indexer's own count with 1 or 2
   * search threads; documents over milliseconds is the achieved rate however JMH then combines
   * iterations and forks, since it combines both counters alike. All 0 without concurrent indexing.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class ConcurrentIndexing {
    public long indexedDocuments;
    public long indexingMillis;
    public long lateBatches;

    private PacedIndexer indexer;
    private long documentsBefore;
    private long lateBefore;
    private long startNanos;

    @Setup(Level.Iteration)
    public void openWindow(SearchBenchmark benchmark, ThreadParams thread) {
      indexedDocuments = 0;
      indexingMillis = 0;
      lateBatches = 0;
      indexer = thread.getThreadIndex() == 0 ? benchmark.indexer() : null;
      if (indexer != null) {
        documentsBefore = indexer.indexedDocuments();
        lateBefore = indexer.lateBatches();
        startNanos = System.nanoTime();
      }
    }

    @TearDown(Level.Iteration)
    public void closeWindow() {
      if (indexer != null) {
        indexingMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        indexedDocuments = indexer.indexedDocuments() - documentsBefore;
        lateBatches = indexer.lateBatches() - lateBefore;
      }
    }
  }
}
