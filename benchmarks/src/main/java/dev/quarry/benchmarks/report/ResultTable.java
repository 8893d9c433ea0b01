package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.jmh.IndexingBenchmark;
import dev.quarry.benchmarks.jmh.SearchBenchmark;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * Turns JMH results and footprints into {@link Comparison} rows, Quarry beside raw Lucene (and the
 * HTTP contenders when measured), and prints them as a Markdown table.
 */
public final class ResultTable {
  private static final double MEGABYTE = 1_000_000;
  private static final double MICROS_PER_MILLI = 1_000;
  private static final double MICROS_PER_SECOND = 1_000_000;
  private static final double MILLIS_PER_SECOND = 1_000;

  private final List<Comparison> rows;

  private ResultTable(List<Comparison> rows) {
    this.rows = List.copyOf(rows);
  }

  public static ResultTable of(Collection<RunResult> results, Collection<Footprint> footprints) {
    Map<String, Pair> byConditions = new LinkedHashMap<>();
    for (RunResult result : results) {
      BenchmarkParams params = result.getParams();
      ContenderKind kind = ContenderKind.fromParam(params.getParam("contender"));
      String benchmark = params.getBenchmark();
      if (benchmark.startsWith(IndexingBenchmark.class.getName())) {
        addIndexing(byConditions, kind, params, result);
      } else if (benchmark.startsWith(SearchBenchmark.class.getName())) {
        addSearch(byConditions, kind, params, result);
      }
    }
    for (Footprint f : footprints) {
      String conditions = String.format(Locale.ROOT, "%,d chunks", f.chunks());
      pair(byConditions, "heap after GC per chunk", conditions, 0, "bytes")
          .set(f.contender(), f.heapBytesPerChunk());
      pair(byConditions, "disk per chunk", conditions, 0, "bytes")
          .set(f.contender(), f.diskBytesPerChunk());
    }
    List<Comparison> rows = new ArrayList<>();
    byConditions.values().forEach(p -> rows.add(p.toComparison()));
    return new ResultTable(rows);
  }

  private static void addIndexing(
      Map<String, Pair> into, ContenderKind kind, BenchmarkParams params, RunResult result) {
    String conditions =
        String.format(
            Locale.ROOT,
            "batches of %s docs into %,d chunks",
            params.getParam("batchSize"),
            Long.parseLong(params.getParam("initialChunks")));
    Map<String, Result> secondary = result.getSecondaryResults();
    int threads = params.getThreads();
    pair(into, "indexing", conditions, threads, "docs/s")
        .set(kind, secondary.get("documents").getScore());
    pair(into, "indexing", conditions, threads, "MB text/s")
        .set(kind, secondary.get("textBytes").getScore() / MEGABYTE);
  }

  private static void addSearch(
      Map<String, Pair> into, ContenderKind kind, BenchmarkParams params, RunResult result) {
    String conditions =
        String.format(Locale.ROOT, "%,d chunks", Long.parseLong(params.getParam("chunks")));
    String querySet = params.getParam("querySet");
    if (QueryFile.isFile(querySet)) {
      // Real queries are a different measure from generated ones: their own rows.
      conditions += ", queries of " + QueryFile.describe(querySet);
    }
    int docsPerSecond = indexingDocsPerSecond(params);
    if (docsPerSecond > 0) {
      conditions += String.format(Locale.ROOT, " while indexing %,d docs/s", docsPerSecond);
    }
    Result latency = result.getPrimaryResult();
    int threads = params.getThreads();
    pair(into, "search p50", conditions, threads, "ms")
        .set(kind, latency.getStatistics().getPercentile(50) / MICROS_PER_MILLI);
    pair(into, "search p99", conditions, threads, "ms")
        .set(kind, latency.getStatistics().getPercentile(99) / MICROS_PER_MILLI);
    if (docsPerSecond > 0) {
      // The rate the contender took in, beside its latencies: below the one asked for, it fell
      // behind.
      Map<String, Result> secondary = result.getSecondaryResults();
      double millis = secondary.get("indexingMillis").getScore();
      pair(into, "concurrent indexing", conditions, threads, "docs/s")
          .set(
              kind,
              millis > 0
                  ? secondary.get("indexedDocuments").getScore() * MILLIS_PER_SECOND / millis
                  : Double.NaN);
      return;
    }
    // Each thread runs searches back to back, so throughput is threads over the mean latency.
    pair(into, "search throughput", conditions, threads, "searches/s")
        .set(kind, threads * MICROS_PER_SECOND / latency.getScore());
  }

