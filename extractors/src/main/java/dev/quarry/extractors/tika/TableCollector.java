package dev.quarry.extractors.tika;

import java.util.ArrayList;
import java.util.List;

/**
 * Gathers the cells of one table from Tika's XHTML events and lays them on a grid: a cell that
 * spans columns or rows ({@code colspan}, {@code rowspan}) repeats its value in each slot it
 * covers, as a reader of the table sees it. Text of a table nested inside a cell joins that cell.
 *
 * <p>Bounded: at most {@value #MAX_COLUMNS} columns and a span of at most {@value #MAX_SPAN}, so a
 * hostile {@code colspan="100000"} costs no more than a wide table.
 */
final class TableCollector {
  static final int MAX_COLUMNS = 256;
  static final int MAX_SPAN = 64;

  private final List<List<String>> grid = new ArrayList<>();
  private final StringBuilder caption = new StringBuilder();
  private StringBuilder cell;
  private int row = -1;
  private int column;
  private int colspan;
  private int rowspan;
  private boolean inCaption;

  /**
   * Characters gathered so far; past {@link #maxChars} the rest is dropped (the text's own limit
   * fails first).
   */
  private long chars;

  private final long maxChars;

  TableCollector(long maxChars) {
    this.maxChars = maxChars;
  }

  void startRow() {
    row++;
    column = 0;
    ensureRow(row);
  }

  void startCell(int colspan, int rowspan) {
    if (row < 0) {
      startRow(); // cells outside any tr: one row
    }
    cell = new StringBuilder();
    this.colspan = clamp(colspan);
    this.rowspan = clamp(rowspan);
  }

  void startCaption() {
    inCaption = true;
  }

  void endCaption() {
    inCaption = false;
  }

  boolean inCell() {
    return cell != null || inCaption;
  }

  /** Text inside a cell or the caption; whitespace runs collapse to one space. */
  void text(char[] ch, int start, int length) {
    StringBuilder into = cell != null ? cell : inCaption ? caption : null;
    if (into == null || chars > maxChars) {
      return;
    }
    chars += length;
    for (int i = start; i < start + length; i++) {
      char c = ch[i];
      if (Character.isWhitespace(c) || c == '\u00A0') {
        space();
      } else {
        into.append(c);
      }
    }
  }

  /** A break inside a cell (a paragraph, a line break, a list item): a space between words. */
  void space() {
    StringBuilder into = cell != null ? cell : inCaption ? caption : null;
    if (into != null && !into.isEmpty() && into.charAt(into.length() - 1) != ' ') {
      into.append(' ');
    }
  }

  void endCell() {
    if (cell == null) {
      return;
    }
    String value = cell.toString().strip();
    cell = null;
    while (column < MAX_COLUMNS && get(row, column) != null) {
      column++; // taken by a cell spanning down from a row above
    }
    for (int r = row; r < row + rowspan; r++) {
      ensureRow(r);
      for (int c = column; c < Math.min(MAX_COLUMNS, column + colspan); c++) {
        set(r, c, value);
      }
    }
    column = Math.min(MAX_COLUMNS, column + colspan);
  }

  String caption() {
    return caption.toString().strip();
  }

  /**
   * The table's rows, each as wide as the widest, without rows that hold no text; a slot no cell
   * covered is an empty string.
   */
  List<List<String>> rows() {
    int width = 0;
    for (List<String> r : grid) {
      width = Math.max(width, r.size());
    }
    List<List<String>> out = new ArrayList<>(grid.size());
    for (List<String> r : grid) {
      List<String> cells = new ArrayList<>(width);
      boolean any = false;
      for (int c = 0; c < width; c++) {
        String v = c < r.size() && r.get(c) != null ? r.get(c) : "";
        any |= !v.isEmpty();
        cells.add(v);
      }
      if (any) {
        out.add(cells);
      }
    }
    return out;
  }

  /**
   * Every row of the table as gathered, blank ones included, each as wide as the widest; a slot no
   * cell covered is an empty string. A spreadsheet's blank rows part its data tables.
   */
  List<List<String>> grid() {
    int width = 0;
    for (List<String> r : grid) {
      width = Math.max(width, r.size());
    }
    List<List<String>> out = new ArrayList<>(grid.size());
    for (List<String> r : grid) {
      List<String> cells = new ArrayList<>(width);
      for (int c = 0; c < width; c++) {
        cells.add(c < r.size() && r.get(c) != null ? r.get(c) : "");
      }
      out.add(cells);
    }
    return out;
  }

  private void ensureRow(int r) {
    while (grid.size() <= r) {
      grid.add(new ArrayList<>());
    }
  }

  private String get(int r, int c) {
    List<String> slots = grid.get(r);
    return c < slots.size() ? slots.get(c) : null;
  }

  private void set(int r, int c, String value) {
    List<String> slots = grid.get(r);
    while (slots.size() <= c) {
      slots.add(null);
    }
    slots.set(c, value);
  }

  private static int clamp(int span) {
    return Math.max(1, Math.min(MAX_SPAN, span));
  }
}
