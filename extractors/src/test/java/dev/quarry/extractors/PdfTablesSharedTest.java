package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PDF tables on shared documents: tables open at their sides, with a shaded header, with cells
 * spanning rows and columns are found as Docling finds them; running text (prose, two columns) is
 * no table. Skipped, saying so, without the shared documents.
 */
class PdfTablesSharedTest {
  private static final Extractors extractors = TestExtractors.oneWorker();

  private static List<List<List<String>>> tables(String file) throws ExtractionException {
    Path pdf = SharedDocs.docs().resolve("good").resolve(file);
    return extractors.extract(pdf, null).tables().stream().map(ExtractedTable::rows).toList();
  }

  @Test
  void openSidedTable_withSpanningHeaders_repeatsEachSpanningCell() throws Exception {
    List<List<List<String>>> tables = tables("docling__2305.03393v1-pg9.pdf");
    assertEquals(1, tables.size(), tables.toString());
    List<List<String>> rows = tables.get(0);
    assertEquals(6, rows.size(), rows.toString());
    assertEquals(
        List.of(
            "# enc-layers",
            "# dec-layers",
            "Language",
            "TEDs",
            "TEDs",
            "TEDs",
            "mAP (0.75)",
            "Inference time (secs)"),
        rows.get(0));
    assertEquals(
        List.of("# enc-layers", "# dec-layers", "Language", "simple", "complex", "all"),
        rows.get(1).subList(0, 6));
    assertEquals(
        List.of(
            "6",
            "6",
            "OTSL HTML",
            "0.965 0.969",
            "0.934 0.927",
            "0.955 0.955",
            "0.88 0.857",
            "2.73 5.39"),
        rows.get(2));
  }

  @Test
  void shadedHeader_isItsOwnRow() throws Exception {
    List<List<List<String>>> tables = tables("docling__normal_4pages.pdf");
    assertEquals(1, tables.size(), tables.toString());
    assertEquals(List.of("구분", "개정전", "개정후"), tables.get(0).get(0));
    assertEquals(List.of("분류", "1군 감염병", "1급 감염병"), tables.get(0).get(1));
    assertEquals(5, tables.get(0).size());
  }

  @Test
  void runningText_isNoTable() throws Exception {
    for (String file :
        List.of("pypdf__multicolumn.pdf", "docling__multi_page.pdf", "docling__llncsdoc.pdf")) {
      assertEquals(List.of(), tables(file), file);
    }
  }
}
