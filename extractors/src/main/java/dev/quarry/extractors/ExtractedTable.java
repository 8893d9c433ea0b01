package dev.quarry.extractors;

import dev.quarry.extractors.text.MarkdownEscapes;
import java.util.ArrayList;
import java.util.List;

/**
 * One table of a document as its cells, and where its rendering lies in {@link Extraction#text()}.
 *
 * <p>A table is rendered one row per line, each cell named by its column's header: {@code Name =
 * Ada; Born = 1815}, so that any passage cut from it at line ends still says what its values are.
 * The first row is the header; a table of one row is rendered as its cells, and so is each row of a
 * table that names no columns (a PDF's table of contents), whose first row is empty cells. Merged
 * cells repeat their value in every column and row they span, as a reader of the table sees it.
 *
 * <p>A header of two rows, a group's name over the columns it spans and a name for each of them
 * below ({@code Voyage} over {@code Departed} and {@code Tons}), names each column by both: {@code
 * Voyage / Departed = 2024-03-05; Voyage / Tons = 1250.5} ({@link #headerOf}).
 *
 * @param start the offset in the text where the table's first row starts
 * @param end the offset where its last row ends
 * @param rows the cells, row by row (the header first), each row as wide as the widest
 * @param rowStarts the offset of each rendered row after the header (one or two rows, {@link
 *     #headerOf}), ascending (for a table of one row, that row's)
 * @quarry.experimental
 */
public record ExtractedTable(int start, int end, List<List<String>> rows, List<Integer> rowStarts) {
  public ExtractedTable {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad table span " + start + ".." + end);
    }
    List<List<String>> copy = new ArrayList<>(rows.size());
    rows.forEach(r -> copy.add(List.copyOf(r)));
    rows = List.copyOf(copy);
    rowStarts = List.copyOf(rowStarts);
  }

  /**
   * One row as it is rendered: each non-empty cell as {@code Header = value}, joined by {@code ";
   * "}; a cell under an empty header (or any cell when {@code header} is empty, as in a table of
   * one row) as its value alone. A row that would read as a Markdown heading or fence ({@code # of
   * items = 4}) is escaped ({@link MarkdownEscapes}).
   */
  public static String renderRow(List<String> header, List<String> cells) {
    StringBuilder out = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      String value = cells.get(c);
      if (value.isEmpty()) {
        continue;
      }
      if (!out.isEmpty()) {
        out.append("; ");
      }
      String name = c < header.size() ? header.get(c) : "";
      if (!name.isEmpty()) {
        out.append(name).append(" = ");
      }
      out.append(value);
    }
    return MarkdownEscapes.lineStart(out.toString());
  }

  /** This table with its offsets moved by {@code offset}: where it lies once text precedes it. */
  public ExtractedTable movedBy(int offset) {
    return new ExtractedTable(
        start + offset, end + offset, rows, rowStarts.stream().map(s -> s + offset).toList());
  }

  /** Each column's name ({@link #headerOf}), or an empty list for a table of one row. */
  public List<String> header() {
    return headerOf(rows).names();
  }

  /**
   * The header of a table: the names of its columns, and how many of its first rows give them.
   *
   * @param names each column's name; empty for a table of one row, which has no header
   * @param rows 1, or 2 for a header of two rows; 0 for a table of one row
   */
  public record Header(List<String> names, int rows) {}

  /**
   * The header of a table of {@code rows}: its first row, or its first two when the first has a
   * cell spanning columns (its value repeated side by side) under which the second names each
   * column (a different text in each, with a letter in it: {@code 2019} under a spanning cell is
   * more likely a value than a name), every other cell of the second row being a name too or the
   * cell above it spanning both rows, and a row under both. A column's name is then both rows'
   * texts, {@code Voyage / Departed}, or one when the other is empty or the same.
   */
  public static Header headerOf(List<List<String>> rows) {
    if (rows.size() < 2) {
      return new Header(List.of(), 0);
    }
    List<String> first = rows.get(0);
    if (rows.size() < 3 || !namesGroups(first, rows.get(1))) {
      return new Header(first, 1);
    }
    List<String> second = rows.get(1);
    List<String> names = new ArrayList<>(first.size());
    for (int c = 0; c < first.size(); c++) {
      String top = first.get(c);
      String below = cell(second, c);
      names.add(
          below.isEmpty() || below.equals(top) ? top : top.isEmpty() ? below : top + " / " + below);
    }
    return new Header(names, 2);
  }

  /** Whether {@code second} names the columns of the groups that {@code first} spans. */
  private static boolean namesGroups(List<String> first, List<String> second) {
    boolean grouped = false;
    for (int c = 0; c + 1 < first.size(); c++) {
      String group = first.get(c);
      if (group.isEmpty() || !group.equals(first.get(c + 1))) {
        continue;
      }
      String left = cell(second, c);
      String right = cell(second, c + 1);
      if (!isName(left) || !isName(right) || left.equals(right)) {
        return false;
      }
      grouped = true;
    }
    if (!grouped) {
      return false;
    }
    for (int c = 0; c < second.size(); c++) {
      String below = second.get(c);
      if (!below.isEmpty() && !below.equals(cell(first, c)) && !isName(below)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isName(String cell) {
    return cell.codePoints().anyMatch(Character::isLetter);
  }

  private static String cell(List<String> row, int column) {
    return column < row.size() ? row.get(column) : "";
  }

  /**
   * The lines a table of {@code rows} is written as, one for each row under its header ({@link
   * #headerOf}) in order, each {@link #renderRow rendered} (empty for a row without text, which is
   * not written); for a table of one row, that row's.
   */
  public static List<String> renderedRows(List<List<String>> rows) {
    Header header = headerOf(rows);
    List<String> lines = new ArrayList<>(rows.size());
    for (int r = header.rows(); r < rows.size(); r++) {
      lines.add(renderRow(header.names(), rows.get(r)));
    }
    return lines;
  }
}
