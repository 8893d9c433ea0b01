package dev.quarry.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.contender.ContenderKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {
  private static final List<Footprint> FOOTPRINTS = List.of(
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
}
