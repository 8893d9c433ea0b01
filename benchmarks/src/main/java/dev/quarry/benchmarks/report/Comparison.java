package dev.quarry.benchmarks.report;

/**
 * One line of the report: a figure for Quarry and for raw Lucene under the same conditions.
 *
 * @param measure what is measured ("indexing", "search p50", ...)
 * @param conditions what is held equal (batch size, index size)
 * @param threads threads issuing the operations, or 0 where threads do not apply
 * @param unit the unit of both figures
 * @param quarry Quarry's figure, NaN when not measured
 * @param lucene raw Lucene's figure, NaN when not measured
 */
public record Comparison(
    String measure, String conditions, int threads, String unit, double quarry, double lucene) {

  /** Quarry / Lucene; NaN when either is missing. */
  public double ratio() {
    return quarry / lucene;
  }
}
