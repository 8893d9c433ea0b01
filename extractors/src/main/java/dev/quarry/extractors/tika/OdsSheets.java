package dev.quarry.extractors.tika;

import static dev.quarry.extractors.tika.OdfContent.OFFICE;
import static dev.quarry.extractors.tika.OdfContent.TABLE;
import static dev.quarry.extractors.tika.OdfContent.TEXT;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;
import org.xml.sax.helpers.DefaultHandler;

/**
 * An OpenDocument spreadsheet's sheets, read from its {@code content.xml} and written as the XHTML
 * events Tika writes for an XLSX workbook ({@code <div class="sheet"><h1>name</h1><table>}), which
 * {@link MarkdownRenderingHandler} renders as it does every workbook: each sheet a page headed by
 * its name, its grid split into the tables laid on it. Tika reads an ODS without sheet starts or
 * names, and with the page header and footer of its master page ({@code ???}, {@code Page}) as
 * text. Repeated rows and columns ({@code number-rows-repeated}, often a million empty rows) are
 * bounded: an empty row is written once (it still parts two blocks of cells), a row with cells at
 * most {@value #MAX_ROW_REPEAT} times, and empty cells after a row's last value not at all.
 */
final class OdsSheets extends DefaultHandler {
  static final int MAX_ROW_REPEAT = 1_000;

  /** One cell of the row being read. */
  private record Cell(String text, int columnsRepeated, String colspan, String rowspan) {}

  private final ContentHandler out;

  /** Depth of open tables: 1 is a sheet; deeper ones are text of the cell that holds them. */
  private int tableDepth;

  private int annotationDepth;
  private boolean inSpreadsheet;
  private boolean sawSpreadsheet;
  private List<Cell> row;
  private int rowsRepeated;
  private StringBuilder cell;
  private Attributes cellAttributes;
  private int paragraphs;

  private OdsSheets(ContentHandler out) {
    this.out = out;
  }

  /**
   * Writes the sheets of {@code file} to {@code out}; false, writing nothing, when its {@code
   * content.xml} holds no spreadsheet.
   */
  static boolean read(Path file, ContentHandler out) throws IOException, SAXException {
    OdsSheets sheets = new OdsSheets(out);
    return OdfContent.parse(file, sheets) && sheets.sawSpreadsheet;
  }

  @Override
  public void startElement(String uri, String local, String qName, Attributes atts)
      throws SAXException {
    if (OFFICE.equals(uri) && local.equals("spreadsheet")) {
      inSpreadsheet = true;
      sawSpreadsheet = true;
      out.startDocument();
      return;
    }
    if (!inSpreadsheet) {
      return;
    }
    if (OFFICE.equals(uri) && local.equals("annotation")) {
      annotationDepth++; // a comment on a cell, not its value
    } else if (TABLE.equals(uri) && local.equals("table")) {
      if (++tableDepth == 1) {
        AttributesImpl sheet = new AttributesImpl();
        sheet.addAttribute("", "class", "class", "CDATA", "sheet");
        start("div", sheet);
        String name = atts.getValue(TABLE, "name");
        if (name != null && !name.isBlank()) {
          start("h1", new AttributesImpl());
          out.characters(name.toCharArray(), 0, name.length());
          end("h1");
        }
        start("table", new AttributesImpl());
      } else if (cell != null) {
        cell.append(' ');
      }
    } else if (tableDepth == 1 && TABLE.equals(uri) && local.equals("table-row")) {
      row = new ArrayList<>();
      rowsRepeated = count(atts.getValue(TABLE, "number-rows-repeated"));
    } else if (tableDepth == 1 && TABLE.equals(uri) && local.equals("table-cell")) {
      cell = new StringBuilder();
      cellAttributes = new AttributesImpl(atts);
      paragraphs = 0;
    } else if (cell != null && TEXT.equals(uri) && local.equals("p")) {
      if (paragraphs++ > 0) {
        cell.append(' ');
      }
    } else if (cell != null && TEXT.equals(uri) && (local.equals("s") || local.equals("tab"))) {
      cell.append(' ');
    }
  }

  @Override
  public void endElement(String uri, String local, String qName) throws SAXException {
    if (!inSpreadsheet) {
      return;
    }
    if (OFFICE.equals(uri) && local.equals("spreadsheet")) {
      inSpreadsheet = false;
      out.endDocument();
    } else if (OFFICE.equals(uri) && local.equals("annotation")) {
      annotationDepth--;
    } else if (TABLE.equals(uri) && local.equals("table")) {
      if (--tableDepth == 0) {
        end("table");
        end("div");
      }
    } else if (tableDepth == 1 && TABLE.equals(uri) && local.equals("table-cell") && cell != null) {
      row.add(
          new Cell(
              cell.toString().strip(),
              count(cellAttributes.getValue(TABLE, "number-columns-repeated")),
              cellAttributes.getValue(TABLE, "number-columns-spanned"),
              cellAttributes.getValue(TABLE, "number-rows-spanned")));
      cell = null;
    } else if (tableDepth == 1 && TABLE.equals(uri) && local.equals("table-row") && row != null) {
      writeRow();
      row = null;
    }
  }

  @Override
  public void characters(char[] ch, int start, int length) {
    if (cell != null && annotationDepth == 0) {
      cell.append(ch, start, length);
    }
  }

  /** The row read, its trailing empty cells dropped, written as often as it repeats (bounded). */
  private void writeRow() throws SAXException {
    int last = row.size() - 1;
    while (last >= 0 && row.get(last).text().isEmpty()) {
      last--;
    }
    int times = last < 0 ? 1 : Math.min(rowsRepeated, MAX_ROW_REPEAT);
    for (int r = 0; r < times; r++) {
      start("tr", new AttributesImpl());
      int columns = 0;
      for (int c = 0; c <= last && columns < TableCollector.MAX_COLUMNS; c++) {
        Cell cell = row.get(c);
        int repeat = Math.min(cell.columnsRepeated(), TableCollector.MAX_COLUMNS - columns);
        for (int k = 0; k < repeat; k++, columns++) {
          AttributesImpl atts = new AttributesImpl();
          if (cell.colspan() != null) {
            atts.addAttribute("", "colspan", "colspan", "CDATA", cell.colspan());
          }
          if (cell.rowspan() != null) {
            atts.addAttribute("", "rowspan", "rowspan", "CDATA", cell.rowspan());
          }
          start("td", atts);
          out.characters(cell.text().toCharArray(), 0, cell.text().length());
          end("td");
        }
      }
      end("tr");
    }
  }

  private static int count(String value) {
    if (value == null) {
      return 1;
    }
    try {
      return Math.max(1, Integer.parseInt(value.strip()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private void start(String name, Attributes atts) throws SAXException {
    OdfContent.start(out, name, atts);
  }

  private void end(String name) throws SAXException {
    OdfContent.end(out, name);
  }
}
