package dev.quarry.extractors.tika;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.text.MarkdownEscapes;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Turns Tika's XHTML events into text a Markdown-aware chunker can split: headings {@code
 * h1}..{@code h6} become ATX lines ({@code ## Section}), list items start with {@code - }, block
 * elements end lines, and the {@code <head>}, scripts and styles are left out. A table becomes one
 * paragraph per row with each cell named by its column's header ({@code Name = Ada; Born = 1815},
 * see {@link ExtractedTable}), and its cells are kept in {@link #tables()}; a table nested in a
 * cell is part of that cell's text.
 *
 * <p>When {@code paged} is set, each slide ({@code div.slide-content}) or sheet ({@code div.sheet},
 * or {@code div.page} in the binary formats) of the top-level document starts a page; embedded
 * documents never do.
 *
 * <p>One handler per document; not thread safe.
 */
final class MarkdownRenderingHandler extends DefaultHandler {

  private static final Set<String> BLOCKS =
      Set.of(
          "p",
          "div",
          "tr",
          "table",
          "blockquote",
          "pre",
          "dl",
          "dt",
          "dd",
          "ul",
          "ol",
          "section",
          "article",
          "header",
          "footer",
          "aside",
          "nav",
          "figure",
          "figcaption",
          "address",
          "hr",
          "caption",
          "thead",
          "tbody",
          "tfoot",
          "form",
          "fieldset",
          "main");
  private static final Set<String> SKIPPED =
      Set.of("head", "script", "style", "noscript", "template");
  private static final Set<String> PAGE_CLASSES = Set.of("slide-content", "sheet", "page");

  private final PagedTextBuilder text;
  private final boolean paged;

  /** For each open div, whether it wraps an embedded document. */
  private final ArrayDeque<Boolean> openDivs = new ArrayDeque<>();

  private int skipDepth;
  private int embeddedDepth;
  private int headingLevel;

  /** A package entry just opened: its first heading is the entry's file name. */
  private boolean entryNamePending;

  /** A list item's marker was the last thing written: the item's first block joins its line. */
  private boolean afterListMarker;

  /** The open paragraph is a slide's title, rendered as a heading. */
  private boolean slideTitle;

  private int pendingNewlines;
  private boolean pendingSpace;
  private final List<ExtractedTable> tables = new ArrayList<>();

  /** Whether the first paragraph of each slide is its title (presentations). */
  private boolean slideTitles;

  /** A slide started and its first paragraph has not been seen yet. */
  private boolean titlePending;

  private final long maxTableChars;

  /** The outermost open table, or null outside tables. */
  private TableCollector table;

  private boolean sheetTables;

  /**
   * The grids not yet matched with a table, in document order; null when there are none to look at.
   */
  private List<DocxTableGrids.Grid> grids;

  private int tableDepth;

  MarkdownRenderingHandler(PagedTextBuilder text, boolean paged, long maxTableChars) {
    this.text = text;
    this.paged = paged;
    this.maxTableChars = maxTableChars;
  }

  MarkdownRenderingHandler(PagedTextBuilder text, boolean paged) {
    this(text, paged, Long.MAX_VALUE);
  }

  /**
   * Renders the first paragraph of each slide as a level-1 heading: Tika's presentation reader
   * marks no title, and the title placeholder is the slide's first shape in nearly every deck (a
   * slide without a title then has its first text box as its heading).
   */
  MarkdownRenderingHandler withSlideTitles() {
    this.slideTitles = true;
    return this;
  }

  /**
   * Reads each table as a spreadsheet's sheet: its grid is split into the data tables laid on it
   * ({@link SheetTables}), each rendered and kept as a table of its own.
   */
  MarkdownRenderingHandler withSheetTables() {
    this.sheetTables = true;
    return this;
  }

  /**
   * Reads each top-level table with the cells of its grid in {@code grids} (a Word document's
   * tables with their merged cells, {@link DocxTableGrids}; a workbook's sheets with their merged
   * cells and blank rows, {@link XlsxSheetGrids}) when one holds the same text; a table without one
   * keeps the cells Tika reported.
   */
  MarkdownRenderingHandler withTableGrids(List<DocxTableGrids.Grid> grids) {
    this.grids = new ArrayList<>(grids);
    return this;
  }

  /** The tables rendered so far, in text order. */
  List<ExtractedTable> tables() {
    return List.copyOf(tables);
  }

  @Override
  public void startElement(String uri, String localName, String qName, Attributes atts)
      throws SAXException {
    String name =
        localName.isEmpty() ? qName.toLowerCase(Locale.ROOT) : localName.toLowerCase(Locale.ROOT);
    if (skipDepth > 0 || SKIPPED.contains(name)) {
      skipDepth++;
      return;
    }
    String cssClass = atts.getValue("class");
    if ("div".equals(name)) {
      boolean embedded = "embedded".equals(cssClass) || "package-entry".equals(cssClass);
      openDivs.push(embedded);
      entryNamePending = "package-entry".equals(cssClass);
      if (embedded) {
        embeddedDepth++;
      } else if (paged
          && embeddedDepth == 0
          && cssClass != null
          && PAGE_CLASSES.contains(cssClass)) {
        startPage();
        titlePending = slideTitles && "slide-content".equals(cssClass);
      }
    }
    if (tableElementStarted(name, atts)) {
      return;
    }
    int level = headingLevel(name);
    if (level > 0 && entryNamePending) {
      // A package entry opens with its file name as a heading ("image1.png"): a name, not a part.
      level = 0;
      breakLines(2);
    }
    if (!"div".equals(name)) {
      entryNamePending = false;
    }
    if (titlePending && embeddedDepth == 0 && ("p".equals(name) || level > 0)) {
      titlePending = false;
      level = 1;
      slideTitle = true;
    }
    if (level > 0) {
      breakLines(2);
      headingLevel = level;
      writeMarker("#".repeat(level) + " ");
    } else if ("li".equals(name)) {
      // An item whose first content is a list of its own (an indentation level, as OpenDocument
      // writes one) shares its marker with that list's first item: no empty item.
      if (!afterListMarker) {
        breakLines(1);
        write("- ");
        afterListMarker = true;
      }
    } else if ("br".equals(name)) {
      breakLines(1);
    } else if (BLOCKS.contains(name) && !afterListMarker) {
      // A paragraph that opens a list item (as every OpenDocument item's does) stays on its
      // marker's
      // line.
      breakLines(name.equals("p") ? 2 : 1);
    }
  }

  /**
   * Handles an element that opens inside a table, or opens one; false when it is not the table's.
   */
  private boolean tableElementStarted(String name, Attributes atts) {
    if ("table".equals(name)) {
      if (tableDepth++ == 0) {
        breakLines(2);
        table = new TableCollector(maxTableChars);
      } else {
        table.space();
      }
      return true;
    }
    if (tableDepth == 0) {
      return false;
    }
    if (tableDepth > 1) {
      table.space(); // a nested table is text of the cell that holds it
    } else if ("tr".equals(name)) {
      table.startRow();
    } else if ("td".equals(name) || "th".equals(name)) {
      table.startCell(span(atts.getValue("colspan")), span(atts.getValue("rowspan")));
    } else if ("caption".equals(name)) {
      table.startCaption();
    } else {
      table.space();
    }
    return true;
  }

  /**
   * Handles an element that closes inside a table, or closes one; false when it is not the table's.
   */
  private boolean tableElementEnded(String name) throws SAXException {
    if (tableDepth == 0) {
      return false;
    }
    if ("table".equals(name)) {
      if (--tableDepth == 0) {
        render(table);
        table = null;
      } else {
        table.space();
      }
    } else if (tableDepth == 1 && ("td".equals(name) || "th".equals(name))) {
      table.endCell();
    } else if (tableDepth == 1 && "caption".equals(name)) {
      table.endCaption();
    } else {
      table.space();
    }
    return true;
  }

  /**
   * Writes a gathered table: its caption as a paragraph, then one paragraph per row after the
   * header, each cell as {@code Header = value} (a cell under an empty header, or any cell of a
   * one-row table, as its value alone; empty cells left out). A blank line between rows makes each
   * row a paragraph, the break the chunker prefers, so passages end between rows.
   */
  private void render(TableCollector collected) throws SAXException {
    String caption = collected.caption();
    if (!caption.isEmpty()) {
      breakLines(2);
      write(caption);
    }
    List<List<List<String>>> parts =
        sheetTables
            ? SheetTables.split(gridOf(collected.grid()))
            : List.of(gridOf(collected.rows()));
    for (List<List<String>> rows : parts) {
      renderRows(rows);
    }
    breakLines(2);
  }

  /**
   * The first remaining grid with the same text as {@code rows}, in place of them (the grids before
   * it are passed over: tables Tika did not report where it met them); {@code rows} when none
   * matches.
   */
  private List<List<String>> gridOf(List<List<String>> rows) {
    if (grids == null || grids.isEmpty()) {
      return rows;
    }
    String signature = DocxTableGrids.signature(rows);
    for (int i = 0; i < grids.size(); i++) {
      if (grids.get(i).signature().equals(signature)) {
        List<List<String>> matched = grids.get(i).rows();
        grids.subList(0, i + 1).clear();
        return matched;
      }
    }
    return rows;
  }

  private void renderRows(List<List<String>> rows) throws SAXException {
    if (rows.isEmpty()) {
      return;
    }
    List<Integer> rowStarts = new ArrayList<>();
    int start = -1;
    for (String line : ExtractedTable.renderedRows(rows)) {
      if (line.isEmpty()) {
        continue;
      }
      breakLines(2);
      write(line);
      int rowStart = text.length() - line.length();
      rowStarts.add(rowStart);
      start = start < 0 ? rowStart : start;
    }
    if (start >= 0) {
      tables.add(new ExtractedTable(start, text.length(), rows, rowStarts));
    }
  }

  private static int span(String value) {
    if (value == null) {
      return 1;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  @Override
  public void endElement(String uri, String localName, String qName) throws SAXException {
    String name =
        localName.isEmpty() ? qName.toLowerCase(Locale.ROOT) : localName.toLowerCase(Locale.ROOT);
    if (skipDepth > 0) {
      skipDepth--;
      return;
    }
    if (tableElementEnded(name)) {
      // the table's own
    } else if (headingLevel(name) > 0 || (slideTitle && "p".equals(name))) {
      slideTitle = false;
      headingLevel = 0;
      breakLines(2);
    } else if ("p".equals(name)) {
      breakLines(2);
    } else if (BLOCKS.contains(name) || "li".equals(name)) {
      breakLines(1);
    }
    if ("div".equals(name) && !openDivs.isEmpty() && openDivs.pop()) {
      embeddedDepth--;
    }
  }

  @Override
  public void characters(char[] ch, int start, int length) throws SAXException {
    if (skipDepth > 0) {
      return;
    }
    if (tableDepth > 0) {
      table.text(ch, start, length);
      return;
    }
    int end = start + length;
    int runStart = -1;
    for (int i = start; i < end; i++) {
      char c = ch[i];
      boolean space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u00A0';
      if (headingLevel > 0 && space) {
        if (runStart >= 0) {
          write(new String(ch, runStart, i - runStart));
          runStart = -1;
        }
        pendingSpace = true;
        continue;
      }
      if (c == '\n' || c == '\r') {
        if (runStart >= 0) {
          write(new String(ch, runStart, i - runStart));
          runStart = -1;
        }
        breakLines(1);
        continue;
      }
      if (runStart < 0) {
        runStart = i;
      }
    }
    if (runStart >= 0) {
      write(new String(ch, runStart, end - runStart));
    }
  }

  @Override
  public void ignorableWhitespace(char[] ch, int start, int length) {
    // Formatting whitespace between elements carries no text.
  }

  private void startPage() throws SAXException {
    pendingNewlines = 0;
    pendingSpace = false;
    if (text.length() > 0 && text.lastChar() != '\n') {
      append("\n");
    }
    try {
      text.startPage();
    } catch (ExtractionException e) {
      throw new LimitExceededSaxException(e);
    }
  }

  private void breakLines(int count) {
    pendingNewlines = Math.max(pendingNewlines, count);
    pendingSpace = false;
  }

  /** Writes a heading's marker: Markdown of our own, never escaped. */
  private void writeMarker(String marker) throws SAXException {
    writeRendered(marker);
  }

  /** Writes the document's text: at a line's start, escaped where Markdown would read structure. */
  private void write(String s) throws SAXException {
    if (afterListMarker && s.isBlank()) {
      return; // the marker ends in its space
    }
    boolean atLineStart = text.length() == 0 || text.lastChar() == '\n' || pendingNewlines > 0;
    writeRendered(atLineStart && headingLevel == 0 ? MarkdownEscapes.lineStart(s) : s);
  }

  private void writeRendered(String s) throws SAXException {
    boolean atLineStart = text.length() == 0 || text.lastChar() == '\n' || pendingNewlines > 0;
    if (s.isEmpty() || (atLineStart && s.isBlank())) {
      // Indentation of the source markup is not text.
      return;
    }
    if (text.length() > 0 && pendingNewlines > 0) {
      int alreadyThere = trailingNewlines();
      if (alreadyThere < pendingNewlines) {
        append("\n".repeat(pendingNewlines - alreadyThere));
      }
    } else if (pendingSpace
        && text.length() > 0
        && text.lastChar() != ' '
        && text.lastChar() != '\n') {
      append(" ");
    }
    pendingNewlines = 0;
    pendingSpace = false;
    afterListMarker = false;
    append(s);
  }

  private int trailingNewlines() {
    return text.trailingNewlines(2);
  }

  private void append(String s) throws SAXException {
    try {
      text.append(s);
    } catch (ExtractionException e) {
      throw new LimitExceededSaxException(e);
    }
  }

  private static int headingLevel(String name) {
    if (name.length() == 2
        && name.charAt(0) == 'h'
        && name.charAt(1) >= '1'
        && name.charAt(1) <= '6') {
      return name.charAt(1) - '0';
    }
    return 0;
  }

  /** Carries a limit failure through Tika, which only lets SAX and Tika exceptions out. */
  static final class LimitExceededSaxException extends SAXException {
    final ExtractionException failure;

    LimitExceededSaxException(ExtractionException failure) {
      super(failure.getMessage());
      this.failure = failure;
    }
  }
}
