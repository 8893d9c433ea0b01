package dev.quarry.benchmarks.extraction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.extractors.Extractors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The structure extracted from a few shared documents stays as good as docs/ingestion.md says,
 * against Docling's; skipped, saying so, without the shared documents ({@code
 * -Dquarry.shared.dir}).
 */
class StructureAgainstDoclingTest {
  static Path good;
  static Extractors extractors;

  @BeforeAll
  static void open() {
    String shared = System.getProperty("quarry.shared.dir");
    good = shared == null ? null : Path.of(shared, "data", "docs", "good");
    assumeTrue(
        good != null && Files.isDirectory(good), "shared documents absent; set quarry.shared.dir");
    extractors = Extractors.builder().build();
  }

  @AfterAll
  static void close() {
    if (extractors != null) {
      extractors.close();
    }
  }

  static StructureScore score(String file) throws Exception {
    StructureCommand.Reference ref =
        StructureCommand.references().stream()
            .filter(r -> r.file().equals(file))
            .findFirst()
            .orElseThrow();
    return StructureCommand.score(extractors, good.resolve(file), ref);
  }

  @Test
  void everyReference_isAFileOfTheSharedFolder_withItsGroundTruth() {
    assertEquals(34, StructureCommand.references().size());
    StructureCommand.references()
        .forEach(r -> assertTrue(Files.isReadable(good.resolve(r.file())), r.file()));
  }

  @Test
  void headings_ofHtmlMarkdownSlidesAndOutlinedPdfs_matchDoclings() throws Exception {
    for (String file :
        new String[] {
          "docling__wiki_duck.html",
          "docling__wiki.md",
          "docling__powerpoint_comments.pptx",
          "docling__multi_page.pdf"
        }) {
      assertEquals(1.0, score(file).f1(), 1e-9, file);
    }
  }

  @Test
  void tableCells_ofHtmlAndOpenDocument_matchDoclings() throws Exception {
    for (Map.Entry<String, Double> e :
        Map.of(
                "docling__html_rich_table_cells.html",
                0.9,
                "docling__kvp_data_example.html",
                1.0,
                "docling__text_document_03.odt",
                0.95)
            .entrySet()) {
      StructureScore s = score(e.getKey());
      assertTrue(s.cellAccuracy() >= e.getValue(), e.getKey() + ": " + s);
    }
  }

  @Test
  void tableCells_ofWorkbooks_matchDoclings_butForItsChartTables() throws Exception {
    // xlsx_01: every sheet table as Docling reads it (merged cells repeated, blocks parted at
    // blank rows); Docling's two tables read from charts are the cells still missing.
    StructureScore charts = score("docling__xlsx_01.xlsx");
    assertTrue(charts.cellAccuracy() >= 0.73, charts.toString());
    StructureScore edges = score("docling__xlsx_06_edge_cases_.xlsx");
    assertEquals(1.0, edges.cellAccuracy(), 1e-9, edges.toString());
  }
}
