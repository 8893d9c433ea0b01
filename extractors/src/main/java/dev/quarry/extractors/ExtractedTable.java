package dev.quarry.extractors;

import dev.quarry.extractors.text.MarkdownEscapes;
import java.util.ArrayList;
import java.util.List;

/**
 * One table of a document as its cells, and where its rendering lies in {@link Extraction#text()}.
 *
 * <p>A table is rendered one row per line, each cell named by its column's header: {@code Name =
 * Ada; Born = 1815}, so that any passage cut from it at line ends still says what its values are.
 * The first row is the header; a table of one row is rendered as its cells. Merged cells repeat
 * their value in every column and row they span, as a reader of the table sees it.
 *
 * @param start the offset in the text where the table's first row starts
 * @param end the offset where its last row ends
 * @param rows the cells, row by row (the header first), each row as wide as the widest
 * @param rowStarts the offset of each rendered row after the header, ascending (for a table of one
 *     row, that row's)
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

  /** The header row's cells, or an empty list for a table of one row. */
  public List<String> header() {
    return rows.size() > 1 ? rows.get(0) : List.of();
  }
}
