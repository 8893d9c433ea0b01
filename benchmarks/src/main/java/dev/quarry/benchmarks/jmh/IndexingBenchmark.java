package dev.quarry.benchmarks.jmh;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Filler;
import dev.quarry.benchmarks.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

/**
 * Bulk indexing: each operation indexes one batch of {@code batchSize} new sources in one step
 * (Quarry: one mutation, one revision; Lucene: add the chunk documents, commit, refresh) into an
 * index that already holds {@code initialChunks} chunks. Run with one writer thread and with two.
 *
 * <p>Batches reuse the text of a pool of {@code poolDocuments} corpus documents under new source
 * ids, so documents are not generated inside the measured operation. The {@link IndexedVolume}
 * counters turn batches into documents/s and UTF-8 bytes of text/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IndexingBenchmark {
  @Param({"lucene", "quarry"})
  public String contender;

  @Param("generated")
  public String corpus;

  @Param("42")
  public long seed;

  @Param("100")
  public int batchSize;

  @Param("0")
  public long initialChunks;

  @Param("2000")
  public int poolDocuments;

  private Path dir;
  private Contender target;
  private List<SourceDocument> pool;
  private int[] poolTextBytes;
  private final AtomicLong nextBatch = new AtomicLong();

  @Setup(Level.Trial)
  public void openIndex() throws IOException {
    Corpus documents = Corpus.fromSpec(corpus, seed);
    pool = new ArrayList<>(poolDocuments);
    poolTextBytes = new int[poolDocuments];
    for (int i = 0; i < poolDocuments; i++) {
      SourceDocument document = documents.document(i);
      pool.add(document);
      poolTextBytes[i] = document.textUtf8Bytes();
    }
    dir = Workspace.newDirectory("indexing-" + contender);
    target = ContenderKind.fromParam(contender).open(dir);
    // The pre-filled sources come after the pool in the corpus, so no text is in both.
    Filler.fill(target, documents, poolDocuments, initialChunks);
  }

  @TearDown(Level.Trial)
  public void deleteIndex() throws IOException {
    target.close();
    Workspace.delete(dir);
  }

  @Benchmark
  public void indexBatch(IndexedVolume volume) throws IOException {
    long batch = nextBatch.getAndIncrement();
    List<SourceDocument> documents = new ArrayList<>(batchSize);
    long textBytes = 0;
    for (int i = 0; i < batchSize; i++) {
      int poolIndex = (int) ((batch * batchSize + i) % poolDocuments);
      documents.add(pool.get(poolIndex).withId("batch-" + batch + "-" + i));
      textBytes += poolTextBytes[poolIndex];
    }
    target.indexBatch(documents);
    volume.documents += batchSize;
    volume.textBytes += textBytes;
  }

  /** Per-thread counts of what was indexed; JMH reports them per second beside batches/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class IndexedVolume {
    public long documents;
    public long textBytes;

    @Setup(Level.Iteration)
    public void reset() {
      documents = 0;
      textBytes = 0;
    }
  }
}
