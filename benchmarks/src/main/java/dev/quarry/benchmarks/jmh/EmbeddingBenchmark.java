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
import java.util.TreeMap;
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
 *       this JVM, on 127.0.0.1) as {@code sources/batch} requests of {@code batch} documents into a
 *       hybrid corpus of the model; each request returns when its chunks are durable and
 *       searchable, vectors and all. Every passage is new to the server (after a pass over the list
 *       the titles get a round number), so its embedding cache never answers.
 *   <li>{@code batched}, what batching would reach: the runtime alone on batches of {@code batch}
 *       passages of exactly the same length in word pieces (no padding, every mask bit set), the
 *       most favourable batch there is. Before measuring, it compares each batched passage's last
 *       hidden states with the same passage run alone and prints whether they are bit-identical and
 *       by how much they differ: the quantized models scale their activations per tensor, so a
 *       batch's neighbours move each passage's vector, which rules batching out for stored vectors
 *       however fast it is.
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

  @Param({"runtime", "embedder", "http", "batched"})
  public String path;

  /**
   * Documents per {@code sources/batch} request ({@code http}), passages per run ({@code batched}).
   */
  @Param("8")
  public int batch;

  /** The shared folder, relative to the working directory (the project root by default). */
  @Param("../shared")
  public String sharedDir;

  private List<Passages.Passage> passages;
  private final AtomicLong next = new AtomicLong();
  private OrtSession session;
  private List<Map<String, OnnxTensor>> tokenized;
  private List<Encoding> encodings;
  private boolean typeIds;
  private List<Map<String, OnnxTensor>> batches;
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
        embedder.embedPassages(
            List.of(passages.get(0).text())); // loads the model outside the measurement
      }
      case "http" -> server = IngestServer.start(model);
      case "batched" -> {
        tokenize(spec);
        batch();
      }
      default ->
          throw new IllegalArgumentException(
              "path is runtime, embedder, http or batched; got " + path);
    }
  }

  /**
   * The anchor's inputs: every passage through the model's tokenizer with the embedder's options,
   * as tensors.
   */
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
    typeIds = session.getInputNames().contains("token_type_ids");
    HuggingFaceTokenizer tokenizer;
    try (InputStream in = resource(spec.tokenizerResource())) {
      tokenizer =
          HuggingFaceTokenizer.newInstance(
              in,
              Map.of(
                  "addSpecialTokens",
                  "true",
                  "truncation",
                  "true",
                  "padding",
                  "false",
                  "maxLength",
                  Integer.toString(spec.maxTokens()),
                  "modelMaxLength",
                  Integer.toString(spec.maxTokens())));
    }
    tokenized = new ArrayList<>(passages.size());
    encodings = new ArrayList<>(passages.size());
    for (Passages.Passage p : passages) {
      Encoding e = tokenizer.encode(spec.passagePrefix() + p.text());
      encodings.add(e);
      long[] shape = {1, e.getIds().length};
      Map<String, OnnxTensor> inputs = new HashMap<>();
      inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(e.getIds()), shape));
      inputs.put(
          "attention_mask",
          OnnxTensor.createTensor(env, LongBuffer.wrap(e.getAttentionMask()), shape));
      if (typeIds) {
        inputs.put(
            "token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(e.getTypeIds()), shape));
      }
      tokenized.add(inputs);
    }
  }

  /**
   * Groups the passages by their length in word pieces into batches of {@code batch}, and prints
   * how each passage of the first batches differs, batched, from itself run alone.
   */
  private void batch() throws OrtException {
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    Map<Integer, List<Integer>> byLength = new TreeMap<>();
    for (int i = 0; i < encodings.size(); i++) {
      byLength.computeIfAbsent(encodings.get(i).getIds().length, k -> new ArrayList<>()).add(i);
    }
    batches = new ArrayList<>();
    List<List<Integer>> members = new ArrayList<>();
    for (var group : byLength.entrySet()) {
      int length = group.getKey();
      List<Integer> ids = group.getValue();
      for (int from = 0; from + batch <= ids.size(); from += batch) {
        List<Integer> b = ids.subList(from, from + batch);
        long[][] columns = new long[3][batch * length];
        for (int r = 0; r < batch; r++) {
          Encoding e = encodings.get(b.get(r));
          System.arraycopy(e.getIds(), 0, columns[0], r * length, length);
          System.arraycopy(e.getAttentionMask(), 0, columns[1], r * length, length);
          System.arraycopy(e.getTypeIds(), 0, columns[2], r * length, length);
        }
        long[] shape = {batch, length};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(columns[0]), shape));
        inputs.put(
            "attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(columns[1]), shape));
        if (typeIds) {
          inputs.put(
              "token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(columns[2]), shape));
        }
        batches.add(inputs);
        members.add(b);
      }
    }
    if (batches.isEmpty()) {
      throw new IllegalStateException("no " + batch + " passages share a length");
    }
    int checked = Math.min(20, batches.size());
    int identical = 0;
    int passagesChecked = 0;
    double maxDifference = 0;
    for (int k = 0; k < checked; k++) {
      try (OrtSession.Result batched = session.run(batches.get(k))) {
        float[][][] together = (float[][][]) batched.get(0).getValue();
        for (int r = 0; r < batch; r++) {
          try (OrtSession.Result alone = session.run(tokenized.get(members.get(k).get(r)))) {
            float[][] own = ((float[][][]) alone.get(0).getValue())[0];
            double difference = 0;
            for (int t = 0; t < own.length; t++) {
              for (int d = 0; d < own[t].length; d++) {
                difference = Math.max(difference, Math.abs(own[t][d] - together[r][t][d]));
              }
            }
            maxDifference = Math.max(maxDifference, difference);
            identical += difference == 0 ? 1 : 0;
            passagesChecked++;
          }
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%n  batched: %d batches of %d equal-length passages; of %d passages checked, %d"
            + " bit-identical to the passage run alone; largest difference of a hidden state %.4g%n",
        batches.size(),
        batch,
        passagesChecked,
        identical,
        maxDifference);
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
    System.out.printf(
        Locale.ROOT,
        "%n  cpu: %.2f passages per CPU-second (%d passages, %.1f CPU-s in %.1f s; load %s)%n",
        embedded / Math.max(1e-9, cpu),
        embedded,
        cpu,
        wall,
        loadAverage());
  }

  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
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
    if (batches != null) {
      batches.forEach(inputs -> inputs.values().forEach(OnnxTensor::close));
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
      case "batched" -> runBatch(embedded);
      default -> ingest(embedded);
    };
  }

  private Object run(Embedded embedded) throws OrtException {
    Map<String, OnnxTensor> inputs =
        tokenized.get((int) (next.getAndIncrement() % tokenized.size()));
    try (OrtSession.Result result = session.run(inputs)) {
      embedded.passages++;
      embeddedTotal.incrementAndGet();
      return result.size();
    }
  }

  private Object runBatch(Embedded embedded) throws OrtException {
    Map<String, OnnxTensor> inputs = batches.get((int) (next.getAndIncrement() % batches.size()));
    try (OrtSession.Result result = session.run(inputs)) {
      embedded.passages += batch;
      embeddedTotal.addAndGet(batch);
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
      documents.add(
          round == 0
              ? d
              : new SourceDocument(
                  d.id() + "-r" + round, d.title() + " (" + round + ")", d.text()));
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
