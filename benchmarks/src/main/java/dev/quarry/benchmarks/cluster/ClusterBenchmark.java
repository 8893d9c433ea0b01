package dev.quarry.benchmarks.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.benchmarks.Harness;
import dev.quarry.benchmarks.contender.Chunks;
import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.JsonHttp;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.report.Environment;
import dev.quarry.benchmarks.report.LoadAverage;
import dev.quarry.benchmarks.report.ResultSet;
import dev.quarry.cluster.OpenSearchCorpusStore;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.engine.EngineConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Quarry's cluster store against OpenSearch alone on the same cluster, on the same generated
 * documents and queries:
 *
 * <ol>
 *   <li>bulk ingest, docs/s: batches through an {@link OpenSearchCorpusStore} (one revision each,
 *       durable and visible on return) against {@code _bulk?refresh=wait_for} of the same chunks
 *       into a plain index ({@link PlainIndex}), one client each, the two taking turns by round;
 *   <li>search p50 and p99: the store's lexical search (top 10, no highlights) against a plain
 *       {@code match} query on the plain index, the same queries, the two asked in turn; then the
 *       same with the store's searches pinned to its latest revision;
 *   <li>bulk ingest with one front against two ({@link FrontsIngest}), a corpus per front and one
 *       corpus for both.
 * </ol>
 *
 * <p>Command line: {@code java -jar benchmarks.jar cluster [smoke|quick|full] --opensearch URL
 * [--shards N] [--replicas N] [--seed N] [--out FILE] [--json FILE] [--commit HASH]}. It starts
 * nothing: the cluster is the caller's, and every index it creates (prefix {@code qbench-}) is
 * deleted at the end. Timing is plain wall-clock around each call, after warm-up batches and
 * queries (no JMH: the cluster, not this JVM, does most of the work). Not thread-safe; one run per
 * instance.
 */
public final class ClusterBenchmark {
  /** The cluster store's figures in the result rows. */
  public static final String STORE = "quarry-cluster";

  /** OpenSearch alone (the plain index) in the result rows. */
  public static final String PLAIN = "opensearch-plain";

  public static final String ONE_FRONT = "1 front";
  public static final String TWO_FRONTS = "2 fronts";

  /** The measure of the one-front and two-front rows. */
  public static final String FRONTS_MEASURE = "indexing by fronts";

  private final ClusterProfile profile;
  private final String url;
  private final int shards;
  private final int replicas;
  private final long seed;
  private final PrintStream log;
  private final String prefix = "qbench-" + Long.toString(System.currentTimeMillis(), 36);
  private final AtomicInteger names = new AtomicInteger();

  /**
   * @param url an HTTP address of a node of the cluster to measure
   * @param shards primary shards of every index, the store's and the plain ones alike
   * @param replicas replicas of every index (0 on a single node)
   */
  public ClusterBenchmark(
      ClusterProfile profile, String url, int shards, int replicas, long seed, PrintStream log) {
    this.profile = profile;
    this.url = url;
    this.shards = shards;
    this.replicas = replicas;
    this.seed = seed;
    this.log = log;
  }

  /** The conditions of the ingest rows. */
  public static String ingestConditions(int batchSize) {
    return "batches of " + batchSize + " docs into an empty index, visible on return";
  }

  /** The conditions of the search rows. */
  public static String searchConditions(long chunks) {
    return String.format(Locale.ROOT, "%,d chunks, cluster store beside a plain index", chunks);
  }

  /** The conditions of the fronts rows. */
  public static String frontsConditions(int batchSize, boolean corpusPerFront) {
    return "batches of "
        + batchSize
        + " docs, "
        + (corpusPerFront ? "a corpus per front" : "one corpus for both fronts");
  }

