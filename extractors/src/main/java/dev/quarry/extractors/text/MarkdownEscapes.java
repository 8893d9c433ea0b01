package dev.quarry.extractors.text;

/**
 * Text that is not Markdown, written into a Markdown rendering (a table's rendered row, a
 * document's paragraph), escaped where it would change the document's structure: a line that
 * starts, after at most three spaces, with a heading marker ({@code #} to {@code ######} and a
 * space) would be read as a heading (and start a section of every chunk below it), one that starts
 * with {@code ```} or {@code ~~~} would open a code block that hides the headings after it. Such a
 * line gets a backslash before that character, CommonMark's escape; a word's characters are
 * unchanged for search, which drops both.
 */
public final class MarkdownEscapes {
  private static final int MAX_INDENT = 3;
  private static final int MAX_HEADING_LEVEL = 6;

  private MarkdownEscapes() {}

  /** {@code line} escaped if, at the start of a line, it would be a heading or a fence. */
  public static String lineStart(String line) {
    int i = 0;
    while (i < line.length() && i <= MAX_INDENT && line.charAt(i) == ' ') {
      i++;
    }
    if (i > MAX_INDENT || i == line.length()) {
      return line;
    }
    boolean structural =
        isAtxMarker(line, i) || line.startsWith("```", i) || line.startsWith("~~~", i);
    return structural ? line.substring(0, i) + "\\" + line.substring(i) : line;
  }

  /**
   * Whether {@code line} holds an ATX heading marker at {@code i}: 1-6 '#', then a space or end.
   */
  private static boolean isAtxMarker(String line, int i) {
    int hashes = i;
    while (i < line.length() && line.charAt(i) == '#') {
      i++;
    }
    return i > hashes
        && i - hashes <= MAX_HEADING_LEVEL
        && (i == line.length() || Character.isWhitespace(line.charAt(i)));
  }
}
