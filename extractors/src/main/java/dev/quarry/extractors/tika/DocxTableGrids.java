package dev.quarry.extractors.tika;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.ParserConfigurationException;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The grids of a Word document's tables with their merged cells, read from its main part ({@code
 * word/document.xml}). Tika reports a DOCX table's cells without their spans, so a cell merged
 * across columns ({@code w:gridSpan}) or down rows ({@code w:vMerge}), or a row that starts late
 * ({@code w:gridBefore}), shifts every cell after it under the wrong header. Here each merged cell
 * repeats its value in every column and row it covers, as {@link TableCollector} does with HTML's
 * {@code colspan} and {@code rowspan}.
 *
 * <p>Only top-level tables are grids; a table nested in a cell is that cell's text. Each grid keeps
 * the text of its cells in document order without whitespace ({@link Grid#signature}), which is how
 * a table Tika reported is matched with its grid. Bounded as {@link TableCollector} is: at most
 * {@value TableCollector#MAX_COLUMNS} columns and spans of {@value TableCollector#MAX_SPAN}, and at
 * most {@code maxChars} characters of cell text in all. XML is read without DTDs or external
 * entities; a part that cannot be read gives no grids (the tables stay as Tika reported them).
 */
final class DocxTableGrids {
  /** One table: its rows, each as wide as the widest, and its cells' text without whitespace. */
  record Grid(List<List<String>> rows, String signature) {}

  private DocxTableGrids() {}

  /**
   * The grids of the top-level tables of {@code file}'s main part, in document order; empty when
   * unreadable.
   */
  static List<Grid> read(Path file, long maxChars) {
    try (ZipFile zip = new ZipFile(file.toFile())) {
      ZipEntry part = zip.getEntry("word/document.xml");
      if (part == null) {
        return List.of();
      }
      Collector collector = new Collector(maxChars);
      try (InputStream in = zip.getInputStream(part)) {
        ZipXmlText.secureParser().parse(in, collector);
      }
      return collector.grids;
    } catch (IOException
        | SAXException
        | ParserConfigurationException
        | RuntimeException unreadable) {
      return List.of();
    }
  }

  /**
   * The text of a Tika table's cells, in order, without whitespace: what {@link Grid#signature} is
   * compared with.
   */
  static String signature(List<List<String>> cells) {
    StringBuilder out = new StringBuilder();
    for (List<String> row : cells) {
      for (String cell : row) {
        appendWithoutWhitespace(out, cell);
      }
    }
    return out.toString();
  }

  static void appendWithoutWhitespace(StringBuilder out, CharSequence s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isWhitespace(c) && c != '\u00A0') {
        out.append(c);
      }
    }
  }

  private static final class Collector extends DefaultHandler {
    final List<Grid> grids = new ArrayList<>();
    private final long maxChars;
    private long chars;
    private int tableDepth;
    private List<List<String>> rows;
    private StringBuilder signature;
    private int column;
    private StringBuilder cell;
    private int span;
    private boolean continuesAbove;
    private boolean inText;

    Collector(long maxChars) {
      this.maxChars = maxChars;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts)
        throws SAXException {
      String name = localName.isEmpty() ? qName.substring(qName.indexOf(':') + 1) : localName;
      if (name.equals("tbl")) {
        if (tableDepth++ == 0) {
          rows = new ArrayList<>();
          signature = new StringBuilder();
        } else if (cell != null) {
          cell.append(' ');
        }
        return;
      }
      if (tableDepth == 0) {
        return;
      }
      if (tableDepth > 1) {
        inText = name.equals("t") && cell != null;
        if (cell != null
            && (name.equals("p") || name.equals("tab") || name.equals("br") || name.equals("tc"))) {
          cell.append(' ');
        }
        return;
      }
      switch (name) {
        case "tr" -> {
          rows.add(new ArrayList<>());
          column = 0;
        }
        case "gridBefore" ->
            column = Math.min(TableCollector.MAX_COLUMNS, column + number(atts, 0));
        case "tc" -> {
          cell = new StringBuilder();
          span = 1;
          continuesAbove = false;
        }
        case "gridSpan" -> span = Math.max(1, Math.min(TableCollector.MAX_SPAN, number(atts, 1)));
        case "vMerge" -> {
          String value = value(atts);
          continuesAbove = value == null || value.equals("continue");
        }
        case "t" -> inText = cell != null;
        case "p", "tab", "br" -> {
          if (cell != null) {
            cell.append(' ');
          }
        }
        default -> {}
      }
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
      String name = localName.isEmpty() ? qName.substring(qName.indexOf(':') + 1) : localName;
      if (name.equals("t")) {
        inText = false;
      }
      if (name.equals("tbl")) {
        if (--tableDepth == 0) {
          grids.add(new Grid(square(rows), signature.toString()));
          rows = null;
        }
        return;
      }
      if (tableDepth != 1 || !name.equals("tc") || cell == null || rows.isEmpty()) {
        return;
      }
      String text = cell.toString().replaceAll("\\s+", " ").strip();
      appendWithoutWhitespace(signature, text);
      cell = null;
      List<String> row = rows.get(rows.size() - 1);
      if (continuesAbove && rows.size() > 1) {
        List<String> above = rows.get(rows.size() - 2);
        text = column < above.size() ? above.get(column) : text;
      }
      for (int c = column; c < Math.min(TableCollector.MAX_COLUMNS, column + span); c++) {
        while (row.size() <= c) {
          row.add("");
        }
        row.set(c, text);
      }
      column = Math.min(TableCollector.MAX_COLUMNS, column + span);
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      if (inText && cell != null && chars <= maxChars) {
        chars += length;
        cell.append(ch, start, length);
      }
    }

    private static int number(Attributes atts, int fallback) {
      String value = value(atts);
      try {
        return value == null ? fallback : Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        return fallback;
      }
    }

    /** The {@code w:val} attribute, whatever its prefix. */
    private static String value(Attributes atts) {
      for (int i = 0; i < atts.getLength(); i++) {
        String local = atts.getLocalName(i).isEmpty() ? atts.getQName(i) : atts.getLocalName(i);
        if (local.equals("val") || local.endsWith(":val")) {
          return atts.getValue(i);
        }
      }
      return null;
    }

    /** The rows as wide as the widest, without rows that hold no text. */
    private static List<List<String>> square(List<List<String>> rows) {
      int width = 0;
      for (List<String> r : rows) {
        width = Math.max(width, r.size());
      }
      List<List<String>> out = new ArrayList<>(rows.size());
      for (List<String> r : rows) {
        List<String> cells = new ArrayList<>(r);
        while (cells.size() < width) {
          cells.add("");
        }
        if (cells.stream().anyMatch(c -> !c.isEmpty())) {
          out.add(cells);
        }
      }
      return out;
    }
  }
}
