package dev.quarry.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.extraction.BuildSharedDir;
import dev.quarry.benchmarks.report.Comparison;
import dev.quarry.benchmarks.report.ExtractionTable;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the whole harness at tiny sizes, in-process, so it cannot rot: every benchmark, the
 * footprint probe, extraction beside pdftotext (where the shared documents and pdftotext are here)
 * and the report. Its figures are meaningless and never asserted on.
 */
class HarnessSmokeTest {
  private static final Set<String> MEASURES =
      Set.of(
          "indexing",
          "search p50",
          "search p99",
          "search throughput",
          "concurrent indexing",
          "heap after GC per chunk",
          "disk per chunk");
  private static final String UNDER_INDEXING =
      "100 chunks while indexing " + Profile.SMOKE.searchIndexingDocsPerSecond() + " docs/s";

  @Test
  void smokeProfile_reportsEveryMeasureForEachMeasuredContender(@TempDir Path workspace)
      throws Exception {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    Report report =
        new Harness(
                Profile.SMOKE,
                Corpus.GENERATED,
                Harness.DEFAULT_SEED,
                workspace,
                quiet,
                BuildSharedDir.path())
            .run();

    assumeFalse(
        report.notes().stream().anyMatch(n -> n.startsWith("lucene indexing not measured")),
        "the engine's chunker is not implemented yet, so neither contender can index: "
            + report.notes());
    boolean quarryMeasured = report.notes().stream().noneMatch(n -> n.startsWith("quarry"));
    List<Comparison> rows = report.table().rows();
    assertEquals(MEASURES, rows.stream().map(Comparison::measure).collect(Collectors.toSet()));
    for (Comparison row : rows) {
      if (row.measure().equals("concurrent indexing")
          || row.measure().startsWith("heap after GC")) {
        // A 100 ms iteration may end before the first batch returns: a rate, but maybe 0. The heap
        // a 100-chunk index holds is within the noise of a GC, and the probe reports 0 below it.
        assertTrue(row.lucene() >= 0, "raw Lucene figure of " + row);
        assertTrue(!quarryMeasured || row.quarry() >= 0, "Quarry figure of " + row);
        continue;
      }
      assertTrue(row.lucene() > 0, "raw Lucene figure of " + row);
      assertTrue(!quarryMeasured || row.quarry() > 0, "Quarry figure of " + row);
    }
    assertEquals(
        Set.of(0, 1, 2), rows.stream().map(Comparison::threads).collect(Collectors.toSet()));
    for (int threads : Profile.SMOKE.threads()) {
      Set<String> underIndexing =
          rows.stream()
              .filter(r -> r.threads() == threads && r.conditions().equals(UNDER_INDEXING))
              .map(Comparison::measure)
              .collect(Collectors.toSet());
      assertEquals(
          Set.of("search p50", "search p99", "concurrent indexing"),
          underIndexing,
          threads + " threads: " + rows);
    }
    assertTrue(report.toMarkdown().contains("| Quarry / Lucene |"), report.toMarkdown());
    assertExtraction(report);
  }

  /** Extraction rows for both kinds of documents, and pdftotext's beside the PDFs where it runs. */
  private static void assertExtraction(Report report) {
    if (report.notes().stream().anyMatch(n -> n.startsWith("extraction not measured"))) {
      assertTrue(report.extraction().isEmpty(), report.notes().toString());
      return;
    }
    List<ExtractionTable.Row> rows = report.extraction().rows();
    assertEquals(
        Set.of("pages/s", "docs/s"),
        rows.stream()
            .filter(r -> r.measure().equals("extraction") && r.documents().contains("PDFs"))
            .map(ExtractionTable.Row::unit)
            .collect(Collectors.toSet()),
        rows.toString());
    assertTrue(
        rows.stream()
            .anyMatch(r -> r.measure().equals("extraction") && r.documents().contains("other")),
        rows.toString());
    boolean pdftotext =
        report.notes().stream().noneMatch(n -> n.startsWith("pdftotext not measured"));
    for (ExtractionTable.Row row : rows) {
      // A 200 ms iteration may end within one slow document: a rate, but maybe 0.
      assertTrue(row.quarry() >= 0, "Quarry figure of " + row);
      boolean referenced = row.measure().equals("extraction") && row.documents().contains("PDFs");
      assertEquals(referenced && pdftotext, row.pdftotext() > 0, "pdftotext figure of " + row);
    }
    assertTrue(report.toMarkdown().contains("| Quarry / pdftotext |"), report.toMarkdown());
  }
}
