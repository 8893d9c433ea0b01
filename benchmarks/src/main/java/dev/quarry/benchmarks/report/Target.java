package dev.quarry.benchmarks.report;

import java.util.List;
import java.util.Locale;

/**
 * One of the targets the project holds itself to: a ratio of two contenders' figures on one
 * measure, with a bound. Never asserted in tests (speed is measured, not tested); the results page
 * shows each target's latest figures against it.
 *
 * @param name what the target is about, as the page's headline table says it
 * @param measure the rows' measure ({@code search p50}, {@code indexing}, ...)
 * @param conditions a regular expression the rows' whole conditions match ({@code 10,000 chunks})
 * @param unit the rows' unit (indexing is reported in docs/s and MB text/s)
 * @param numerator the contender divided
 * @param denominator the contender divided by
 * @param bound the ratio's bound
 * @param atMost whether the ratio must stay at or below the bound (else at or above)
 */
public record Target(
    String name,
    String measure,
    String conditions,
    String unit,
    String numerator,
    String denominator,
    double bound,
    boolean atMost) {

  /** Every target, in the order the page lists them. */
  public static final List<Target> ALL =
      List.of(
          new Target(
              "engine bulk indexing / raw Lucene, batches of 100 into an empty index",
              "indexing",
              "batches of 100 docs into 0 chunks",
              "docs/s",
              "quarry",
              "lucene",
              0.8,
              false),
          new Target(
              "engine search p50 / raw Lucene, 10k chunks",
              "search p50",
              "10,000 chunks",
              "ms",
              "quarry",
              "lucene",
              1.25,
              true),
          new Target(
              "engine search p99 while indexing 20 docs/s / raw Lucene under the same load",
              "search p99",
              "10,000 chunks while indexing .*",
              "ms",
              "quarry",
              "lucene",
              1.5,
              true),
          new Target(
              "HTTP bulk indexing / raw Lucene in-process",
              "indexing",
              "batches of 100 docs into 0 chunks",
              "docs/s",
              "quarry-http",
              "lucene",
              0.6,
              false),
          new Target(
              "HTTP bulk indexing / OpenSearch `_bulk`",
              "indexing",
              "batches of 100 docs into 0 chunks",
              "docs/s",
              "quarry-http",
              "opensearch",
              1.5,
              false),
          new Target(
              "HTTP search p50 / OpenSearch, generated queries, 10k chunks",
              "search p50",
              "10,000 chunks",
              "ms",
              "quarry-http",
              "opensearch",
              0.5,
              true),
          new Target(
              "HTTP search p50 / OpenSearch, same, while indexing 20 docs/s",
              "search p50",
              "10,000 chunks while indexing .*",
              "ms",
              "quarry-http",
              "opensearch",
              0.5,
              true),
          new Target(
              "HTTP search p50 / OpenSearch, SciFact's own claims",
              "search p50",
              ".* chunks, queries of scifact/queries\\.jsonl(, wall-clock time per search, interleaved)?",
              "ms",
              "quarry-http",
              "opensearch",
              0.5,
              true),
          // Read from the interleaved command only: wall-clock JMH passes of SciFact's claims moved
          // too much
          // with the machine's load to hold a 1.25x bound (one build against itself ranged 0.3x to
          // 1.6x).
          new Target(
              "engine search p50 / raw Lucene, SciFact's own claims, CPU time per search (interleaved)",
              "search p50",
              ".* chunks, queries of scifact/queries\\.jsonl, CPU time per search, interleaved",
              "ms",
              "quarry",
              "lucene",
              1.25,
              true),
          new Target(
              "heap after GC per chunk / raw Lucene, about 10k chunks",
              "heap after GC per chunk",
              "10,0\\d\\d chunks",
              "bytes",
              "quarry",
              "lucene",
              1.5,
              true),
          // The cluster store against OpenSearch alone on the same cluster (benchmarks.jar
          // cluster).
          new Target(
              "cluster store bulk ingest / OpenSearch `_bulk?refresh=wait_for`, batches of 100",
              "indexing",
              "batches of 100 docs into an empty index, visible on return",
              "docs/s",
              "quarry-cluster",
              "opensearch-plain",
              1.0,
              false),
          new Target(
              "cluster store search p50 / a plain `match` query, same cluster",
              "search p50",
              ".* chunks, cluster store beside a plain index",
              "ms",
              "quarry-cluster",
              "opensearch-plain",
              1.5,
              true),
          new Target(
              "cluster store search p99 / a plain `match` query, same cluster",
              "search p99",
              ".* chunks, cluster store beside a plain index",
              "ms",
              "quarry-cluster",
              "opensearch-plain",
              1.5,
              true),
          // No bound was set for growth; at least 1x says a second front must not slow ingest down.
          new Target(
              "cluster store bulk ingest, two fronts / one front, a corpus per front",
              "indexing by fronts",
              "batches of 100 docs, a corpus per front",
              "docs/s",
              "2 fronts",
              "1 front",
              1.0,
              false));

  /** The ratio in {@code row}, NaN when either contender is missing from it. */
  public double ratio(ResultSet.Row row) {
    return row.value(numerator) / row.value(denominator);
  }

  /** Whether {@code row} is one this target reads. */
  public boolean reads(ResultSet.Row row) {
    return row.measure().equals(measure)
        && row.unit().equals(unit)
        && row.conditions().matches(conditions)
        && !Double.isNaN(ratio(row));
  }

  public boolean met(double ratio) {
    return atMost ? ratio <= bound : ratio >= bound;
  }

  /** The bound as the page writes it: {@code <= 0.5x}. */
  public String describeBound() {
    return (atMost ? "<= " : ">= ")
        + String.format(Locale.ROOT, "%.2fx", bound).replaceAll("0x$", "x");
  }
}
