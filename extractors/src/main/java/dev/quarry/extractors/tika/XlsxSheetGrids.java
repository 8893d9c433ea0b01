package dev.quarry.extractors.tika;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.poi.openxml4j.exceptions.OpenXML4JException;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.opc.PackageAccess;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.util.LocaleUtil;
import org.apache.poi.xssf.eventusermodel.ReadOnlySharedStringsTable;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.eventusermodel.XSSFSheetXMLHandler;
import org.apache.poi.xssf.eventusermodel.XSSFSheetXMLHandler.SheetContentsHandler;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.usermodel.XSSFComment;
import org.apache.tika.parser.microsoft.TikaExcelDataFormatter;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The grids of an OOXML workbook's sheets, read with POI's streaming reader: each cell at its own
 * row and column, and each merged region's value repeated in every cell it covers, as a reader of
 * the sheet sees it (and as Docling reads sheets). Tika reports a sheet as one table without its
 * merged regions (the covered cells come out empty) and without its blank rows (two blocks of
 * figures apart on the sheet come out touching), so {@link SheetTables} would read both wrong.
 *
 * <p>Cells are formatted as Tika formats them (its {@code TikaExcelDataFormatter}, the cached value
 * of a formula), and each grid keeps the text of the sheet's own cells in order without whitespace
 * ({@link DocxTableGrids.Grid#signature}): a table Tika reported is matched with its sheet by that
 * text, and a sheet Tika wrote otherwise (a cell with a comment, say) keeps Tika's cells.
 *
 * <p>Bounded as {@link TableCollector} is: columns past {@value TableCollector#MAX_COLUMNS} are
 * left out, a merged region repeats its value over at most {@value TableCollector#MAX_SPAN} rows
 * and columns, a run of blank rows is one blank row, and past {@code maxChars} characters of cell
 * text (repeated values included) a sheet gives no grid. A workbook that cannot be read gives no
 * grids.
 */
final class XlsxSheetGrids {
  private XlsxSheetGrids() {}

  /** The grids of the sheets of {@code file}, in workbook order; empty when unreadable. */
  static List<DocxTableGrids.Grid> read(Path file, long maxChars) {
    try (OPCPackage pkg = OPCPackage.open(file.toFile(), PackageAccess.READ)) {
      XSSFReader reader = new XSSFReader(pkg);
      StylesTable styles = reader.getStylesTable();
      ReadOnlySharedStringsTable strings = new ReadOnlySharedStringsTable(pkg, true);
      TikaExcelDataFormatter formatter = new TikaExcelDataFormatter(LocaleUtil.getUserLocale());
      List<DocxTableGrids.Grid> grids = new ArrayList<>();
      Iterator<InputStream> sheets = reader.getSheetsData();
      while (sheets.hasNext()) {
        Sheet sheet = new Sheet(maxChars);
        try (InputStream in = sheets.next()) {
          ZipXmlText.secureParser()
              .parse(
                  in,
                  new MergeCells(
                      new XSSFSheetXMLHandler(styles, null, strings, sheet, formatter, false),
                      sheet));
        }
        DocxTableGrids.Grid grid = sheet.grid();
        if (grid != null) {
          grids.add(grid);
        }
      }
      return grids;
    } catch (IOException
        | SAXException
        | ParserConfigurationException
        | OpenXML4JException
        | RuntimeException unreadable) {
      return List.of();
    }
  }

  /** The cells and merged regions of one sheet. */
  private static final class Sheet implements SheetContentsHandler {
    private final TreeMap<Integer, TreeMap<Integer, String>> cells = new TreeMap<>();
    private final List<CellRangeAddress> merged = new ArrayList<>();
    private final StringBuilder signature = new StringBuilder();
    private final long maxChars;
    private long chars;
    private int row;
    private int nextColumn;

    Sheet(long maxChars) {
      this.maxChars = maxChars;
    }

    @Override
    public void startRow(int rowNum) {
      row = rowNum;
      nextColumn = 0;
    }

    @Override
    public void endRow(int rowNum) {}

    @Override
    public void cell(String cellReference, String formattedValue, XSSFComment comment) {
      int column = nextColumn;
      int at = row;
      if (cellReference != null) {
        CellReference ref = new CellReference(cellReference);
        column = ref.getCol();
        at = ref.getRow() < 0 ? row : ref.getRow();
      }
      nextColumn = column + 1;
      String value = formattedValue == null ? "" : collapse(formattedValue);
      if (value.isEmpty() || column < 0 || column >= TableCollector.MAX_COLUMNS) {
        return;
      }
      chars += value.length();
      if (chars > maxChars) {
        return; // too much text: the sheet gives no grid
      }
      DocxTableGrids.appendWithoutWhitespace(signature, value);
      cells.computeIfAbsent(at, r -> new TreeMap<>()).put(column, value);
    }

    void merge(String ref) {
      try {
        merged.add(CellRangeAddress.valueOf(ref));
      } catch (RuntimeException malformed) {
        // a region that names no cells merges none
      }
    }

    /** The sheet's grid, or null when it holds no cell or too much text. */
    DocxTableGrids.Grid grid() {
      for (CellRangeAddress region : merged) {
        spread(region);
      }
      if (cells.isEmpty() || chars > maxChars) {
        return null;
      }
      int width = 0;
      for (TreeMap<Integer, String> r : cells.values()) {
        width = Math.max(width, r.lastKey() + 1);
      }
      List<List<String>> rows = new ArrayList<>();
      int previous = -1;
      for (Map.Entry<Integer, TreeMap<Integer, String>> r : cells.entrySet()) {
        if (previous >= 0 && r.getKey() > previous + 1) {
          rows.add(blank(width)); // a run of blank rows parts tables as one blank row does
        }
        List<String> line = blank(width);
        r.getValue().forEach(line::set);
        rows.add(line);
        previous = r.getKey();
      }
      return new DocxTableGrids.Grid(rows, signature.toString());
    }

    /** Repeats the value of {@code region}'s first cell in every other cell it covers. */
    private void spread(CellRangeAddress region) {
      TreeMap<Integer, String> first = cells.get(region.getFirstRow());
      String value = first == null ? null : first.get(region.getFirstColumn());
      if (value == null) {
        return;
      }
      int lastRow =
          Math.min(region.getLastRow(), region.getFirstRow() + TableCollector.MAX_SPAN - 1);
      int lastColumn =
          Math.min(
              Math.min(
                  region.getLastColumn(), region.getFirstColumn() + TableCollector.MAX_SPAN - 1),
              TableCollector.MAX_COLUMNS - 1);
      for (int r = region.getFirstRow(); r <= lastRow && chars <= maxChars; r++) {
        TreeMap<Integer, String> line = cells.computeIfAbsent(r, k -> new TreeMap<>());
        for (int c = region.getFirstColumn(); c <= lastColumn; c++) {
          if (!value.equals(line.put(c, value))) {
            chars += value.length();
          }
        }
      }
    }

    private static List<String> blank(int width) {
      List<String> line = new ArrayList<>(width);
      for (int c = 0; c < width; c++) {
        line.add("");
      }
      return line;
    }

    /** Whitespace runs as one space, stripped, as {@link TableCollector} gathers a cell. */
    private static String collapse(String s) {
      StringBuilder out = new StringBuilder(s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isWhitespace(c) || c == '\u00A0') {
          if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
          }
        } else {
          out.append(c);
        }
      }
      return out.toString().strip();
    }
  }

  /**
   * Passes a sheet's XML to POI's cell reader and takes its merged regions ({@code <mergeCell
   * ref="A1:B2"/>}), which that reader does not report.
   */
  private static final class MergeCells extends DefaultHandler {
    private final DefaultHandler cells;
    private final Sheet sheet;

    MergeCells(DefaultHandler cells, Sheet sheet) {
      this.cells = cells;
      this.sheet = sheet;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts)
        throws SAXException {
      if ("mergeCell".equals(localName)) {
        String ref = atts.getValue("ref");
        if (ref != null) {
          sheet.merge(ref);
        }
      }
      cells.startElement(uri, localName, qName, atts);
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
      cells.endElement(uri, localName, qName);
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
      cells.characters(ch, start, length);
    }
  }
}