  /**
   * The search trial's concurrent indexing rate; 0 for an idle index, and for results from before
   * the parameter.
   */
  private static int indexingDocsPerSecond(BenchmarkParams params) {
    String value = params.getParam("indexingDocsPerSecond");
    return value == null ? 0 : Integer.parseInt(value);
  }

  private static Pair pair(
      Map<String, Pair> into, String measure, String conditions, int threads, String unit) {
    String key = measure + '|' + conditions + '|' + threads + '|' + unit;
    return into.computeIfAbsent(key, k -> new Pair(measure, conditions, threads, unit));
  }

  public List<Comparison> rows() {
    return rows;
  }

  /**
   * A Markdown table: one row per comparison, figures to three significant digits. The HTTP columns
   * appear only when some row has an HTTP figure.
   */
  public String toMarkdown() {
    boolean http =
        rows.stream().anyMatch(c -> !Double.isNaN(c.quarryHttp()) || !Double.isNaN(c.opensearch()));
    StringBuilder out = new StringBuilder();
    out.append("| measure | conditions | threads | unit | Quarry | raw Lucene | Quarry / Lucene |");
    out.append(http ? " Quarry HTTP | HTTP / Lucene | OpenSearch | HTTP / OpenSearch |\n" : "\n");
    out.append("|---|---|---:|---|---:|---:|---:|").append(http ? "---:|---:|---:|---:|\n" : "\n");
    for (Comparison c : rows) {
      out.append("| ")
          .append(c.measure())
          .append(" | ")
          .append(c.conditions())
          .append(" | ")
          .append(c.threads() == 0 ? "-" : Integer.toString(c.threads()))
          .append(" | ")
          .append(c.unit())
          .append(" | ")
          .append(figure(c.quarry()))
          .append(" | ")
          .append(figure(c.lucene()))
          .append(" | ")
          .append(ratio(c.ratio()));
      if (http) {
        out.append(" | ")
            .append(figure(c.quarryHttp()))
            .append(" | ")
            .append(ratio(c.httpRatio()))
            .append(" | ")
            .append(figure(c.opensearch()))
            .append(" | ")
            .append(ratio(c.httpOverOpenSearch()));
      }
      out.append(" |\n");
    }
    return out.toString();
  }

  static String ratio(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2fx", value);
  }

  static String figure(double value) {
    if (Double.isNaN(value)) {
      return "not measured";
    }
    if (value >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    return String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.3g", value);
  }

  /** The two figures of one row as they arrive, in any order. */
  private static final class Pair {
    private final String measure;
    private final String conditions;
    private final int threads;
    private final String unit;
    private double quarry = Double.NaN;
    private double lucene = Double.NaN;
    private double quarryHttp = Double.NaN;
    private double opensearch = Double.NaN;

    Pair(String measure, String conditions, int threads, String unit) {
      this.measure = measure;
      this.conditions = conditions;
      this.threads = threads;
      this.unit = unit;
    }

    Pair set(ContenderKind kind, double value) {
      switch (kind) {
        case QUARRY -> quarry = value;
        case LUCENE -> lucene = value;
        case QUARRY_HTTP -> quarryHttp = value;
        case OPENSEARCH -> opensearch = value;
      }
      return this;
    }

    Comparison toComparison() {
      return new Comparison(
          measure, conditions, threads, unit, quarry, lucene, quarryHttp, opensearch);
    }
  }
}
