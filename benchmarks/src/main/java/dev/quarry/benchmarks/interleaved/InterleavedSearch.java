package dev.quarry.benchmarks.interleaved;

import dev.quarry.benchmarks.Harness;
import dev.quarry.benchmarks.SystemProperties;
import dev.quarry.benchmarks.cluster.ClusterBenchmark;
import dev.quarry.benchmarks.cluster.Latencies;
import dev.quarry.benchmarks.contender.Chunks;
import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.corpus.Scifact;
import dev.quarry.benchmarks.extraction.SharedDocuments;
import dev.quarry.benchmarks.fixture.PrebuiltIndex;
import dev.quarry.benchmarks.fixture.TrialIndex;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.report.Environment;
import dev.quarry.benchmarks.report.LoadAverage;
import dev.quarry.benchmarks.report.ResultSet;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Quarry's engine against raw Lucene searching the same real text with its own queries, both loaded
 * in this JVM, the queries interleaved one by one (each query asked of every contender in turn, the
 * first of them rotating), and each search timed by the CPU time of the searching thread ({@link
 * ThreadMXBean#getCurrentThreadCpuTime}). On a shared machine the wall clock of a whole JMH pass
 * moves with the other processes (one build against itself ranged 0.3x to 1.6x); the CPU time a
 * search takes, measured beside the other contender's under the same conditions, does not (0.99x
 * one build against itself). With {@code --self-check} a second engine over a copy of the same
 * index joins the turns ({@link #SELF_CHECK}), so the run shows its own noise floor.
 *
 * <p>Rows: search p50 and p99 in CPU milliseconds (conditions ending {@link #CPU_CONDITIONS}), the
 * same by the wall clock, and the mean bytes each search allocated on its thread. The CPU time is
 * the searching thread's only: garbage collection and JIT compilation run on threads of their own
 * and are left out (the allocation rows show what each contender leaves to the collector).
 *
 * <p>With {@code --http --opensearch URL} the contenders are Quarry's server over HTTP and the
 * OpenSearch node: two processes, so the searching thread's CPU time says nothing, and only the
 * wall-clock rows are written, the queries still alternated one by one. Quarry's server is started
 * in this JVM over its index folder, as {@code quarry-http} does, unless {@code --quarry-server
 * URL} names a {@code quarry serve} running in a warm process of its own (token in {@code
 * QUARRY_TOKEN}), the fair comparison with the node: each index (the self-check's copy too) is then
 * a corpus of its own on that server, filled through its API.
 *
 * <p>Command line: {@code java -jar benchmarks.jar interleaved [--scifact | --corpus jsonl:FILE
 * --queries jsonl:FILE] [--warmup-rounds N] [--rounds N] [--self-check] [--http --opensearch URL
 * [--quarry-server URL]] [--shared DIR] [--keep] [--json FILE] [--commit HASH]}. The indexes are
 * the prebuilt ones of the JMH search benchmark ({@link PrebuiltIndex}: the file's documents once,
 * closed with their merges committed), built in a new folder under {@code java.io.tmpdir}, deleted
 * at the end unless {@code --keep}. Not thread-safe; one run per instance.
 */
public final class InterleavedSearch {
  /** The name of the second engine, over a copy of the first one's index, in the rows. */
  public static final String SELF_CHECK = "quarry-copy";

  /**
   * The name of the second Quarry server, over a copy of the first one's index, in the rows of
   * {@code --http}.
   */
  public static final String HTTP_SELF_CHECK = "quarry-http-copy";

  /** How the conditions of the CPU-time rows end. */
  public static final String CPU_CONDITIONS = "CPU time per search, interleaved";

  /** How the conditions of the wall-clock rows end. */
  public static final String WALL_CONDITIONS = "wall-clock time per search, interleaved";

  static final int DEFAULT_WARMUP_ROUNDS = 3;
  static final int DEFAULT_ROUNDS = 10;

  private final String corpusSpec;
  private final String querySpec;
  private final int warmupRounds;
  private final int rounds;
  private final boolean selfCheck;
  private final String openSearchUrl;
  private final String quarryServerUrl;
  private final Path workspace;
  private final PrintStream log;

  /**
   * @param corpusSpec {@code jsonl:FILE}, every document of which is indexed once
   * @param querySpec {@code jsonl:FILE}, a BEIR {@code queries.jsonl}
   * @param warmupRounds rounds of every query, untimed, before the measured ones
   * @param rounds measured rounds of every query
   * @param selfCheck whether a second engine over a copy of the index takes its turns too
   * @param openSearchUrl null for the engine against raw Lucene; else Quarry's server against the
   *     OpenSearch node at this URL, by the wall clock
   * @param quarryServerUrl with {@code openSearchUrl}: the running Quarry server to measure, or
   *     null to start one in this JVM
   * @param workspace where the indexes are built; must exist; its content is left to the caller
   */
  public InterleavedSearch(
      String corpusSpec,
      String querySpec,
      int warmupRounds,
      int rounds,
      boolean selfCheck,
      String openSearchUrl,
      String quarryServerUrl,
      Path workspace,
      PrintStream log) {
    if (!corpusSpec.startsWith(Corpus.JSONL_PREFIX) || !QueryFile.isFile(querySpec)) {
      throw new IllegalArgumentException(
          "interleaved needs a real corpus and its queries: --corpus jsonl:FILE"
              + " --queries jsonl:FILE (or --scifact); got '"
              + corpusSpec
              + "' and '"
              + querySpec
              + "'");
    }
    if (quarryServerUrl != null && openSearchUrl == null) {
      throw new IllegalArgumentException("--quarry-server URL goes with --http --opensearch URL");
    }
    if (warmupRounds < 0 || rounds < 1) {
      throw new IllegalArgumentException(
          "--warmup-rounds must be 0 or more and --rounds 1 or more; got "
              + warmupRounds
              + " and "
              + rounds);
    }
    this.corpusSpec = corpusSpec;
    this.querySpec = querySpec;
    this.warmupRounds = warmupRounds;
    this.rounds = rounds;
    this.selfCheck = selfCheck;
    this.openSearchUrl = openSearchUrl;
    this.quarryServerUrl = quarryServerUrl;
    this.workspace = workspace;
    this.log = log;
  }

  public static void main(String[] args) throws Exception {
    String corpus = null;
    String queries = null;
    boolean scifact = false;
    int warmupRounds = DEFAULT_WARMUP_ROUNDS;
    int rounds = DEFAULT_ROUNDS;
    boolean selfCheck = false;
    boolean keep = false;
    boolean http = false;
    String openSearch = null;
    String quarryServer = null;
    Path shared = SharedDocuments.DEFAULT_DIR;
    Path json = null;
    String commit = "unknown";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--corpus" -> corpus = value(args, ++i);
        case "--queries" -> queries = value(args, ++i);
        case "--scifact" -> scifact = true;
        case "--warmup-rounds" -> warmupRounds = Integer.parseInt(value(args, ++i));
        case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
        case "--self-check" -> selfCheck = true;
        case "--keep" -> keep = true;
        case "--http" -> http = true;
        case "--opensearch" -> openSearch = value(args, ++i);
        case "--quarry-server" -> quarryServer = value(args, ++i);
        case "--shared" -> shared = Path.of(value(args, ++i));
        case "--json" -> json = Path.of(value(args, ++i));
        case "--commit" -> commit = value(args, ++i);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; usage: interleaved [--scifact"
                    + " | --corpus jsonl:FILE --queries jsonl:FILE] [--warmup-rounds N] [--rounds N] [--self-check]"
                    + " [--http --opensearch URL [--quarry-server URL]] [--shared DIR] [--keep] [--json FILE] [--commit HASH]");
      }
    }
    if (scifact) {
      String unavailable = Scifact.unavailableReason(shared);
      if (unavailable != null) {
        System.out.println("SciFact not measured: " + unavailable);
        return;
      }
      corpus = Corpus.JSONL_PREFIX + Scifact.corpus(shared);
      queries = QueryFile.JSONL_PREFIX + Scifact.queries(shared);
    }
    if (corpus == null || queries == null) {
      throw new IllegalArgumentException(
          "interleaved needs --corpus jsonl:FILE and --queries jsonl:FILE, or --scifact");
    }
    if (http != (openSearch != null)) {
      throw new IllegalArgumentException(
          "--http and --opensearch URL go together: Quarry's server against that node");
    }
    Path workspace = Files.createTempDirectory("quarry-bench-");
    try {
      ResultSet result =
          new InterleavedSearch(
                  corpus,
                  queries,
                  warmupRounds,
                  rounds,
                  selfCheck,
                  openSearch,
                  quarryServer,
                  workspace,
                  System.out)
              .run(commit);
      System.out.println();
      System.out.println(ClusterBenchmark.toMarkdown(result));
      result.keepIn(json, System.out);
    } finally {
      if (keep) {
        System.out.println("indexes kept in " + workspace);
      } else {
        Workspace.delete(workspace);
      }
    }
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  /**
   * Builds or reuses the indexes, runs the rounds and returns the rows, with {@code commit} as the
   * commit measured.
   */
  public ResultSet run(String commit) throws IOException {
    // The prebuilt indexes live under the workspace the benchmark fixtures read from this property.
    String previous = SystemProperties.swap(Workspace.PROPERTY, workspace.toString());
    String previousUrl =
        SystemProperties.swap(ContenderKind.OPENSEARCH_URL_PROPERTY, openSearchUrl);
    String previousServer =
        SystemProperties.swap(ContenderKind.QUARRY_SERVER_URL_PROPERTY, quarryServerUrl);
    try {
      return measure(commit);
    } finally {
      SystemProperties.swap(Workspace.PROPERTY, previous);
      SystemProperties.swap(ContenderKind.OPENSEARCH_URL_PROPERTY, previousUrl);
      SystemProperties.swap(ContenderKind.QUARRY_SERVER_URL_PROPERTY, previousServer);
    }
  }

  private boolean http() {
    return openSearchUrl != null;
  }

  /** The two contenders compared, the one divided first. */
  private List<ContenderKind> kinds() {
    return http()
        ? List.of(ContenderKind.QUARRY_HTTP, ContenderKind.OPENSEARCH)
        : List.of(ContenderKind.QUARRY, ContenderKind.LUCENE);
  }

  private String selfCheckName() {
    return http() ? HTTP_SELF_CHECK : SELF_CHECK;
  }

  private ResultSet measure(String commit) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
    }
    threads.setThreadCpuTimeEnabled(true);
    String loadAtStart = LoadAverage.now();
    JsonlCorpus corpus = (JsonlCorpus) Corpus.fromSpec(corpusSpec, Harness.DEFAULT_SEED);
    List<String> queries = QueryFile.load(QueryFile.path(querySpec));
    long chunks = 0;
    for (int i = 0; i < corpus.size(); i++) {
      chunks += Chunks.of(corpus.document(i)).size();
    }
    log.printf(
        Locale.ROOT,
        "indexes of %,d documents (%,d chunks), %,d queries%n",
        corpus.size(),
        chunks,
        queries.size());
    Map<String, Contender> contenders = new LinkedHashMap<>();
    TrialIndex copy = null;
    try {
      for (ContenderKind kind : kinds()) {
        contenders.put(kind.param(), kind.open(PrebuiltIndex.obtain(kind, corpus, chunks).dir()));
      }
      if (selfCheck) {
        ContenderKind kind = kinds().get(0);
        copy = TrialIndex.create(kind, corpus, chunks);
        contenders.put(selfCheckName(), kind.open(copy.dir()));
      }
      Timings timings = interleave(contenders, queries, threads);
      return resultSet(commit, timings, chunks, queries, loadAtStart);
    } finally {
      for (Contender c : contenders.values()) {
        c.close();
      }
      if (copy != null) {
        copy.delete();
      }
    }
  }

  /**
   * Every contender's CPU and wall-clock times per search, bytes allocated, and queries without
   * hits.
   */
  private record Timings(
      Map<String, Latencies> cpu,
      Map<String, Latencies> wall,
      Map<String, Long> allocated,
      Map<String, Integer> empty,
      long searches) {}

  private Timings interleave(
      Map<String, Contender> contenders, List<String> queries, ThreadMXBean threads)
      throws IOException {
    List<String> names = new ArrayList<>(contenders.keySet());
    int measured = rounds * queries.size();
    Map<String, Latencies> cpu = new LinkedHashMap<>();
    Map<String, Latencies> wall = new LinkedHashMap<>();
    Map<String, Long> allocated = new LinkedHashMap<>();
    Map<String, Integer> empty = new LinkedHashMap<>();
    for (String name : names) {
      cpu.put(name, new Latencies(measured));
      wall.put(name, new Latencies(measured));
      allocated.put(name, 0L);
      empty.put(name, 0);
    }
    // qualified: the JDK's extension of the imported java.lang.management.ThreadMXBean
    com.sun.management.ThreadMXBean allocations =
        threads instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()
            ? t
            : null;
    long turn = 0;
    for (int round = 0; round < warmupRounds + rounds; round++) {
      boolean timed = round >= warmupRounds;
      for (String query : queries) {
        // The contender that goes first rotates, so none always finds the caches as another left
        // them.
        for (int k = 0; k < names.size(); k++) {
          String name = names.get((int) ((turn + k) % names.size()));
          Contender contender = contenders.get(name);
          long bytesBefore = allocations == null ? 0 : allocations.getCurrentThreadAllocatedBytes();
          long wallBefore = System.nanoTime();
          long cpuBefore = threads.getCurrentThreadCpuTime();
          int hits = contender.search(query).size();
          long cpuNanos = threads.getCurrentThreadCpuTime() - cpuBefore;
          long wallNanos = System.nanoTime() - wallBefore;
          long bytes =
              allocations == null ? 0 : allocations.getCurrentThreadAllocatedBytes() - bytesBefore;
          if (timed) {
            cpu.get(name).add(cpuNanos);
            wall.get(name).add(wallNanos);
            allocated.merge(name, bytes, Long::sum);
            if (hits == 0) {
              empty.merge(name, 1, Integer::sum);
            }
          }
        }
        turn++;
      }
      log.printf(
          Locale.ROOT,
          "%s round %d of %d%n",
          timed ? "measured" : "warm-up",
          timed ? round - warmupRounds + 1 : round + 1,
          timed ? rounds : warmupRounds);
    }
    return new Timings(cpu, wall, allocated, empty, allocations == null ? 0 : measured);
  }

  private ResultSet resultSet(
      String commit, Timings timings, long chunks, List<String> queries, String loadAtStart) {
    String base =
        String.format(
            Locale.ROOT, "%,d chunks, queries of %s", chunks, QueryFile.describe(querySpec));
    List<ResultSet.Row> rows = new ArrayList<>();
    if (!http()) {
      for (double percentile : new double[] {50, 99}) {
        String measure = "search p" + (int) percentile;
        rows.add(row(measure, base + ", " + CPU_CONDITIONS, "ms", timings.cpu(), percentile));
      }
    }
    for (double percentile : new double[] {50, 99}) {
      String measure = "search p" + (int) percentile;
      rows.add(row(measure, base + ", " + WALL_CONDITIONS, "ms", timings.wall(), percentile));
    }
    if (timings.searches() > 0 && !http()) {
      Map<String, Double> values = new LinkedHashMap<>();
      timings
          .allocated()
          .forEach((name, bytes) -> values.put(name, bytes / 1024.0 / timings.searches()));
      rows.add(
          new ResultSet.Row(
              "allocation per search", base + ", mean, interleaved", 1, "KB", values));
    }
    List<String> notes = new ArrayList<>();
    notes.add(
        String.format(
            Locale.ROOT,
            "%,d queries (%.1f words on average), top %d with highlights and provenance;"
                + " %d warm-up rounds, then %d measured rounds of every query, each query asked of %s in turn (the first"
                + " rotating), one search at a time from one thread; load average %s at the start",
            queries.size(),
            queries.stream().mapToInt(q -> q.strip().split("\\s+").length).average().orElse(0),
            Contender.TOP_K,
            warmupRounds,
            rounds,
            String.join(", ", timings.cpu().keySet()),
            loadAtStart));
    String first = kinds().get(0).param();
    String second = kinds().get(1).param();
    String clock = http() ? "wall-clock time" : "CPU time";
    if (http()) {
      notes.add(
          "search p50 and p99 are wall-clock time per search (System.nanoTime): Quarry's server runs "
              + (quarryServerUrl == null
                  ? "in this JVM"
                  : "in a warm process of its own at " + host(quarryServerUrl))
              + ", OpenSearch in its own process at "
              + host(openSearchUrl)
              + "; a shared machine's load reaches both alike only because the queries alternate");
    } else {
      notes.add(
          "search p50 and p99 are the searching thread's CPU time (ThreadMXBean), which leaves out garbage"
              + " collection and JIT threads; the wall-clock rows are the same searches by System.nanoTime");
    }
    ResultSet.Row p50 = rows.get(0);
    ResultSet.Row p99 = rows.get(1);
    notes.add(
        String.format(
            Locale.ROOT,
            "%s / %s, %s: p50 %.2fx, p99 %.2fx",
            first,
            second,
            clock,
            p50.value(first) / p50.value(second),
            p99.value(first) / p99.value(second)));
    if (selfCheck) {
      String copy = selfCheckName();
      String what =
          !http()
              ? "a second engine over a copy of the index"
              : quarryServerUrl == null
                  ? "a second server over a copy of the index"
                  : "a second corpus on the same server, filled with the same documents through its API";
      notes.add(
          String.format(
              Locale.ROOT,
              "self-check: %s is %s, taking its turns with the others; %s / %s: p50"
                  + " %.2fx, p99 %.2fx (the noise floor)",
              copy,
              what,
              first,
              copy,
              p50.value(first) / p50.value(copy),
              p99.value(first) / p99.value(copy)));
    }
    List<String> withoutHits = new ArrayList<>();
    timings.empty().forEach((name, n) -> withoutHits.add(name + " " + n));
    notes.add("measured searches without hits: " + String.join(", ", withoutHits));
    Environment environment = Environment.current();
    String machine =
        String.format(
            Locale.ROOT,
            "%d CPUs (%s), %.1f GB RAM, load average %s at the end",
            environment.processors(),
            environment.cpu(),
            environment.memoryBytes() / 1e9,
            LoadAverage.now());
    String run =
        "`benchmarks.jar interleaved --corpus jsonl:"
            + describeCorpus()
            + " --queries jsonl:"
            + QueryFile.describe(querySpec)
            + " --warmup-rounds "
            + warmupRounds
            + " --rounds "
            + rounds
            + (selfCheck ? " --self-check" : "")
            + (http() ? " --http --opensearch URL" : "")
            + (quarryServerUrl != null ? " --quarry-server URL" : "")
            + "`";
    return new ResultSet(
        environment.when().toString().substring(0, 10), machine, commit, run, notes, rows);
  }

  /** The host of {@code url}, without scheme or port: where a server ran, not how to reach it. */
  private static String host(String url) {
    return url.replaceAll("^https?://", "").replaceAll("[:/].*", "");
  }

  /** The corpus file with its folder, as the queries are described. */
  private String describeCorpus() {
    return QueryFile.describe(
        QueryFile.JSONL_PREFIX + corpusSpec.substring(Corpus.JSONL_PREFIX.length()));
  }

  private static ResultSet.Row row(
      String measure,
      String conditions,
      String unit,
      Map<String, Latencies> times,
      double percentile) {
    Map<String, Double> values = new LinkedHashMap<>();
    times.forEach((name, latencies) -> values.put(name, latencies.percentileMillis(percentile)));
    return new ResultSet.Row(measure, conditions, 1, unit, values);
  }
}
