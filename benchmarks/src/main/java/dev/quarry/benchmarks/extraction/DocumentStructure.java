package dev.quarry.benchmarks.extraction;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The structure of one document as a reference and an extraction are compared on: its headings
 * (normalised text, in order) and its tables (cells by row and column, the header row first).
 *
 * @param headings normalised heading texts, in document order
 * @param tables each table's rows of normalised cells
 */
public record DocumentStructure(List<String> headings, List<List<List<String>>> tables) {
  public DocumentStructure {
    headings = List.copyOf(headings);
    tables = List.copyOf(tables);
  }

  /**
   * The structure of a Markdown document as Docling writes it: ATX headings ({@code ## Title}), and
   * pipe tables (consecutive lines starting with {@code |}, the second one the {@code | - |}
   * separator under the header). Lines inside fenced code are neither. Cells are compared by their
   * text: links count as their text, comments as nothing, and a row with no text is left out (an
   * extractor keeps no row of the grid for an image alone).
   */
  public static DocumentStructure ofMarkdown(String markdown) {
    List<String> headings = new ArrayList<>();
    List<List<List<String>>> tables = new ArrayList<>();
    List<List<String>> table = null;
    boolean fence = false;
    for (String raw : markdown.split("\n", -1)) {
      String line = raw.strip();
      if (line.startsWith("```") || line.startsWith("~~~")) {
        fence = !fence;
      }
      if (fence) {
        table = end(table, tables);
        continue;
      }
      if (line.startsWith("|")) {
        if (table == null) {
          table = new ArrayList<>();
        }
        List<String> cells = pipeCells(line);
        List<String> normalized = cells.stream().map(c -> normalize(plainText(c))).toList();
        if (!isSeparator(cells) && holdsText(normalized)) {
          table.add(normalized);
        }
        continue;
      }
      table = end(table, tables);
      String heading = atxHeading(line);
      if (heading != null && !normalize(plainText(heading)).isEmpty()) {
        headings.add(normalize(plainText(heading)));
      }
    }
    end(table, tables);
    return new DocumentStructure(headings, tables);
  }

  private static List<List<String>> end(List<List<String>> table, List<List<List<String>>> tables) {
    if (table != null && !table.isEmpty()) {
      tables.add(table);
    }
    return null;
  }

  /** The text of an ATX heading line, or null when the line is not one. */
  static String atxHeading(String line) {
    int hashes = 0;
    while (hashes < line.length() && line.charAt(hashes) == '#') {
      hashes++;
    }
    if (hashes == 0 || hashes > 6 || hashes == line.length() || line.charAt(hashes) != ' ') {
      return null;
    }
    String text = line.substring(hashes).strip();
    int closing = text.length();
    while (closing > 0 && text.charAt(closing - 1) == '#') {
      closing--;
    }
    return closing < text.length() && (closing == 0 || text.charAt(closing - 1) == ' ')
        ? text.substring(0, closing).strip()
        : text;
  }

  /** A Markdown cell's text: links as their text, comments ({@code <!-- image -->}) dropped. */
  static String plainText(String cell) {
    String noComments = cell.replaceAll("<!--.*?-->", " ");
    return noComments.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1");
  }

  /** The cells of a pipe-table line; {@code \|} is a pipe inside a cell. */
  static List<String> pipeCells(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    for (int i = 1; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '|') {
        cell.append('|');
        i++;
      } else if (c == '|') {
        cells.add(cell.toString().strip());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    if (!cell.toString().isBlank()) {
      cells.add(cell.toString().strip());
    }
    return cells;
  }

  private static boolean isSeparator(List<String> cells) {
    if (cells.isEmpty()) {
      return false;
    }
    for (String c : cells) {
      if (c.isEmpty() || !c.chars().allMatch(ch -> ch == '-' || ch == ':' || ch == ' ')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a row of normalised cells holds text: a row without (an image alone, or the empty
   * header of a table that names no columns) is no row of the grid, on either side.
   */
  static boolean holdsText(List<String> row) {
    return row.stream().anyMatch(c -> !c.isEmpty());
  }

  /**
   * Text as both sides are compared: compatibility-normalised, lower case, Markdown escapes and
   * emphasis marks dropped, every run of other characters than letters and digits one space.
   */
  public static String normalize(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder(s.length());
    boolean space = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        if (space && !out.isEmpty()) {
          out.append(' ');
        }
        space = false;
        out.appendCodePoint(cp);
      } else {
        space = true;
      }
    }
    return out.toString();
  }
}
