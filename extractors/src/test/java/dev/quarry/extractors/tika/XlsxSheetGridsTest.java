package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Comment;
import org.apache.poi.ss.usermodel.Drawing;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.tika.config.TikaConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XlsxSheetGridsTest {
  private static final String XLSX =
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

  static TikaExtractor tika;

  @TempDir Path dir;

  @BeforeAll
  static void tika() {
    tika = new TikaExtractor(TikaConfig.getDefaultConfig());
  }

  /**
   * A sheet with a header merged across two columns, names merged down two rows, an empty cell,
   * dates and numbers, and a second block of cells three blank rows below the first.
   */
  private Path fleet() throws Exception {
    Path file = dir.resolve("fleet.xlsx");
    try (XSSFWorkbook book = new XSSFWorkbook();
        OutputStream out = Files.newOutputStream(file)) {
      CellStyle date = book.createCellStyle();
      date.setDataFormat(book.createDataFormat().getFormat("yyyy-mm-dd"));
      Sheet sheet = book.createSheet("Fleet");
      Row header = sheet.createRow(0);
      header.createCell(0).setCellValue("Ship");
      header.createCell(1).setCellValue("Voyage");
      header.createCell(3).setCellValue("Notes");
      Row sub = sheet.createRow(1);
      sub.createCell(1).setCellValue("Departed");
      sub.createCell(2).setCellValue("Tons");
      Object[][] voyages = {
        {"Aurora", LocalDate.of(2024, 3, 5), 1250.5, null},
        {"Borealis", LocalDate.of(2024, 3, 6), 980.0, "late"},
        {null, LocalDate.of(2024, 3, 7), 12.0, null}
      };
      for (int i = 0; i < voyages.length; i++) {
        Row row = sheet.createRow(2 + i);
        if (voyages[i][0] != null) {
          row.createCell(0).setCellValue((String) voyages[i][0]);
        }
        row.createCell(1).setCellValue((LocalDate) voyages[i][1]);
        row.getCell(1).setCellStyle(date);
        row.createCell(2).setCellValue((Double) voyages[i][2]);
        if (voyages[i][3] != null) {
          row.createCell(3).setCellValue((String) voyages[i][3]);
        }
      }
      sheet.addMergedRegion(CellRangeAddress.valueOf("A1:A2"));
      sheet.addMergedRegion(CellRangeAddress.valueOf("B1:C1"));
      sheet.addMergedRegion(CellRangeAddress.valueOf("A4:A5"));
      Row port = sheet.createRow(8);
      port.createCell(0).setCellValue("Port");
      port.createCell(1).setCellValue("Berths");
      Row bergen = sheet.createRow(9);
      bergen.createCell(0).setCellValue("Bergen");
      bergen.createCell(1).setCellValue(3);
      book.write(out);
    }
    return file;
  }

  @Test
  void mergedCells_repeatTheirValue_andBlankRowsPartTheSheetsTables() throws Exception {
    Extraction extraction = tika.extract(fleet(), XLSX, ExtractionLimits.defaults());
    List<ExtractedTable> tables = extraction.tables();
    assertEquals(2, tables.size(), extraction.text());
    assertEquals(
        List.of(
            List.of("Ship", "Voyage", "Voyage", "Notes"),
            List.of("Ship", "Departed", "Tons", ""),
            List.of("Aurora", "2024-03-05", "1250.5", ""),
            List.of("Borealis", "2024-03-06", "980", "late"),
            List.of("Borealis", "2024-03-07", "12", "")),
        tables.get(0).rows());
    assertEquals(List.of(List.of("Port", "Berths"), List.of("Bergen", "3")), tables.get(1).rows());
    assertEquals(
        List.of(
            "Ship = Aurora; Voyage / Departed = 2024-03-05; Voyage / Tons = 1250.5",
            "Ship = Borealis; Voyage / Departed = 2024-03-06; Voyage / Tons = 980; Notes = late",
            "Ship = Borealis; Voyage / Departed = 2024-03-07; Voyage / Tons = 12",
            "Port = Bergen; Berths = 3"),
        rowsWritten(extraction));
  }

  @Test
  void aRegionMergedOverThousandsOfRows_repeatsItsValueOverABoundedSpan() throws Exception {
    Path file = dir.resolve("tall.xlsx");
    try (XSSFWorkbook book = new XSSFWorkbook();
        OutputStream out = Files.newOutputStream(file)) {
      Sheet sheet = book.createSheet("Tall");
      sheet.createRow(0).createCell(0).setCellValue("x");
      sheet.addMergedRegion(CellRangeAddress.valueOf("A1:Z5000"));
      book.write(out);
    }
    List<DocxTableGrids.Grid> grids = XlsxSheetGrids.read(file, 1_000_000);
    assertEquals(1, grids.size());
    List<List<String>> rows = grids.get(0).rows();
    assertEquals(TableCollector.MAX_SPAN, rows.size());
    assertEquals(26, rows.get(0).size());
    assertEquals("x", rows.get(TableCollector.MAX_SPAN - 1).get(25));
    assertEquals("x", grids.get(0).signature(), "the sheet's own cells, once");
  }

  @Test
  void aSheetWithMoreTextThanTheLimit_givesNoGrid() throws Exception {
    Path file = dir.resolve("wide.xlsx");
    try (XSSFWorkbook book = new XSSFWorkbook();
        OutputStream out = Files.newOutputStream(file)) {
      Sheet sheet = book.createSheet("Wide");
      sheet.createRow(0).createCell(0).setCellValue("0123456789");
      sheet.addMergedRegion(CellRangeAddress.valueOf("A1:J10"));
      book.write(out);
    }
    assertEquals(1, XlsxSheetGrids.read(file, 1_000).size());
    assertEquals(0, XlsxSheetGrids.read(file, 500).size());
  }

  @Test
  void aSheetTikaWritesOtherwise_keepsTikasCells() throws Exception {
    Path file = dir.resolve("commented.xlsx");
    try (XSSFWorkbook book = new XSSFWorkbook();
        OutputStream out = Files.newOutputStream(file)) {
      Sheet sheet = book.createSheet("Commented");
      Row header = sheet.createRow(0);
      header.createCell(0).setCellValue("Ship");
      header.createCell(1).setCellValue("Port");
      Row row = sheet.createRow(1);
      row.createCell(0).setCellValue("Aurora");
      row.createCell(1).setCellValue("Bergen");
      sheet.addMergedRegion(CellRangeAddress.valueOf("A2:A3"));
      Drawing<?> drawing = sheet.createDrawingPatriarch();
      Comment note = drawing.createCellComment(book.getCreationHelper().createClientAnchor());
      note.setString(book.getCreationHelper().createRichTextString("refitted"));
      row.getCell(1).setCellComment(note);
      sheet.createRow(2).createCell(1).setCellValue("Tromso");
      book.write(out);
    }
    Extraction extraction = tika.extract(file, XLSX, ExtractionLimits.defaults());
    List<List<String>> rows = extraction.tables().get(0).rows();
    assertEquals(List.of("", "Tromso"), rows.get(2), "the merge is not applied: " + rows);
    assertTrue(rows.get(1).get(1).contains("refitted"), rows.toString());
  }

  @Test
  void aFileThatIsNoWorkbook_givesNoGrids() throws Exception {
    Path file = dir.resolve("not.xlsx");
    Files.writeString(file, "not a zip");
    assertEquals(List.of(), XlsxSheetGrids.read(file, 1_000));
  }

  /** The text of each row the tables wrote, in order. */
  private static List<String> rowsWritten(Extraction extraction) {
    return extraction.tables().stream()
        .flatMap(
            t ->
                t.rowStarts().stream()
                    .map(
                        s -> {
                          int end = extraction.text().indexOf("\n", s);
                          return extraction.text().substring(s, end < 0 ? t.end() : end);
                        }))
        .toList();
  }
}
