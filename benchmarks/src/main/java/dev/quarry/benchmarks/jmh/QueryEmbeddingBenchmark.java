package dev.quarry.benchmarks.jmh;

import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.corpus.Scifact;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.embedding.IngestServer;
import dev.quarry.benchmarks.embedding.Passages;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.Embedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The latency of embedding a search's query (SciFact's claims, each once: a number after it keeps
 * the process's query cache from answering) while the same server ingests into a hybrid corpus of
 * the same model, against the same with the server idle: {@code ingestClients} HTTP clients in this
 * JVM (0: idle; 2: every core of a 2-core machine busy embedding passages) send {@code
 * sources/batch} requests of 8 new SciFact documents each, back to back, for the whole trial. The
 * query runs through the embedder a search uses ({@link Models#all()}, the same model session the
 * server's passage pool runs), on the benchmark's thread as on a request thread. The target: p99
 * while ingesting under twice p99 idle. The counter {@code ingestedPassages} says how much
 * ingestion went on beside.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class QueryEmbeddingBenchmark {
  @Param({"bge-small-en-v1.5"})
  public String model;

  @Param({"0", "2"})
  public int ingestClients;

  /**
   * What the clients ingest into: {@code hybrid} (a corpus of the same model: passage calls beside
   * the queries) or {@code lexical} (the same requests, chunked, analysed and written, with no
   * model call), which tells the model's share of the queries' tail from the rest of ingestion's.
   */
  @Param({"hybrid"})
  public String corpus;

  /** The shared folder, relative to the working directory (the project root by default). */
  @Param("../shared")
  public String sharedDir;

  private List<String> queries;
  private Embedder embedder;
  private IngestServer server;
  private final List<Thread> clients = new ArrayList<>();
  private volatile boolean stopping;
  private final AtomicLong nextQuery = new AtomicLong();
  private final AtomicLong nextDocument = new AtomicLong();
  private final AtomicLong ingested = new AtomicLong();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path shared = Path.of(sharedDir);
    List<Passages.Passage> passages = Passages.scifact(shared, model);
    queries = QueryFile.load(Scifact.queries(shared));
    embedder = Models.all().find(model).orElseThrow();
    server =
        IngestServer.start(
            model,
            switch (corpus) {
              case "hybrid" -> true;
              case "lexical" -> false;
              default ->
                  throw new IllegalArgumentException("corpus: hybrid or lexical; got " + corpus);
            });
    embedder.embedQuery("warm up"); // the model loaded outside the measurement
    for (int c = 0; c < ingestClients; c++) {
      Thread t = new Thread(() -> ingest(passages), "ingest-client-" + c);
      t.setDaemon(true);
      t.start();
      clients.add(t);
    }
  }

  private void ingest(List<Passages.Passage> passages) {
    while (!stopping) {
      List<SourceDocument> batch = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        long n = nextDocument.getAndIncrement();
        SourceDocument d = passages.get((int) (n % passages.size())).document();
        long round = n / passages.size();
        batch.add(
            round == 0
                ? d
                : new SourceDocument(
                    d.id() + "-r" + round, d.title() + " (" + round + ")", d.text()));
      }
      try {
        ingested.addAndGet(server.index(batch));
      } catch (IOException | RuntimeException e) {
        if (!stopping) {
          throw new IllegalStateException("an ingesting client failed", e);
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException, InterruptedException {
    stopping = true;
    for (Thread t : clients) {
      t.join(600_000);
    }
    server.close();
  }

  @Benchmark
  public float[] embedQuery(Ingested counter) {
    long n = nextQuery.getAndIncrement();
    float[] v = embedder.embedQuery(queries.get((int) (n % queries.size())) + " " + n);
    counter.ingestedPassages = ingested.get();
    return v;
  }

  /** Passages the clients have ingested by the end of the iteration (a total, not a rate). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Ingested {
    public long ingestedPassages;
  }
}
