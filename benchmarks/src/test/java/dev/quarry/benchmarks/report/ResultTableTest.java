package dev.quarry.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.contender.ContenderKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;

class ResultTableTest {
  private static final List<Footprint> FOOTPRINTS =
      List.of(
          new Footprint(ContenderKind.QUARRY, 1_000, 40_000, 2_000_000),
          new Footprint(ContenderKind.LUCENE, 1_000, 10_000, 1_000_000),
          new Footprint(ContenderKind.QUARRY, 10_000, 200_000, 20_000_000),
          new Footprint(ContenderKind.LUCENE, 10_000, 100_000, 10_000_000));

  @Test
  void footprints_oneRowPerMeasureAndSize_withQuarryOverLucene() {
    List<Comparison> rows = ResultTable.of(List.of(), FOOTPRINTS).rows();
    assertEquals(4, rows.size(), rows.toString());
    Comparison heap = rows.get(0);
    assertEquals("heap after GC per chunk", heap.measure());
    assertEquals("1,000 chunks", heap.conditions());
    assertEquals(40.0, heap.quarry());
    assertEquals(10.0, heap.lucene());
    assertEquals(4.0, heap.ratio());
  }

  @Test
  void markdown_printsOneLinePerRow_andMarksMissingFigures() {
    String markdown = ResultTable.of(List.of(), List.of(FOOTPRINTS.get(0))).toMarkdown();
    assertEquals(2 + 2, markdown.lines().count(), markdown);
    assertTrue(markdown.contains("| not measured | - |"), markdown);
  }

  @Test
  void httpColumns_absentWithoutHttpFigures_andHttpRatiosDivideTheHttpFigure() {
    String inProcess = ResultTable.of(List.of(), FOOTPRINTS).toMarkdown();
    assertTrue(!inProcess.contains("Quarry HTTP"), inProcess);
    Comparison row = new Comparison("search p50", "10 chunks", 1, "ms", 2, 1, 3, 6);
    assertEquals(3.0, row.httpRatio());
    assertEquals(0.5, row.httpOverOpenSearch());
  }

  /** 98 searches of {@code fast} ms and 2 of {@code slow} ms per iteration: p50 fast, p99 slow. */
  private static List<Long> latencies(long fast, long slow) {
    List<Long> millis = new ArrayList<>(Collections.nCopies(98, fast));
    millis.addAll(Collections.nCopies(2, slow));
    return millis;
  }

  @Test
  void searchUnderIndexing_rowsOfP50P99AndAchievedRate_besideTheIdleRows() {
    List<RunResult> results =
        List.of(
            JmhResults.search(
                ContenderKind.QUARRY, 10_000, 0, latencies(1, 4), new long[] {0}, new long[] {0}),
            JmhResults.search(
                ContenderKind.LUCENE, 10_000, 0, latencies(1, 2), new long[] {0}, new long[] {0}),
            // Iterations of 30 and 60 documents in 3 s each: 15 docs/s, however JMH combines
            // iterations.
            JmhResults.search(
                ContenderKind.QUARRY,
                10_000,
                20,
                latencies(3, 80),
                new long[] {30, 60},
                new long[] {3_000, 3_000}),
            JmhResults.search(
                ContenderKind.LUCENE,
                10_000,
                20,
                latencies(2, 40),
                new long[] {60, 60},
                new long[] {3_000, 3_000}));
    List<Comparison> rows = ResultTable.of(results, List.of()).rows();

    List<String> measures = rows.stream().map(c -> c.measure() + " | " + c.conditions()).toList();
    assertEquals(
        List.of(
            "search p50 | 10,000 chunks",
            "search p99 | 10,000 chunks",
            "search throughput | 10,000 chunks",
            "search p50 | 10,000 chunks while indexing 20 docs/s",
            "search p99 | 10,000 chunks while indexing 20 docs/s",
            "concurrent indexing | 10,000 chunks while indexing 20 docs/s"),
        measures);
    Comparison p50 = rows.get(3);
    assertEquals(2, p50.threads());
    assertEquals("ms", p50.unit());
    // JMH keeps samples in buckets of about 0.1% precision.
    assertEquals(3.0, p50.quarry(), 0.01);
    assertEquals(2.0, p50.lucene(), 0.01);
    assertEquals(1.5, p50.ratio(), 0.01);
    Comparison p99 = rows.get(4);
    assertEquals(80.0, p99.quarry(), 0.1);
    assertEquals(40.0, p99.lucene(), 0.1);
    assertEquals(2.0, p99.ratio(), 0.01);
    Comparison rate = rows.get(5);
    assertEquals("docs/s", rate.unit());
    assertEquals(15.0, rate.quarry(), 1e-9);
    assertEquals(20.0, rate.lucene(), 1e-9);
    assertEquals(0.75, rate.ratio(), 1e-9);
    assertTrue(Double.isNaN(rate.quarryHttp()));

    String markdown = ResultTable.of(results, List.of()).toMarkdown();
    assertTrue(
        markdown.contains("| search p99 | 10,000 chunks while indexing 20 docs/s | 2 | ms | "),
        markdown);
    assertTrue(
        markdown.contains(
            "| concurrent indexing | 10,000 chunks while indexing 20 docs/s | 2 | docs/s | 15.0 | 20.0 | 0.75x |"),
        markdown);
  }

  @Test
  void searchUnderIndexing_httpContenders_getTheHttpRatios() {
    List<RunResult> results =
        List.of(
            JmhResults.search(
                ContenderKind.LUCENE,
                100,
                50,
                latencies(2, 2),
                new long[] {10},
                new long[] {1_000}),
            JmhResults.search(
                ContenderKind.QUARRY_HTTP,
                100,
                50,
                latencies(4, 4),
                new long[] {5},
                new long[] {1_000}),
            JmhResults.search(
                ContenderKind.OPENSEARCH,
                100,
                50,
                latencies(8, 8),
                new long[] {10},
                new long[] {1_000}));
    Comparison p50 = ResultTable.of(results, List.of()).rows().get(0);
    assertEquals("100 chunks while indexing 50 docs/s", p50.conditions());
    assertEquals(2.0, p50.httpRatio(), 0.01);
    assertEquals(0.5, p50.httpOverOpenSearch(), 0.01);
    Comparison rate = ResultTable.of(results, List.of()).rows().get(2);
    assertEquals(0.5, rate.httpRatio(), 1e-9);
    assertEquals(0.5, rate.httpOverOpenSearch(), 1e-9);
  }
}
