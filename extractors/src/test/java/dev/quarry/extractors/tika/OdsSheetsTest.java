package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.nio.file.Path;
import java.util.List;
import org.apache.tika.config.TikaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An OpenDocument spreadsheet read sheet by sheet, as a workbook. */
class OdsSheetsTest {
  private static final String ODS = "application/vnd.oasis.opendocument.spreadsheet";

  @TempDir Path dir;

  /**
   * Two sheets: a header merged over two columns, a value repeated over two columns, a comment, a
   * row repeated three times, a million blank rows between two blocks, a thousand empty cells after
   * a row's last value; and a master page whose header is a field.
   */
  private static final String CONTENT =
      OdfPackages.content(
          """
        <office:body><office:spreadsheet>
          <table:table table:name="Fleet">
            <table:table-row>
              <table:table-cell><text:p>Ship</text:p></table:table-cell>
              <table:table-cell table:number-columns-spanned="2"><text:p>Voyage</text:p></table:table-cell>
              <table:covered-table-cell/>
              <table:table-cell table:number-columns-repeated="1000"/>
            </table:table-row>
            <table:table-row table:number-rows-repeated="3">
              <table:table-cell><text:p>Aurora</text:p>
                <office:annotation><text:p>a comment</text:p></office:annotation></table:table-cell>
              <table:table-cell table:number-columns-repeated="2"><text:p>7</text:p></table:table-cell>
            </table:table-row>
            <table:table-row table:number-rows-repeated="1000000">
              <table:table-cell table:number-columns-repeated="3"/>
            </table:table-row>
            <table:table-row>
              <table:table-cell><text:p>Port</text:p></table:table-cell>
              <table:table-cell><text:p>Tide</text:p></table:table-cell>
            </table:table-row>
            <table:table-row>
              <table:table-cell><text:p>Bergen</text:p></table:table-cell>
              <table:table-cell><text:p>06:40</text:p></table:table-cell>
            </table:table-row>
          </table:table>
          <table:table table:name="Totals">
            <table:table-row><table:table-cell><text:p>Sum</text:p></table:table-cell>
              <table:table-cell><text:p>42</text:p></table:table-cell></table:table-row>
          </table:table>
        </office:spreadsheet></office:body>
      """);

  private static final String STYLES =
      OdfPackages.styles(
          """
        <office:master-styles><style:master-page style:name="Default">
          <style:header><text:p><text:sheet-name>???</text:sheet-name></text:p></style:header>
          <style:footer><text:p>Page <text:page-number>1</text:page-number></text:p></style:footer>
        </style:master-page></office:master-styles>
      """);

  private Path workbook() throws Exception {
    return OdfPackages.write(dir.resolve("fleet.ods"), ODS, CONTENT, STYLES);
  }

  @Test
  void eachSheetIsAPageHeadedByItsName_itsBlocksTables_withoutTheMasterPage() throws Exception {
    Extraction extraction =
        new TikaExtractor(TikaConfig.getDefaultConfig())
            .extract(workbook(), ODS, ExtractionLimits.defaults());
    String text = extraction.text();
    assertEquals(2, extraction.pageStarts().length, text);
    assertEquals(
        List.of(
            List.of(
                List.of("Ship", "Voyage", "Voyage"),
                List.of("Aurora", "7", "7"),
                List.of("Aurora", "7", "7"),
                List.of("Aurora", "7", "7")),
            List.of(List.of("Port", "Tide"), List.of("Bergen", "06:40")),
            List.of(List.of("Sum", "42"))),
        extraction.tables().stream().map(ExtractedTable::rows).toList(),
        "a merged header fills both columns, a repeated value each, a repeated row each time; "
            + "the blank rows part two tables");
    assertTrue(text.startsWith("# Fleet\n"), text);
    assertTrue(text.contains("\n# Totals\n"), text);
    assertFalse(text.contains("comment"), "a cell's comment is not its value");
    assertFalse(text.contains("???") || text.contains("Page"), "the master page is not a sheet");
  }
}
