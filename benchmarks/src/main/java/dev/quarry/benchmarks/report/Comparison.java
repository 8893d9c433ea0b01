package dev.quarry.benchmarks.report;

/**
 * One line of the report: the figure of each contender under the same conditions.
 *
 * @param measure what is measured ("indexing", "search p50", ...)
 * @param conditions what is held equal (batch size, index size)
 * @param threads threads issuing the operations, or 0 where threads do not apply
 * @param unit the unit of every figure
 * @param quarry Quarry's engine in-process, NaN when not measured
 * @param lucene raw Lucene's figure, NaN when not measured
 * @param quarryHttp Quarry's standalone server over HTTP, NaN when not measured
 * @param opensearch an OpenSearch node over HTTP, NaN when not measured
 */
public record Comparison(
    String measure,
    String conditions,
    int threads,
    String unit,
    double quarry,
    double lucene,
    double quarryHttp,
    double opensearch) {

  /** The in-process pair only (the HTTP contenders not measured). */
  public Comparison(
      String measure, String conditions, int threads, String unit, double quarry, double lucene) {
    this(measure, conditions, threads, unit, quarry, lucene, Double.NaN, Double.NaN);
  }

  /** Quarry / Lucene; NaN when either is missing. */
  public double ratio() {
    return quarry / lucene;
  }

  /**
   * Quarry over HTTP / Lucene in-process: what the server and the wire cost; NaN when either is
   * missing.
   */
  public double httpRatio() {
    return quarryHttp / lucene;
  }

  /** Quarry over HTTP / OpenSearch over HTTP; NaN when either is missing. */
  public double httpOverOpenSearch() {
    return quarryHttp / opensearch;
  }
}
