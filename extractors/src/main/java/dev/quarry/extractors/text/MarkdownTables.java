package dev.quarry.extractors.text;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.ExtractionException;
import java.util.ArrayList;
import java.util.List;

/**
 * Markdown pipe tables (GitHub Flavored Markdown) read as tables: a header line, a delimiter line
 * of as many cells ({@code |---|:--:|}), then body lines up to a blank line or a line without a
 * pipe. Each table is rendered as every other format's tables are ({@link ExtractedTable}): one
 * paragraph per body row, each cell named by its column's header ({@code Name = Ada; Born = 1815}),
 * and its cells are kept. Lines inside fenced code blocks are never tables. Escaped pipes ({@code
 * \|}) are a cell's text; a body row with fewer cells than the header is padded, extra cells are
 * dropped, as GFM renders them. Tables written in HTML inside the Markdown ({@code <table>}, as
 * GitHub renders them; cells spanning rows or columns) are read by an {@link HtmlBlockReader} and
 * rendered the same way. Linear in the text.
 */
final class MarkdownTables {
  private MarkdownTables() {}

  /**
   * {@code text} with its pipe tables rendered as rows of named cells; the same text when it has
   * none. HTML tables are left as written.
   */
  static RenderedText render(String text) {
    try {
      return render(text, HtmlBlockReader.NONE, Integer.MAX_VALUE);
    } catch (ExtractionException e) {
      throw new AssertionError("no HTML is read", e);
    }
  }

  /**
   * {@code text} with its pipe tables rendered as rows of named cells, and its HTML tables (a block
   * from a line that starts with {@code <table} to the line that closes it) read by {@code html}
   * and rendered the same way; the same text when it has neither.
   */
  static RenderedText render(String text, HtmlBlockReader html, int maxChars)
      throws ExtractionException {
    List<int[]> lines = lines(text);
    HtmlTableBlocks htmlTables = new HtmlTableBlocks(text, lines);
    StringBuilder out = null;
    List<ExtractedTable> tables = new ArrayList<>();
    int copied = 0; // text before this offset is in out already
    boolean inFence = false;
    for (int i = 0; i < lines.size(); i++) {
      int[] line = lines.get(i);
      String content = text.substring(line[0], line[1]);
      String stripped = content.strip();
      if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        inFence = !inFence;
        continue;
      }
      if (inFence) {
        continue;
      }
      int htmlEnd = htmlTables.end(i);
      if (htmlEnd >= 0) {
        RenderedText block = html.read(text.substring(line[0], lines.get(htmlEnd)[1]), maxChars);
        if (block != null && !block.tables().isEmpty()) {
          if (out == null) {
            out = new StringBuilder(text.length());
          }
          out.append(text, copied, line[0]);
          int at = out.length();
          out.append(block.text());
          block.tables().forEach(t -> tables.add(t.movedBy(at)));
          copied = lines.get(htmlEnd)[1];
        }
        // A block that holds no table stays as written, and is not read again from a line inside
        // it: each line is read at most once.
        i = htmlEnd;
        continue;
      }
      if (i + 1 >= lines.size() || !content.contains("|")) {
        continue;
      }
      List<String> header = cells(content);
      int[] next = lines.get(i + 1);
      if (header.isEmpty() || !isDelimiter(text.substring(next[0], next[1]), header.size())) {
        continue;
      }
      List<List<String>> rows = new ArrayList<>();
      rows.add(header);
      int last = i + 1;
      while (last + 1 < lines.size()) {
        int[] body = lines.get(last + 1);
        String row = text.substring(body[0], body[1]);
        if (row.isBlank() || !row.contains("|")) {
          break;
        }
        rows.add(fit(cells(row), header.size()));
        last++;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + text.length() / 4);
      }
      out.append(text, copied, line[0]);
      List<Integer> rowStarts = new ArrayList<>();
      int start = -1;
      for (int r = rows.size() > 1 ? 1 : 0; r < rows.size(); r++) {
        String rendered =
            ExtractedTable.renderRow(rows.size() > 1 ? header : List.of(), rows.get(r));
        if (rendered.isEmpty()) {
          continue;
        }
        if (start >= 0) {
          out.append("\n\n");
        }
        rowStarts.add(out.length());
        start = start < 0 ? out.length() : start;
        out.append(rendered);
      }
      if (start >= 0) {
        tables.add(new ExtractedTable(start, out.length(), rows, rowStarts));
      }
      copied = lines.get(last)[1];
      i = last;
    }
    if (out == null) {
      return new RenderedText(text, List.of());
    }
    out.append(text, copied, text.length());
    return new RenderedText(out.toString(), tables);
  }

  /** Each line's {@code [start, end)}, without its line break. */
  private static List<int[]> lines(String text) {
    List<int[]> lines = new ArrayList<>();
    int start = 0;
    while (start <= text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      int contentEnd = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
      lines.add(new int[] {start, contentEnd});
      start = end + 1;
    }
    return lines;
  }

  /** A line's cells: split at unescaped pipes, the outer pipes dropped, each cell trimmed. */
  static List<String> cells(String line) {
    String s = line.strip();
    if (s.startsWith("|")) {
      s = s.substring(1);
    }
    if (s.endsWith("|") && !s.endsWith("\\|")) {
      s = s.substring(0, s.length() - 1);
    }
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '|') {
        cell.append('|');
        i++;
      } else if (c == '|') {
        cells.add(cell.toString().strip());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString().strip());
    return cells;
  }

  /** Whether {@code line} is a delimiter row of {@code columns} cells, each {@code :?-+:?}. */
  static boolean isDelimiter(String line, int columns) {
    if (!line.contains("-")) {
      return false;
    }
    List<String> cells = cells(line);
    if (cells.size() != columns || (columns == 1 && !line.contains("|"))) {
      return false;
    }
    for (String cell : cells) {
      int from = cell.startsWith(":") ? 1 : 0;
      int to = cell.endsWith(":") && cell.length() > from ? cell.length() - 1 : cell.length();
      if (to <= from) {
        return false;
      }
      for (int i = from; i < to; i++) {
        if (cell.charAt(i) != '-') {
          return false;
        }
      }
    }
    return true;
  }

  private static List<String> fit(List<String> cells, int width) {
    List<String> out = new ArrayList<>(cells.subList(0, Math.min(width, cells.size())));
    while (out.size() < width) {
      out.add("");
    }
    return out;
  }
}
