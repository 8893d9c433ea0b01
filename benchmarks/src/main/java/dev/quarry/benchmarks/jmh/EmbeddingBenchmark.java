package dev.quarry.benchmarks.jmh;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.sun.management.OperatingSystemMXBean;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.embedding.IngestServer;
import dev.quarry.benchmarks.embedding.Passages;
import dev.quarry.embeddings.ModelSpec;
import dev.quarry.embeddings.OnnxEmbedder;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.embed.VectorCodec;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * Passages embedded per second by each shipped model, three ways over the same real passages
 * (SciFact's abstracts the engine keeps whole, {@link Passages}), so that each layer is measured
 * against the one beneath it:
 *
 * <ul>
 *   <li>{@code runtime}, the anchor: ONNX Runtime's {@code session.run} alone, on inputs tokenized
 *       beforehand, with the session options the embedder uses (one intra-op and one inter-op
 *       thread; parallelism comes from the callers), one session shared by the benchmark's threads.
 *   <li>{@code embedder}: Quarry's {@link OnnxEmbedder} on one passage per call (tokenize, run,
 *       pool, normalize) and the stored form's quantization ({@link VectorCodec#encode}).
 *   <li>{@code http}: the same documents sent to Quarry's server ({@code quarry serve}'s code, in
 *       this JVM, on 127.0.0.1) as {@code sources/batch} requests of {@code batch} documents into
 *       a hybrid corpus of the model; each request returns when its chunks are durable and
 *       searchable, vectors and all. Every passage is new to the server (after a pass over the
 *       list the titles get a round number), so its embedding cache never answers.
 * </ul>
 *
 * <p>JMH's threads ({@code -t}) are the callers: 2 threads on 2 cores keep every core busy. The
 * counter {@code passages} is the figure to read (passages per second); an operation is a passage
 * for the first two ways and a request for the third. After each iteration a line {@code cpu:}
 * gives the passages per CPU-second of the whole process (every thread: callers, server, pool,
 * writer, garbage collector), which holds on a machine that other work keeps busy, where the rate
 * per wall-clock second moves with the other work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class EmbeddingBenchmark {
  @Param({"bge-small-en-v1.5", "all-minilm-l6-v2", "e5-small-v2"})
  public String model;

  @Param({"runtime", "embedder", "http"})
  public String path;

  /** Documents per {@code sources/batch} request ({@code http} only). */
  @Param("8")
  public int batch;

  /** The shared folder, relative to the working directory (the project root by default). */
  @Param("../shared")
  public String sharedDir;

  private List<Passages.Passage> passages;
  private final AtomicLong next = new AtomicLong();
  private OrtSession session;
  private List<Map<String, OnnxTensor>> tokenized;
  private Embedder embedder;
  private IngestServer server;
  private final AtomicLong embeddedTotal = new AtomicLong();
  private long iterationCpu;
  private long iterationWall;
  private long iterationPassages;

  @Setup(Level.Trial)
  public void setUp() throws IOException, OrtException {
    passages = Passages.scifact(Path.of(sharedDir), model);
    ModelSpec spec = Passages.spec(model);
    switch (path) {
      case "runtime" -> tokenize(spec);
      case "embedder" -> {
        embedder = new OnnxEmbedder(spec);
        embedder.embedPassages(List.of(passages.get(0).text())); // loads the model outside the measurement
      }
      case "http" -> server = IngestServer.start(model);
      default -> throw new IllegalArgumentException("path is runtime, embedder or http; got " + path);
    }
  }

  /** The anchor's inputs: every passage through the model's tokenizer with the embedder's options, as tensors. */
  private void tokenize(ModelSpec spec) throws IOException, OrtException {
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    byte[] weights;
    try (InputStream in = resource(spec.onnxResource())) {
      weights = in.readAllBytes();
    }
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    options.setIntraOpNumThreads(1);
    options.setInterOpNumThreads(1);
    session = env.createSession(weights, options);
    boolean typeIds = session.getInputNames().contains("token_type_ids");
    HuggingFaceTokenizer tokenizer;
    try (InputStream in = resource(spec.tokenizerResource())) {
      tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("addSpecialTokens", "true", "truncation", "true",
          "padding", "false", "maxLength", Integer.toString(spec.maxTokens()),
          "modelMaxLength", Integer.toString(spec.maxTokens())));
    }
    tokenized = new ArrayList<>(passages.size());
    for (Passages.Passage p : passages) {
      Encoding e = tokenizer.encode(spec.passagePrefix() + p.text());
      long[] shape = {1, e.getIds().length};
      Map<String, OnnxTensor> inputs = new HashMap<>();
      inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(e.getIds()), shape));
      inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(e.getAttentionMask()), shape));
      if (typeIds) {
        inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(e.getTypeIds()), shape));
      }
      tokenized.add(inputs);
    }
  }

  private static InputStream resource(String name) throws IOException {
    InputStream in = OnnxEmbedder.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new IOException("model resource " + name + " is not on the class path");
    }
    return in;
  }

  @Setup(Level.Iteration)
  public void iterationStarts() {
    iterationCpu = processCpuNanos();
    iterationWall = System.nanoTime();
    iterationPassages = embeddedTotal.get();
  }

  /** Prints the iteration's passages per CPU-second of the process (see the class doc). */
  @TearDown(Level.Iteration)
  public void iterationEnds() {
    double cpu = (processCpuNanos() - iterationCpu) / 1e9;
    double wall = (System.nanoTime() - iterationWall) / 1e9;
    long embedded = embeddedTotal.get() - iterationPassages;
    System.out.printf(Locale.ROOT, "%n  cpu: %.2f passages per CPU-second (%d passages, %.1f CPU-s in %.1f s; load %s)%n",
        embedded / Math.max(1e-9, cpu), embedded, cpu, wall, loadAverage());
  }

  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException, OrtException {
    if (tokenized != null) {
      tokenized.forEach(inputs -> inputs.values().forEach(OnnxTensor::close));
    }
    if (session != null) {
      session.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Benchmark
  public Object embed(Embedded embedded) throws IOException, OrtException {
    return switch (path) {
      case "runtime" -> run(embedded);
      case "embedder" -> embedOne(embedded);
      default -> ingest(embedded);
    };
  }

  private Object run(Embedded embedded) throws OrtException {
    Map<String, OnnxTensor> inputs = tokenized.get((int) (next.getAndIncrement() % tokenized.size()));
    try (OrtSession.Result result = session.run(inputs)) {
      embedded.passages++;
      embeddedTotal.incrementAndGet();
      return result.size();
    }
  }

  private Object embedOne(Embedded embedded) {
    String text = passages.get((int) (next.getAndIncrement() % passages.size())).text();
    byte[] stored = VectorCodec.encode(embedder.embedPassages(List.of(text)).get(0).vector());
    embedded.passages++;
    embeddedTotal.incrementAndGet();
    return stored;
  }

  private Object ingest(Embedded embedded) throws IOException {
    long first = next.getAndAdd(batch);
    List<SourceDocument> documents = new ArrayList<>(batch);
    for (long n = first; n < first + batch; n++) {
      SourceDocument d = passages.get((int) (n % passages.size())).document();
      long round = n / passages.size();
      documents.add(round == 0 ? d : new SourceDocument(d.id() + "-r" + round, d.title() + " (" + round + ")",
          d.text()));
    }
    long chunks = server.index(documents);
    embedded.passages += chunks;
    embeddedTotal.addAndGet(chunks);
    return chunks;
  }

  /** Per-thread count of passages embedded; JMH reports it per second. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Embedded {
    public long passages;

    @Setup(Level.Iteration)
    public void reset() {
      passages = 0;
    }
  }
}