  public static void main(String[] args) throws Exception {
    ClusterProfile profile = ClusterProfile.QUICK;
    String url = null;
    int shards = 1;
    int replicas = 0;
    long seed = Harness.DEFAULT_SEED;
    Path out = null;
    Path json = null;
    String commit = "unknown";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--opensearch" -> url = value(args, ++i);
        case "--shards" -> shards = Integer.parseInt(value(args, ++i));
        case "--replicas" -> replicas = Integer.parseInt(value(args, ++i));
        case "--seed" -> seed = Long.parseLong(value(args, ++i));
        case "--out" -> out = Path.of(value(args, ++i));
        case "--json" -> json = Path.of(value(args, ++i));
        case "--commit" -> commit = value(args, ++i);
        default -> {
          if (args[i].startsWith("--")) {
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; usage: cluster [smoke|quick|full]"
                    + " --opensearch URL [--shards N] [--replicas N] [--seed N] [--out FILE] [--json FILE] [--commit HASH]");
          }
          profile = ClusterProfile.named(args[i]);
        }
      }
    }
    if (url == null) {
      throw new IllegalArgumentException(
          "cluster needs --opensearch URL: a node of the cluster to measure (it starts none)");
    }
    ResultSet result =
        new ClusterBenchmark(profile, url, shards, replicas, seed, System.out).run(commit);
    String markdown = toMarkdown(result);
    System.out.println();
    System.out.println(markdown);
    if (out != null) {
      Files.writeString(out, markdown, StandardCharsets.UTF_8);
    }
    result.keepIn(json, System.out);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  /** Runs every measure and returns the rows, with {@code commit} as the commit measured. */
  public ResultSet run(String commit) throws Exception {
    JsonHttp http = new JsonHttp(url, null);
    List<String> notes = new ArrayList<>();
    String loadAtStart = LoadAverage.now();
    JsonNode root = http.send("GET", "/", null, null).ok("/");
    JsonNode health = http.send("GET", "/_cluster/health", null, null).ok("/_cluster/health");
    notes.add(
        String.format(
            Locale.ROOT,
            "OpenSearch %s, %d data node(s); every index %d shard(s), %d replica(s);"
                + " load average %s at the start",
            root.path("version").path("number").asText("?"),
            health.path("number_of_data_nodes").asInt(),
            shards,
            replicas,
            loadAtStart));

    Corpus corpus = Corpus.fromSpec(Corpus.GENERATED, seed);
    List<SourceDocument> documents = new ArrayList<>(profile.documents());
    long chunks = 0;
    for (int i = 0; i < profile.documents(); i++) {
      SourceDocument d = corpus.document(i);
      documents.add(d);
      chunks += Chunks.of(d).size();
    }
    OpenSearchSettings settings =
        new OpenSearchSettings(
            List.of(URI.create(url)),
            prefix,
            shards,
            replicas,
            OpenSearchSettings.DEFAULT_LEASE_TTL,
            OpenSearchSettings.DEFAULT_REQUEST_TIMEOUT);
    List<ResultSet.Row> rows = new ArrayList<>();
    try (OpenSearchCorpusStore front =
            new OpenSearchCorpusStore(settings, EngineConfig.defaults());
        OpenSearchCorpusStore secondFront =
            new OpenSearchCorpusStore(settings, EngineConfig.defaults())) {
      notes.add(
          "the store's scores are "
              + (front.scoresExactly()
                  ? "exact (the quarry-scoring plugin's quarry_bm25f)"
                  : "not exact (exactScores false: a node lacks the quarry-scoring plugin)")
              + "; the plain index scores with OpenSearch's english analyzer, the store with Quarry's terms");
      warmUp(http, front, corpus);
      ClusterStoreFront store = null;
      PlainIndex plain = null;
      long storeNanos = 0;
      long plainNanos = 0;
      try {
        for (int round = 0; round < profile.rounds(); round++) {
          if (store != null) {
            store.delete();
            plain.delete();
          }
          store = ClusterStoreFront.create(front, nextName());
          plain = PlainIndex.create(http, nextName(), shards, replicas);
          boolean storeFirst = round % 2 == 1;
          if (storeFirst) {
            storeNanos += ingest(store, documents);
          }
          plainNanos += ingest(plain, documents);
          if (!storeFirst) {
            storeNanos += ingest(store, documents);
          }
          log.printf(
              Locale.ROOT,
              "ingest round %d: store %.0f docs/s, plain %.0f docs/s (so far)%n",
              round + 1,
              rate(documents.size() * (round + 1), storeNanos),
              rate(documents.size() * (round + 1), plainNanos));
        }
        long written = (long) documents.size() * profile.rounds();
        rows.add(
            row(
                "indexing",
                ingestConditions(profile.batchSize()),
                1,
                "docs/s",
                rate(written, storeNanos),
                rate(written, plainNanos)));
        search(store, plain, documents, chunks, rows, notes);
      } finally {
        if (store != null) {
          store.delete();
          plain.delete();
        }
      }
      FrontsIngest fronts = new FrontsIngest(corpus, profile.batchSize(), profile.frontBatches());
      for (boolean corpusPerFront : List.of(true, false)) {
        FrontsIngest.Rates rates =
            fronts.measure(front, secondFront, corpusPerFront, this::nextName);
        log.printf(
            Locale.ROOT,
            "%s: one front %.0f docs/s, two fronts %.0f docs/s%n",
            frontsConditions(profile.batchSize(), corpusPerFront),
            rates.oneFront(),
            rates.twoFronts());
        Map<String, Double> values = new LinkedHashMap<>();
        values.put(ONE_FRONT, rates.oneFront());
        values.put(TWO_FRONTS, rates.twoFronts());
        rows.add(
            new ResultSet.Row(
                FRONTS_MEASURE,
                frontsConditions(profile.batchSize(), corpusPerFront),
                0,
                "docs/s",
                values));
      }
      notes.add(
          "fronts: each an OpenSearchCorpusStore of its own on a thread of its own in the benchmark's JVM"
              + " (which runs beside the cluster here), writing "
              + profile.frontBatches()
              + " batches each");
    } finally {
      http.send("DELETE", "/" + prefix + "-registry", null, null);
    }
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
        "`benchmarks.jar cluster "
            + profile.name()
            + " --opensearch URL`, generated corpus (seed "
            + seed
            + "), "
            + profile.documents()
            + " documents per round, "
            + profile.rounds()
            + " round(s)";
    return new ResultSet(
        environment.when().toString().substring(0, 10), machine, commit, run, notes, rows);
  }

  /** Batches into a throwaway corpus and plain index, so neither side is timed cold. */
  private void warmUp(JsonHttp http, OpenSearchCorpusStore front, Corpus corpus)
      throws IOException {
    if (profile.warmupBatches() == 0) {
      return;
    }
    List<SourceDocument> documents = new ArrayList<>();
    for (int i = 0; i < profile.warmupBatches() * profile.batchSize(); i++) {
      documents.add(corpus.document(profile.documents() + i));
    }
    ClusterStoreFront store = ClusterStoreFront.create(front, nextName());
    PlainIndex plain = PlainIndex.create(http, nextName(), shards, replicas);
    try {
      ingest(store, documents);
      ingest(plain, documents);
    } finally {
      store.delete();
      plain.delete();
    }
  }

  /** Writes {@code documents} in batches; returns the nanoseconds the batches took. */
  private long ingest(Contender target, List<SourceDocument> documents) throws IOException {
    long start = System.nanoTime();
    for (int from = 0; from < documents.size(); from += profile.batchSize()) {
      target.indexBatch(
          documents.subList(from, Math.min(documents.size(), from + profile.batchSize())));
    }
    return System.nanoTime() - start;
  }

  /** A search of the store, as one way of asking it. */
  private interface StoreSearch {
    List<?> search(String query) throws IOException;
  }

  /**
   * Warm-up queries, then each query of the mix of both, in turn (which goes first alternates):
   * first the store's searches of its latest revision, then the same queries pinned to that
   * revision (what a client paging through results or repeating a search at one revision asks).
   */
  private void search(
      ClusterStoreFront store,
      PlainIndex plain,
      List<SourceDocument> documents,
      long chunks,
      List<ResultSet.Row> rows,
      List<String> notes)
      throws IOException {
    List<SourceDocument> sample = documents.subList(0, Math.min(documents.size(), 5_000));
    List<String> queries = QueryMix.from(sample, profile.queries(), seed).queries();
    List<String> warmUp =
        QueryMix.from(sample, Math.max(1, profile.warmupQueries()), seed + 1).queries();
    long revision = store.revision();
    for (int i = 0; i < profile.warmupQueries(); i++) {
      store.search(warmUp.get(i));
      store.searchPinned(warmUp.get(i), revision);
      plain.search(warmUp.get(i));
    }
    String conditions = searchConditions(chunks);
    int[] empty = timeSearches("search", store::search, plain, queries, conditions, rows);
    int[] pinnedEmpty =
        timeSearches(
            "pinned search",
            q -> store.searchPinned(q, revision),
            plain,
            queries,
            conditions,
            rows);
    // A token granted about a third of the sources (doc-1*, doc-2*, doc-3*): its scope filter and
    // its
    // own statistics, against the same plain match over every source.
    int[] grantedEmpty =
        store.scoresExactly()
            ? timeSearches(
                "granted search",
                q -> store.searchGranted(q, GRANT, true),
                plain,
                queries,
                conditions,
                rows)
            : null;
    // The same scope with every source's statistics, as before they were the grant's: the cost of
    // counting them apart from that of the scope filter.
    if (store.scoresExactly()) {
      timeSearches(
          "granted search, corpus statistics",
          q -> store.searchGranted(q, GRANT, false),
          plain,
          queries,
          conditions,
          rows);
    }
    notes.add(
        String.format(
            Locale.ROOT,
            "search: %,d queries, each asked of both once after %,d warm-up queries;"
                + " queries without hits: store %d, plain %d",
            queries.size(),
            profile.warmupQueries(),
            empty[0],
            empty[1]));
    notes.add(
        String.format(
            Locale.ROOT,
            "pinned search: the same queries, the store's pinned to its latest revision"
                + " (%d), each asked of both once after the unpinned ones; queries without hits: store %d, plain %d",
            revision,
            pinnedEmpty[0],
            pinnedEmpty[1]));
    if (grantedEmpty != null) {
      notes.add(
          String.format(
              Locale.ROOT,
              "granted search: the same queries by a token granted %s (about a third of"
                  + " the sources: scoped to them, scored with their statistics alone), each asked of both once after the"
                  + " pinned ones; queries without hits: store %d, plain %d",
              String.join(";", GRANT),
              grantedEmpty[0],
              grantedEmpty[1]));
    }
  }

  /**
   * The grant of the granted searches: about a third of the generated corpus's sources ({@code
   * doc-N}).
   */
  static final List<String> GRANT = List.of("doc-1*", "doc-2*", "doc-3*");

  /**
   * Times each query of both, in turn; adds the p50 and p99 rows; returns the queries without hits
   * of each.
   */
  private int[] timeSearches(
      String measure,
      StoreSearch store,
      PlainIndex plain,
      List<String> queries,
      String conditions,
      List<ResultSet.Row> rows)
      throws IOException {
    Latencies storeTimes = new Latencies(queries.size());
    Latencies plainTimes = new Latencies(queries.size());
    int storeEmpty = 0;
    int plainEmpty = 0;
    for (int i = 0; i < queries.size(); i++) {
      String query = queries.get(i);
      for (int turn = 0; turn < 2; turn++) {
        boolean storeTurn = (turn == 0) == (i % 2 == 0);
        long start = System.nanoTime();
        int hits = (storeTurn ? store.search(query) : plain.search(query)).size();
        long elapsed = System.nanoTime() - start;
        if (storeTurn) {
          storeTimes.add(elapsed);
          storeEmpty += hits == 0 ? 1 : 0;
        } else {
          plainTimes.add(elapsed);
          plainEmpty += hits == 0 ? 1 : 0;
        }
      }
    }
    rows.add(
        row(
            measure + " p50",
            conditions,
            1,
            "ms",
            storeTimes.percentileMillis(50),
            plainTimes.percentileMillis(50)));
    rows.add(
        row(
            measure + " p99",
            conditions,
            1,
            "ms",
            storeTimes.percentileMillis(99),
            plainTimes.percentileMillis(99)));
    log.printf(
        Locale.ROOT,
        "%s p50 store %.2f ms, plain %.2f ms%n",
        measure,
        storeTimes.percentileMillis(50),
        plainTimes.percentileMillis(50));
    return new int[] {storeEmpty, plainEmpty};
  }

  private static ResultSet.Row row(
      String measure, String conditions, int threads, String unit, double store, double plain) {
    Map<String, Double> values = new LinkedHashMap<>();
    values.put(STORE, store);
    values.put(PLAIN, plain);
    return new ResultSet.Row(measure, conditions, threads, unit, values);
  }

  private static double rate(long documents, long nanos) {
    return nanos == 0 ? Double.NaN : documents * 1e9 / nanos;
  }

  private String nextName() {
    return prefix + "-" + names.incrementAndGet();
  }

  /** The rows as a Markdown table, each with its ratio (the first figure over the second). */
  public static String toMarkdown(ResultSet result) {
    StringBuilder out = new StringBuilder();
    out.append(result.run()).append('\n').append(result.machine()).append("\n\n");
    result.notes().forEach(n -> out.append("- ").append(n).append('\n'));
    out.append(
        "\n| measure | conditions | threads | unit | figures | ratio |\n|---|---|---:|---|---|---:|\n");
    for (ResultSet.Row row : result.rows()) {
      List<String> named = new ArrayList<>();
      for (String name : orderedNames(row)) {
        named.add(String.format(Locale.ROOT, "%s %.3g", name, row.value(name)));
      }
      List<String> order = orderedNames(row);
      // Ratios only between the two figures of a pair; a row with any other set of figures shows
      // none.
      double ratio =
          order.size() == 2 ? row.value(order.get(0)) / row.value(order.get(1)) : Double.NaN;
      out.append("| ")
          .append(row.measure())
          .append(" | ")
          .append(row.conditions())
          .append(" | ")
          .append(row.threads() == 0 ? "-" : Integer.toString(row.threads()))
          .append(" | ")
          .append(row.unit())
          .append(" | ")
          .append(String.join(", ", named))
          .append(" | ")
          .append(Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * The row's contenders, the one divided first: the store over the plain index, two fronts over
   * one.
   */
  private static List<String> orderedNames(ResultSet.Row row) {
    for (List<String> pair : List.of(List.of(STORE, PLAIN), List.of(TWO_FRONTS, ONE_FRONT))) {
      if (row.values().keySet().containsAll(pair)) {
        return pair;
      }
    }
    return new ArrayList<>(row.values().keySet());
  }
}
