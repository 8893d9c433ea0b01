package dev.quarry.benchmarks.hybrid;

import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.report.Environment;
import dev.quarry.embeddings.ModelSpec;
import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchConcurrency;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.embed.VectorCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What hybrid retrieval costs, measured side by side with lexical retrieval in one process through
 * the engine's own API (no HTTP): ingest chunks per second with each model against lexical-only on
 * the same documents, search latency (p50/p99) of lexical, hybrid exact and hybrid with the
 * approximate index at a given number of chunks, the latency of embedding a query, and the resident
 * memory each model adds. The models measured are the English ones that ship ({@link #MEASURED}):
 * the corpora are English, and a model for another language (bge-small-zh) would be measured on
 * text it reads poorly.
 *
 * <p>Command line: {@code java -jar benchmarks.jar hybrid [--corpus generated|jsonl:FILE] [--docs
 * N] [--chunks 10000,100000] [--model NAME] [--queries N] [--parallelism N] [--out FILE]}; {@code
 * --parallelism} is the most parts an exact scan is cut into (the machine's processors by default,
 * 1 to scan on the searching thread alone).
 *
 * <p>To reach large chunk counts without hours of embedding, the large corpora repeat the {@code
 * --docs} documents under new source ids: their vectors come from the embedding cache, and an exact
 * semantic search reads and multiplies every vector whatever it holds, so its cost is that of
 * distinct vectors. Lexical postings of repeated text are denser than those of distinct text:
 * lexical latency at large counts is indicative only. Query vectors are computed before the search
 * loop (the model call is measured on its own), so search latency is the search alone.
 */
public final class HybridBenchmark {
  private static final String SUBJECT = "bench";
  private static final int BATCH = 500;
  private static final int WARMUP_QUERIES = 30;

  /**
   * The shipped models for English text, the default first: those an English corpus is measured
   * with.
   */
  static final List<ModelSpec> MEASURED =
      List.of(Models.BGE_SMALL_EN_V15, Models.ALL_MINILM_L6_V2, Models.E5_SMALL_V2);

  private final Corpus corpus;
  private final int docs;
  private final List<Integer> chunkCounts;
  private final String model;
  private final int queryCount;
  private final SearchConcurrency concurrency;
  private final Path workspace;
  private final StringBuilder report = new StringBuilder();

  HybridBenchmark(
      Corpus corpus,
      int docs,
      List<Integer> chunkCounts,
      String model,
      int queryCount,
      SearchConcurrency concurrency,
      Path workspace) {
    this.corpus = corpus;
    this.docs = docs;
    this.chunkCounts = chunkCounts;
    this.model = model;
    this.queryCount = queryCount;
    this.concurrency = concurrency;
    this.workspace = workspace;
  }

  public static void main(String[] args) throws Exception {
    String corpusSpec = Corpus.GENERATED;
    int docs = 200;
    List<Integer> chunks = List.of(10_000);
    String model = Models.DEFAULT_MODEL;
    int queries = 200;
    SearchConcurrency concurrency = SearchConcurrency.commonPool();
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--corpus" -> corpusSpec = value;
        case "--docs" -> docs = Integer.parseInt(value);
        case "--chunks" -> chunks = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--model" -> model = value;
        case "--queries" -> queries = Integer.parseInt(value);
        case "--parallelism" ->
            concurrency =
                new SearchConcurrency(
                    concurrency.executor(),
                    Integer.parseInt(value),
                    concurrency.minPartitionDocs());
        case "--out" -> out = Path.of(value);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; hybrid [--corpus generated|jsonl:FILE] [--docs N] [--chunks N,N] [--model NAME] [--queries N]"
                    + " [--parallelism N] [--out FILE]");
      }
      i++;
    }
    String chosen = model;
    if (MEASURED.stream().noneMatch(spec -> spec.name().equals(chosen))) {
      throw new IllegalArgumentException(
          "--model must be one of the English models measured: "
              + MEASURED.stream().map(ModelSpec::name).toList()
              + "; got "
              + model);
    }
    Path workspace = Files.createTempDirectory("quarry-hybrid-bench-");
    try {
      String markdown =
          new HybridBenchmark(
                  Corpus.fromSpec(corpusSpec, 42),
                  docs,
                  chunks,
                  model,
                  queries,
                  concurrency,
                  workspace)
              .run();
      System.out.println();
      System.out.println(markdown);
      if (out != null) {
        Files.writeString(out, markdown, StandardCharsets.UTF_8);
      }
    } finally {
      Workspace.delete(workspace);
    }
  }

  String run() throws IOException {
    line("# Hybrid retrieval: cost against lexical");
    line("");
    line(Environment.current().describe());
    line(
        String.format(
            Locale.ROOT,
            "load average at start: %s; corpus %s, %d documents, model %s; an exact scan"
                + " in at most %d parts; Vector API dot product: %s",
            loadAverage(),
            corpus.describe(),
            docs,
            model,
            concurrency.parallelism(),
            VectorCodec.usesVectorApi() ? "yes" : "no"));
    line("");
    memory();
    List<SourceDocument> documents = new ArrayList<>(docs);
    for (int i = 0; i < docs; i++) {
      documents.add(corpus.document(i));
    }
    EmbeddingModels models =
        EmbeddingModels.of(MEASURED.stream().map(OnnxEmbedder::new).toArray(OnnxEmbedder[]::new));
    EngineConfig config =
        EngineConfig.builder().embeddingModels(models).searchConcurrency(concurrency).build();
    ingest(documents, config);
    List<String> queries = QueryMix.from(documents, queryCount + WARMUP_QUERIES, 7).queries();
    queryEmbedding(queries);
    for (int chunks : chunkCounts) {
      search(documents, chunks, config, queries);
    }
    line("");
    line("load average at end: " + loadAverage());
    return report.toString();
  }

  /**
   * Resident memory of the process before and after each model is loaded and has embedded a
   * passage.
   */
  private void memory() {
    line("## Resident memory per model");
    line("");
    line("| model | weights | resident memory added |");
    line("|---|---|---|");
    for (var spec : MEASURED) {
      long before = residentBytes();
      Embedder e = new OnnxEmbedder(spec);
      e.embedPassages(
          List.of("A passage to load the model with, as the first write of a corpus would."));
      long after = residentBytes();
      line(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.0f MB |",
              spec.name(),
              spec.onnxResource(),
              (after - before) / 1e6));
    }
    line("");
  }

  private void ingest(List<SourceDocument> documents, EngineConfig config) throws IOException {
    line("## Ingest, the same documents side by side");
    line("");
    line("| corpus | chunks | seconds | chunks/s | against lexical |");
    line("|---|---|---|---|---|");
    // A first lexical pass warms the JIT and the file system, so lexical is not measured cold.
    try (CorpusIndex warm =
        open("ingest-warm-up", null, CorpusSettings.VectorIndex.EXACT, config)) {
      write(warm, documents, 0);
    }
    double lexicalRate = 0;
    List<String> corpora = new ArrayList<>();
    corpora.add(null);
    MEASURED.forEach(spec -> corpora.add(spec.name()));
    for (String m : corpora) {
      try (CorpusIndex index =
          open(
              "ingest-" + (m == null ? "lexical" : m),
              m,
              CorpusSettings.VectorIndex.EXACT,
              config)) {
        long start = System.nanoTime();
        long chunks = write(index, documents, 0);
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = chunks / seconds;
        if (m == null) {
          lexicalRate = rate;
        }
        line(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.1f | %.1f | %s |",
                m == null ? "lexical" : m,
                chunks,
                seconds,
                rate,
                m == null ? "1" : String.format(Locale.ROOT, "1/%.0f", lexicalRate / rate)));
      }
    }
    line("");
  }

  /** Each measured model in turn, on the same queries, so their latencies compare. */
  private void queryEmbedding(List<String> queries) {
    line("## Embedding a query");
    line("");
    line(
        String.format(
            Locale.ROOT, "%d queries of 1 to 3 words, one model after the other:", queries.size()));
    line("");
    line("| model | p50 ms | p99 ms |");
    line("|---|---|---|");
    for (var spec : MEASURED) {
      Embedder e = new OnnxEmbedder(spec);
      e.embedQuery("warm up");
      long[] nanos = new long[queries.size()];
      for (int i = 0; i < queries.size(); i++) {
        long start = System.nanoTime();
        e.embedQuery(queries.get(i));
        nanos[i] = System.nanoTime() - start;
      }
      line(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f |",
              spec.name(),
              percentile(nanos, 50),
              percentile(nanos, 99)));
    }
    line("");
  }

  private void search(
      List<SourceDocument> documents, int chunks, EngineConfig config, List<String> queries)
      throws IOException {
    line(String.format(Locale.ROOT, "## Search at %,d chunks (top 10, highlights on)", chunks));
    line("");
    line("| mode | p50 ms | p99 ms | p50 against lexical |");
    line("|---|---|---|---|");
    double lexicalP50 = 0;
    for (String kind : new String[] {"lexical", "hybrid exact", "semantic exact", "hybrid hnsw"}) {
      boolean lexical = kind.equals("lexical");
      CorpusSettings.VectorIndex vectors =
          kind.endsWith("hnsw")
              ? CorpusSettings.VectorIndex.HNSW
              : CorpusSettings.VectorIndex.EXACT;
      String name = "search-" + chunks + "-" + (lexical ? "lexical" : vectors.wireName());
      try (CorpusIndex index = open(name, lexical ? null : model, vectors, config)) {
        if (index.revision() == 0) {
          long written = 0;
          for (int copy = 0; written < chunks; copy++) {
            written += write(index, documents, copy);
          }
        }
        SearchRequest.Mode mode =
            lexical
                ? SearchRequest.Mode.LEXICAL
                : kind.startsWith("semantic")
                    ? SearchRequest.Mode.SEMANTIC
                    : SearchRequest.Mode.HYBRID;
        if (!lexical) {
          queries.forEach(index::embedQuery); // the model call is measured on its own, above
        }
        long[] nanos = new long[queries.size() - WARMUP_QUERIES];
        for (int i = 0; i < queries.size(); i++) {
          SearchRequest request =
              new SearchRequest(
                  queries.get(i), SourceScope.ALL, List.of(), 10, null, null, true, mode, null);
          long start = System.nanoTime();
          index.search(request);
          if (i >= WARMUP_QUERIES) {
            nanos[i - WARMUP_QUERIES] = System.nanoTime() - start;
          }
        }
        double p50 = percentile(nanos, 50);
        if (lexical) {
          lexicalP50 = p50;
        }
        line(
            String.format(
                Locale.ROOT,
                "| %s | %.1f | %.1f | %.1fx |",
                kind,
                p50,
                percentile(nanos, 99),
                p50 / lexicalP50));
      }
    }
    line("");
  }

  /**
   * Opens the corpus of this name, as built by an earlier mode at the same size when there was one.
   */
  private CorpusIndex open(
      String name, String modelName, CorpusSettings.VectorIndex vectors, EngineConfig config)
      throws IOException {
    CorpusSettings settings =
        modelName == null
            ? CorpusSettings.DEFAULT
            : CorpusSettings.DEFAULT.withEmbedding(
                new CorpusSettings.Embedding(
                    modelName, null, CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT, vectors));
    CorpusInfo info =
        new CorpusInfo(name, name, config.embeddingModels().resolve(settings), Instant.EPOCH);
    return CorpusIndex.open(workspace.resolve(name), info, config);
  }

  /**
   * Writes every document as a new source ({@code copy} keeps ids distinct); the chunks written.
   */
  private static long write(CorpusIndex index, List<SourceDocument> documents, int copy) {
    long chunks = 0;
    for (int from = 0; from < documents.size(); from += BATCH) {
      List<SourceOperation> batch = new ArrayList<>();
      for (SourceDocument d : documents.subList(from, Math.min(documents.size(), from + BATCH))) {
        batch.add(
            SourceOperation.Index.text(d.id() + "-" + copy, d.title(), d.text(), Metadata.EMPTY));
      }
      MutationResult r = index.apply(new Mutation(batch, SUBJECT, null, null));
      for (Receipt receipt : r.receipts()) {
        chunks += receipt.chunks();
      }
    }
    return chunks;
  }

  private static double percentile(long[] nanos, int p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  private static long residentBytes() {
    System.gc();
    try {
      for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException e) {
      // not Linux: reported as 0
    }
    return 0;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private void line(String s) {
    report.append(s).append('\n');
    System.err.println(s);
  }
}
