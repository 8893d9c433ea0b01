package dev.quarry.benchmarks.jmh;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.PrebuiltIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Search latency: each operation is one search (top 10, highlights, provenance) for a query of
 * one to three words from {@link QueryMix}, over an index of at least {@code chunks} chunks.
 * Sample-time mode records the latency distribution, from which the harness reports p50 and p99.
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

  @Param("1000")
  public int queries;

  private Contender target;
  private QueryMix mix;

  @Setup(Level.Trial)
  public void openIndex() throws IOException {
    Corpus documents = Corpus.fromSpec(corpus, seed);
    ContenderKind kind = ContenderKind.fromParam(contender);
    PrebuiltIndex index = PrebuiltIndex.obtain(kind, documents, chunks);
    int sampled = (int) Math.min(index.filling().documents(), QUERY_SAMPLE_DOCUMENTS);
    List<SourceDocument> sample = new ArrayList<>(sampled);
    for (int i = 0; i < sampled; i++) {
      sample.add(documents.document(i));
    }
    mix = QueryMix.from(sample, queries, seed);
    target = kind.open(index.dir());
  }

  @TearDown(Level.Trial)
  public void closeIndex() throws IOException {
    target.close();
  }

  @Benchmark
  public Object search(QueryCursor cursor) throws IOException {
    return target.search(mix.query(cursor.next++));
  }

  /** Where each thread is in the query list; threads start far apart so they ask different queries. */
  @State(Scope.Thread)
  public static class QueryCursor {
    private static final long THREAD_STRIDE = 7_919;
    long next;

    @Setup(Level.Trial)
    public void start(ThreadParams thread) {
      next = thread.getThreadIndex() * THREAD_STRIDE;
    }
  }
}
