package dev.quarry.benchmarks.hybrid;

import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.report.Environment;
import dev.quarry.cluster.OpenSearchCorpusStore;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchConcurrency;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The semantic side's first pass against exact scoring and lexical search, side by side in one
 * process on one index per size: latency (p50, p99) of lexical, hybrid exact and hybrid with the
 * coded first pass at each candidate count, and the coded pass's recall@10 and recall@100 against
 * the exact semantic ranking. Each coded setting is timed twice: mode after mode, and then every
 * query asked in lexical, hybrid and semantic mode in turn ({@code alternated} rows), whose ratios
 * hold whatever the machine's load did meanwhile. Those rows find each query's vector in the
 * model's cache, as a repeated query does; the {@code new queries} rows ask lexical and hybrid in
 * turn with texts the model has not embedded, so a hybrid search also waits for the model.
 *
 * <p>The corpus is drawn, so that large sizes need no day of embedding and nothing repeats: each
 * chunk's text is a few sentences drawn from the whole collection, and its vector is a real
 * passage's vector (one of {@code --bases} abstracts embedded with the real model), plus a share of
 * a second one and Gaussian noise, renormalised. The queries are the collection's own, embedded
 * with the real model. Every size is one index, written once with exact settings (an exact and a
 * coded corpus hold the same fields) and opened again with each setting.
 *
 * <p>Command line: {@code java -jar benchmarks.jar dense --collection DIR [--bases N] [--chunks
 * 10000,100000] [--candidates 500,1000,2000] [--codes sign,centred2] [--probes 16,32] [--noise S]
 * [--queries N] [--parallelism N] [--keep DIR] [--out FILE]}; {@code DIR} holds BEIR's {@code
 * corpus.jsonl} and {@code queries.jsonl}. With {@code --opensearch URL [--shards N]} the same
 * corpora are written to the cluster store on that cluster (which needs the scoring plugin) and
 * measured there by the wall clock: one corpus a code, with the first candidate count (and the
 * inverted file with {@code --probes N}, one count), its exact rows asked with {@code exact};
 * {@code --keep} then keeps the corpora for the next run.
 */
public final class DenseBenchmark {
  private static final String SUBJECT = "bench";
  private static final int BATCH = 1000;
  private static final int WARMUP_QUERIES = 30;
  private static final int SENTENCES_PER_CHUNK = 4;

  private final JsonlCorpus collection;
  private final List<String> queries;
  private final int bases;
  private final List<Integer> chunkCounts;
  private final List<Integer> candidateCounts;
  private final List<String> codes;

  /** Lists read by each search of an inverted file; empty for no inverted file. */
  private final List<Integer> probes;

  private final double noise;
  private final SearchConcurrency concurrency;
  private final Path workspace;
  private final StringBuilder report = new StringBuilder();

  /** A node of the cluster to measure the cluster store on, or null for the embedded store. */
  private URI opensearch;

  private int shards = 1;

  /** Whether the cluster's corpora stay for the next run (they are deleted otherwise). */
  private boolean keepCorpora;

  DenseBenchmark(
      JsonlCorpus collection,
      List<String> queries,
      int bases,
      List<Integer> chunkCounts,
      List<Integer> candidateCounts,
      List<String> codes,
      List<Integer> probes,
      double noise,
      SearchConcurrency concurrency,
      Path workspace) {
    this.collection = collection;
    this.queries = queries;
    this.bases = bases;
    this.chunkCounts = chunkCounts;
    this.candidateCounts = candidateCounts;
    this.codes = codes;
    this.probes = probes;
    this.noise = noise;
    this.concurrency = concurrency;
    this.workspace = workspace;
  }

  public static void main(String[] args) throws Exception {
    Path dir = null;
    int bases = 1000;
    List<Integer> chunks = List.of(10_000, 100_000);
    List<Integer> candidates = List.of(500, 1000, 2000);
    List<String> codes = List.of("sign", "centred1", "centred2");
    List<Integer> probes = List.of();
    double noise = 0.03;
    int queryCount = 300;
    SearchConcurrency concurrency = SearchConcurrency.commonPool();
    Path out = null;
    Path keep = null;
    URI opensearch = null;
    int shards = 1;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--collection" -> dir = Path.of(value);
        case "--bases" -> bases = Integer.parseInt(value);
        case "--chunks" -> chunks = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--candidates" ->
            candidates = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--codes" -> codes = List.of(value.split(","));
        case "--probes" -> probes = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--noise" -> noise = Double.parseDouble(value);
        case "--queries" -> queryCount = Integer.parseInt(value);
        case "--parallelism" ->
            concurrency =
                new SearchConcurrency(
                    concurrency.executor(),
                    Integer.parseInt(value),
                    concurrency.minPartitionDocs());
        case "--out" -> out = Path.of(value);
        case "--keep" -> keep = Path.of(value);
        case "--opensearch" -> opensearch = URI.create(value);
        case "--shards" -> shards = Integer.parseInt(value);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; dense --collection DIR [--bases N] [--chunks N,N] [--candidates N,N] [--codes sign,centred1,centred2] [--probes N,N] [--noise S] [--queries N]"
                    + " [--parallelism N] [--keep DIR] [--opensearch URL [--shards N]] [--out FILE]");
      }
      i++;
    }
    if (dir == null) {
      throw new IllegalArgumentException(
          "dense needs --collection DIR (BEIR's corpus.jsonl and queries.jsonl)");
    }
    List<String> queries = QueryFile.load(dir.resolve("queries.jsonl"));
    queries = queries.subList(0, Math.min(queries.size(), queryCount));
    Path workspace = keep != null ? keep : Files.createTempDirectory("quarry-dense-bench-");
    try {
      String markdown =
          new DenseBenchmark(
                  JsonlCorpus.load(dir.resolve("corpus.jsonl")),
                  queries,
                  bases,
                  chunks,
                  candidates,
                  codes,
                  probes,
                  noise,
                  concurrency,
                  workspace)
              .onCluster(opensearch, shards, keep != null)
              .run();
      System.out.println();
      System.out.println(markdown);
      if (out != null) {
        Files.writeString(out, markdown, StandardCharsets.UTF_8);
      }
    } finally {
      if (keep == null) {
        Workspace.delete(workspace);
      }
    }
  }

  /**
   * Measures the cluster store on the cluster {@code opensearch} (null: the embedded store)
   * instead, with corpora of {@code shards} shards, kept for the next run when {@code keep}.
   */
  DenseBenchmark onCluster(URI opensearch, int shards, boolean keep) {
    if (opensearch != null && probes.size() > 1) {
      throw new IllegalArgumentException(
          "--probes: a cluster corpus's probes are fixed when it is created; give one count");
    }
    this.opensearch = opensearch;
    this.shards = shards;
    this.keepCorpora = keep;
    return this;
  }

  String run() throws IOException {
    line("# The semantic side's first pass: cost and recall against exact, beside lexical");
    line("");
    line(Environment.current().describe());
    line(
        String.format(
            Locale.ROOT,
            "load average at start: %s; %s; %d base vectors, noise %.3f a component;"
                + " %d queries after %d to warm up; an exact scan in at most %d parts; heap limit %d MB",
            loadAverage(),
            collection.describe(),
            bases,
            noise,
            queries.size() - WARMUP_QUERIES,
            WARMUP_QUERIES,
            concurrency.parallelism(),
            Runtime.getRuntime().maxMemory() >> 20));
    line("");
    OnnxEmbedder model = new OnnxEmbedder(Models.BGE_SMALL_EN_V15);
    // Base vectors are needed only to write an index; a kept one is searched with real query
    // vectors alone.
    boolean writes =
        opensearch != null
            ? clusterLacksACorpus()
            : chunkCounts.stream()
                .anyMatch(
                    c -> codes.stream().anyMatch(code -> !Files.isDirectory(indexDir(c, code))));
    DrawnEmbedder drawn = new DrawnEmbedder(model, writes ? baseVectors(model) : Map.of(), noise);
    EngineConfig config =
        EngineConfig.builder()
            .embeddingModels(EmbeddingModels.of(drawn))
            .searchConcurrency(concurrency)
            .build();
    List<String> sentences = sentences();
    for (int chunks : chunkCounts) {
      if (opensearch == null) {
        measure(chunks, sentences, drawn, config);
      } else {
        measureOnCluster(chunks, sentences, drawn, config);
      }
    }
    line("load average at end: " + loadAverage());
    return report.toString();
  }

  /**
   * The real vectors of the first {@code bases} abstracts, by title (what a drawn chunk's title
   * names).
   */
  private Map<String, float[]> baseVectors(Embedder model) {
    Map<String, float[]> out = new HashMap<>();
    long start = System.nanoTime();
    for (int i = 0; i < collection.size() && out.size() < bases; i++) {
      SourceDocument d = collection.document(i);
      if (d.title() == null || d.title().isBlank() || out.containsKey(d.title())) {
        continue;
      }
      out.put(
          d.title(), model.embedPassages(List.of(d.title() + "\n\n" + d.text())).get(0).vector());
    }
    System.err.printf(
        Locale.ROOT,
        "embedded %d base passages in %.0f s%n",
        out.size(),
        (System.nanoTime() - start) / 1e9);
    return out;
  }

  /** Every sentence of the collection, the pool drawn chunks' texts come from. */
  private List<String> sentences() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < collection.size(); i++) {
      for (String s : collection.document(i).text().split("(?<=[.!?])\\s+")) {
        if (s.length() > 20) {
          out.add(s);
        }
      }
    }
    return out;
  }

  private void measure(int chunks, List<String> sentences, DrawnEmbedder drawn, EngineConfig config)
      throws IOException {
    // One index per code: a corpus stores only its own codes. The exact rows read the first one.
    StringBuilder written = new StringBuilder();
    for (String code : codes) {
      Path dir = indexDir(chunks, code);
      boolean built = Files.isDirectory(dir);
      long start = System.nanoTime();
      try (CorpusIndex index =
          open(
              dir,
              CorpusSettings.VectorIndex.CODES,
              firstPass(code, candidateCounts.get(0), probes.isEmpty() ? 0 : probes.get(0)),
              config)) {
        if (!built) {
          write(index::apply, chunks, sentences, drawn.titles());
        }
      }
      written.append(
          String.format(
              Locale.ROOT,
              "%s%s %s in %.0f s",
              written.isEmpty() ? "" : ", ",
              code,
              built ? "reused" : "written",
              (System.nanoTime() - start) / 1e9));
    }
    line(
        String.format(
            Locale.ROOT, "## %,d chunks (top 10, highlights on; indexes: %s)", chunks, written));
    line("");
    Path first = indexDir(chunks, codes.get(0));
    Map<String, List<List<String>>> exactTop = new HashMap<>();
    line(
        "| mode | p50 ms | p99 ms | p50 against lexical | CPU p50 ms | CPU p50 against lexical | recall@10"
            + " | recall@100 |");
    line("|---|---|---|---|---|---|---|---|");
    double[] lexicalP50;
    try (CorpusIndex index = open(first, CorpusSettings.VectorIndex.EXACT, null, config)) {
      queries.forEach(index::embedQuery);
      // A first round of each mode, not kept: the JIT compiles the search paths before any is
      // timed.
      latency(index, SearchRequest.Mode.LEXICAL);
      latency(index, SearchRequest.Mode.HYBRID);
      double[] lexical = latency(index, SearchRequest.Mode.LEXICAL);
      lexicalP50 = lexical;
      row("lexical", lexical, lexicalP50, null, null);
      exactTop.put("exact", semanticTop(index));
      row("hybrid, exact", latency(index, SearchRequest.Mode.HYBRID), lexicalP50, null, null);
      row("semantic, exact", latency(index, SearchRequest.Mode.SEMANTIC), lexicalP50, null, null);
    }
    for (String code : codes) {
      Path dir = indexDir(chunks, code);
      for (int c : candidateCounts) {
        for (int p : probes.isEmpty() ? List.of(0) : probes) {
          String setting = code + ", " + c + " candidates" + (p == 0 ? "" : ", " + p + " probes");
          try (CorpusIndex index =
              open(dir, CorpusSettings.VectorIndex.CODES, firstPass(code, c, p), config)) {
            queries.forEach(index::embedQuery);
            List<List<String>> coded = semanticTop(index); // also warms the coded path up
            semanticTop(index);
            double[] hybrid = latency(index, SearchRequest.Mode.HYBRID);
            row(
                "hybrid, " + setting,
                hybrid,
                lexicalP50,
                recall(exactTop.get("exact"), coded, 10),
                recall(exactTop.get("exact"), coded, 100));
            row(
                "semantic, " + setting,
                latency(index, SearchRequest.Mode.SEMANTIC),
                lexicalP50,
                null,
                null);
            // The same searches alternated with lexical ones, query by query: a ratio whose two
            // sides met the same machine at the same moments (minutes apart, the rows above can
            // see a different load, or a JIT not done yet).
            List<double[]> alternated =
                latencies(
                    index,
                    List.of(
                        SearchRequest.Mode.LEXICAL,
                        SearchRequest.Mode.HYBRID,
                        SearchRequest.Mode.SEMANTIC));
            double[] lexicalBeside = alternated.get(0);
            row("lexical, alternated with the two below", lexicalBeside, lexicalBeside, null, null);
            row(
                "hybrid, " + setting + ", alternated",
                alternated.get(1),
                lexicalBeside,
                null,
                null);
            row(
                "semantic, " + setting + ", alternated",
                alternated.get(2),
                lexicalBeside,
                null,
                null);
            // Queries the model has not embedded: the rows above find every query's vector in the
            // model's cache, as a repeated query does; a new query's hybrid search also waits for
            // the model.
            List<double[]> fresh =
                latencies(
                    index,
                    List.of(SearchRequest.Mode.LEXICAL, SearchRequest.Mode.HYBRID),
                    this::newQuery);
            row("lexical, new queries, alternated", fresh.get(0), fresh.get(0), null, null);
            row(
                "hybrid, " + setting + ", new queries, alternated",
                fresh.get(1),
                fresh.get(0),
                null,
                null);
          }
        }
      }
    }
    try (CorpusIndex index = open(first, CorpusSettings.VectorIndex.EXACT, null, config)) {
      row("lexical, again", latency(index, SearchRequest.Mode.LEXICAL), lexicalP50, null, null);
    }
    line("");
  }

  /**
   * The same measures on the cluster store: one corpus of each code with the first candidate count
   * (a cluster corpus's first pass is fixed when it is created), its exact rows asked with {@code
   * exact}; wall time only, as the work is the cluster's.
   */
  private void measureOnCluster(
      int chunks, List<String> sentences, DrawnEmbedder drawn, EngineConfig config) {
    try (OpenSearchCorpusStore store = new OpenSearchCorpusStore(clusterSettings(), config)) {
      if (!store.searchesSemantically()) {
        throw new IllegalStateException("the cluster lacks the quarry-scoring plugin");
      }
      int candidates = candidateCounts.get(0);
      for (String code : codes) {
        String name = clusterCorpus(chunks, code);
        boolean built = store.info(name).isPresent();
        long start = System.nanoTime();
        if (!built) {
          store.create(
              name,
              settings(
                  CorpusSettings.VectorIndex.CODES, firstPass(code, candidates, clusterProbes())));
        }
        // One store call a search or write: each call is bounded by the store's request timeout.
        Function<SearchRequest, SearchResult> search =
            request -> store.withCorpus(name, index -> index.search(request));
        if (!built) {
          write(
              m -> store.withCorpus(name, index -> index.apply(m)),
              chunks,
              sentences,
              drawn.titles());
        }
        line(
            String.format(
                Locale.ROOT,
                "## %,d chunks on the cluster, %s, %d candidates%s, %d shard(s) (top 10,"
                    + " highlights on; corpus %s in %.0f s)",
                chunks,
                code,
                candidates,
                clusterProbes() == 0 ? "" : ", " + clusterProbes() + " probes",
                shards,
                built ? "reused" : "written",
                (System.nanoTime() - start) / 1e9));
        line("");
        line("| mode | p50 ms | p99 ms | p50 against lexical | recall@10 | recall@100 |");
        line("|---|---|---|---|---|---|");
        queries.forEach(q -> store.withCorpus(name, index -> index.embedQuery(q)));
        latency(search, SearchRequest.Mode.LEXICAL, false);
        latency(search, SearchRequest.Mode.HYBRID, false);
        latency(search, SearchRequest.Mode.HYBRID, true);
        double[] lexical = latency(search, SearchRequest.Mode.LEXICAL, false);
        List<List<String>> exact = semanticTop(search, true);
        List<List<String>> coded = semanticTop(search, false);
        clusterRow("lexical", lexical, lexical, null, null);
        clusterRow(
            "hybrid, exact", latency(search, SearchRequest.Mode.HYBRID, true), lexical, null, null);
        clusterRow(
            "hybrid, " + code,
            latency(search, SearchRequest.Mode.HYBRID, false),
            lexical,
            recall(exact, coded, 10),
            recall(exact, coded, 100));
        clusterRow(
            "semantic, exact",
            latency(search, SearchRequest.Mode.SEMANTIC, true),
            lexical,
            null,
            null);
        clusterRow(
            "semantic, " + code,
            latency(search, SearchRequest.Mode.SEMANTIC, false),
            lexical,
            null,
            null);
        clusterRow(
            "lexical, again",
            latency(search, SearchRequest.Mode.LEXICAL, false),
            lexical,
            null,
            null);
        line("");
        if (!keepCorpora) {
          store.delete(name);
        }
      }
    }
  }

  private OpenSearchSettings clusterSettings() {
    return OpenSearchSettings.of(List.of(opensearch))
        .withShards(shards)
        .withReplicas(0)
        .withPrefix("qdense-");
  }

  /** The cluster corpus of {@code chunks} chunks and {@code code}, kept by {@code --keep}. */
  private String clusterCorpus(int chunks, String code) {
    return "dense-"
        + chunks
        + "-"
        + code
        + "-"
        + candidateCounts.get(0)
        + "-"
        + shards
        + (clusterProbes() == 0 ? "" : "-p" + clusterProbes());
  }

  /** The probes of the cluster's corpora (their lists are written with them); 0 for none. */
  private int clusterProbes() {
    return probes.isEmpty() ? 0 : probes.get(0);
  }

  /** Whether a corpus to measure is not on the cluster yet: base vectors are needed to write it. */
  private boolean clusterLacksACorpus() {
    try (OpenSearchCorpusStore store =
        new OpenSearchCorpusStore(clusterSettings(), EngineConfig.defaults())) {
      return chunkCounts.stream()
          .anyMatch(
              c -> codes.stream().anyMatch(code -> store.info(clusterCorpus(c, code)).isEmpty()));
    }
  }

  private void clusterRow(
      String mode, double[] latency, double[] lexical, Double recall10, Double recall100) {
    line(
        String.format(
            Locale.ROOT,
            "| %s | %.2f | %.2f | %.1fx | %s | %s |",
            mode,
            latency[0],
            latency[1],
            latency[0] / lexical[0],
            recall10 == null ? "" : String.format(Locale.ROOT, "%.4f", recall10),
            recall100 == null ? "" : String.format(Locale.ROOT, "%.4f", recall100)));
  }

  /**
   * Where the index of {@code code} at {@code chunks} chunks is kept: one with the model's lists
   * when {@code --probes} is given (its chunks are filed in lists as they are written).
   */
  private Path indexDir(int chunks, String code) {
    return workspace.resolve("dense-" + chunks + "-" + code + (probes.isEmpty() ? "" : "-lists"));
  }

  /**
   * {@code sign}, or {@code centredB} for centred codes of B bits a component; in an inverted file
   * read {@code probes} lists at a time when that is positive.
   */
  private static CorpusSettings.FirstPass firstPass(String code, int candidates, int probes) {
    if (code.equals("sign")) {
      return new CorpusSettings.FirstPass(
          1, candidates, CorpusSettings.FirstPass.Code.SIGN, null, 0, null, probes);
    }
    if (!code.startsWith("centred")) {
      throw new IllegalArgumentException(
          "--codes takes sign or centredB (B bits, 1 to 4); got " + code);
    }
    return new CorpusSettings.FirstPass(
        Integer.parseInt(code.substring("centred".length())),
        candidates,
        CorpusSettings.FirstPass.Code.CENTRED,
        null,
        CorpusSettings.FirstPass.DEFAULT.seed(),
        null,
        probes);
  }

  private void row(
      String mode, double[] latency, double[] lexical, Double recall10, Double recall100) {
    line(
        String.format(
            Locale.ROOT,
            "| %s | %.2f | %.2f | %.1fx | %.2f | %.1fx | %s | %s |",
            mode,
            latency[0],
            latency[1],
            latency[0] / lexical[0],
            latency[2],
            latency[2] / lexical[2],
            recall10 == null ? "" : String.format(Locale.ROOT, "%.4f", recall10),
            recall100 == null ? "" : String.format(Locale.ROOT, "%.4f", recall100)));
  }

  /**
   * p50 and p99 in milliseconds of every query after the warm-up ones, then the p50 of the
   * searching thread's CPU time: on a loaded machine wall time mostly measures waiting for a
   * processor, CPU time much less so (with {@code --parallelism 1} it is all of a search's work).
   */
  private double[] latency(CorpusIndex index, SearchRequest.Mode mode) {
    return latency(index::search, mode, false);
  }

  /**
   * The same by {@code search}, each search with {@code exact} (a semantic or hybrid one scanning
   * exactly).
   */
  private double[] latency(
      Function<SearchRequest, SearchResult> search, SearchRequest.Mode mode, boolean exact) {
    long[] nanos = new long[queries.size() - WARMUP_QUERIES];
    long[] cpu = new long[nanos.length];
    for (int i = 0; i < queries.size(); i++) {
      SearchRequest request = request(i, mode).withExact(exact);
      long startCpu = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      search.apply(request);
      if (i >= WARMUP_QUERIES) {
        nanos[i - WARMUP_QUERIES] = System.nanoTime() - start;
        cpu[i - WARMUP_QUERIES] = THREADS.getCurrentThreadCpuTime() - startCpu;
      }
    }
    return new double[] {percentile(nanos, 50), percentile(nanos, 99), percentile(cpu, 50)};
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The timed search of query {@code i} in {@code mode}: its top 10, with highlights. */
  private SearchRequest request(int i, SearchRequest.Mode mode) {
    return request(queries.get(i), mode);
  }

  private static SearchRequest request(String query, SearchRequest.Mode mode) {
    return new SearchRequest(query, SourceScope.ALL, List.of(), 10, null, null, true, mode, null);
  }

  /**
   * Query {@code i} followed by a word no chunk holds and never asked before in this process, so
   * that the model has not embedded the text (its cache keys are whole texts) and its lexical
   * search is that of query {@code i} (a word in no chunk scores nothing).
   */
  private String newQuery(int i) {
    return queries.get(i) + " zq" + Long.toString(newQueries++, 36);
  }

  /** How many new queries {@link #newQuery} has made. */
  private long newQueries;

  /**
   * The same for each of {@code modes}, every query asked in each mode in turn (the first mode
   * rotating from query to query; the first queries warm up, as above): each mode's p50, p99 and
   * CPU p50, in the order of {@code modes}.
   */
  private List<double[]> latencies(CorpusIndex index, List<SearchRequest.Mode> modes) {
    return latencies(index, modes, queries::get);
  }

  /** The same with query {@code i}'s text given by {@code textOf}, asked once in each mode. */
  private List<double[]> latencies(
      CorpusIndex index, List<SearchRequest.Mode> modes, IntFunction<String> textOf) {
    int measured = queries.size() - WARMUP_QUERIES;
    long[][] nanos = new long[modes.size()][measured];
    long[][] cpu = new long[modes.size()][measured];
    for (int i = 0; i < queries.size(); i++) {
      String text = textOf.apply(i);
      for (int k = 0; k < modes.size(); k++) {
        int m = (i + k) % modes.size();
        SearchRequest request = request(text, modes.get(m));
        long startCpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        index.search(request);
        if (i >= WARMUP_QUERIES) {
          nanos[m][i - WARMUP_QUERIES] = System.nanoTime() - start;
          cpu[m][i - WARMUP_QUERIES] = THREADS.getCurrentThreadCpuTime() - startCpu;
        }
      }
    }
    List<double[]> out = new ArrayList<>();
    for (int m = 0; m < modes.size(); m++) {
      out.add(
          new double[] {
            percentile(nanos[m], 50), percentile(nanos[m], 99), percentile(cpu[m], 50)
          });
    }
    return out;
  }

  /** Each query's semantic top 100, as "source#chunk". */
  private List<List<String>> semanticTop(CorpusIndex index) {
    return semanticTop(index::search, false);
  }

  /** The same by {@code search}, each search with {@code exact}. */
  private List<List<String>> semanticTop(
      Function<SearchRequest, SearchResult> search, boolean exact) {
    List<List<String>> out = new ArrayList<>();
    for (String q : queries) {
      List<String> ids = new ArrayList<>();
      for (Hit h :
          search
              .apply(
                  new SearchRequest(
                          q,
                          SourceScope.ALL,
                          List.of(),
                          100,
                          null,
                          null,
                          false,
                          SearchRequest.Mode.SEMANTIC,
                          null)
                      .withExact(exact))
              .hits()) {
        ids.add(h.source() + "#" + h.chunk());
      }
      out.add(ids);
    }
    return out;
  }

  /** The mean share of each query's exact top k that the other ranking's top k holds. */
  private static double recall(List<List<String>> exact, List<List<String>> other, int k) {
    double sum = 0;
    for (int q = 0; q < exact.size(); q++) {
      List<String> want = exact.get(q).subList(0, Math.min(k, exact.get(q).size()));
      Set<String> got = new HashSet<>(other.get(q).subList(0, Math.min(k, other.get(q).size())));
      sum +=
          want.isEmpty() ? 1 : want.stream().filter(got::contains).count() / (double) want.size();
    }
    return sum / exact.size();
  }

  private CorpusIndex open(
      Path dir,
      CorpusSettings.VectorIndex vectors,
      CorpusSettings.FirstPass firstPass,
      EngineConfig config)
      throws IOException {
    CorpusInfo info =
        new CorpusInfo(
            "dense",
            "dense",
            config.embeddingModels().resolve(settings(vectors, firstPass)),
            Instant.EPOCH);
    return CorpusIndex.open(dir, info, config);
  }

  private static CorpusSettings settings(
      CorpusSettings.VectorIndex vectors, CorpusSettings.FirstPass firstPass) {
    return CorpusSettings.DEFAULT.withEmbedding(
        new CorpusSettings.Embedding(
            Models.DEFAULT_MODEL,
            null,
            CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT,
            vectors,
            CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
            firstPass));
  }

  /**
   * Writes {@code chunks} sources of one drawn chunk each: a base's title and sentences of the
   * collection.
   */
  private static void write(
      Consumer<Mutation> apply, int chunks, List<String> sentences, List<String> titles) {
    SplittableRandom random = new SplittableRandom(20261205);
    for (int from = 0; from < chunks; from += BATCH) {
      List<SourceOperation> batch = new ArrayList<>();
      for (int i = from; i < Math.min(chunks, from + BATCH); i++) {
        StringBuilder text = new StringBuilder();
        for (int s = 0; s < SENTENCES_PER_CHUNK; s++) {
          text.append(s == 0 ? "" : " ").append(sentences.get(random.nextInt(sentences.size())));
        }
        batch.add(
            SourceOperation.Index.text(
                String.format(Locale.ROOT, "d%07d", i),
                titles.get(random.nextInt(titles.size())),
                text.toString(),
                Metadata.EMPTY));
      }
      apply.accept(new Mutation(batch, SUBJECT, null, null));
      if ((from / BATCH) % 50 == 0) {
        System.err.printf(Locale.ROOT, "written %,d of %,d chunks%n", from + batch.size(), chunks);
      }
    }
  }

  private static double percentile(long[] nanos, int p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private void line(String s) {
    report.append(s).append('\n');
    System.err.println(s);
  }

  /**
   * The real model for queries, drawn vectors for passages: a passage's vector is its title's base
   * vector, plus between 0 and 0.6 of another base vector and Gaussian noise, renormalised; every
   * draw is seeded by the passage's text, so a passage embedded twice gets the same vector.
   */
  private static final class DrawnEmbedder implements Embedder {
    private final Embedder model;
    private final Map<String, float[]> bases;
    private final List<float[]> all;
    private final double noise;

    DrawnEmbedder(Embedder model, Map<String, float[]> bases, double noise) {
      this.model = model;
      this.bases = bases;
      this.all = new ArrayList<>(bases.values());
      this.noise = noise;
    }

    List<String> titles() {
      return List.copyOf(bases.keySet());
    }

    @Override
    public String model() {
      return model.model();
    }

    @Override
    public String sha256() {
      return model.sha256();
    }

    @Override
    public int dimensions() {
      return model.dimensions();
    }

    @Override
    public int maxTokens() {
      return model.maxTokens();
    }

    /**
     * An estimate (a word piece for every four characters): drawn chunks are far below the window.
     */
    @Override
    public int passageTokens(String text) {
      return text.length() / 4;
    }

    @Override
    public List<Embedding> embedPassages(List<String> texts) {
      List<Embedding> out = new ArrayList<>(texts.size());
      for (String text : texts) {
        int cut = text.indexOf("\n\n");
        float[] base = bases.get(cut < 0 ? text : text.substring(0, cut));
        Random random = new Random(text.hashCode() * 0x9E3779B97F4A7C15L);
        float[] other = all.get(random.nextInt(all.size()));
        double share = 0.6 * random.nextDouble();
        float[] v = new float[model.dimensions()];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
          double x =
              (base == null ? 0 : base[i]) + share * other[i] + noise * random.nextGaussian();
          v[i] = (float) x;
          norm += x * x;
        }
        float inverse = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
          v[i] *= inverse;
        }
        out.add(new Embedding(v, false));
      }
      return out;
    }

    @Override
    public float[] embedQuery(String query) {
      return model.embedQuery(query);
    }
  }
}
