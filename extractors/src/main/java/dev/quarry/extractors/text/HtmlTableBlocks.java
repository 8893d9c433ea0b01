package dev.quarry.extractors.text;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the tables a Markdown text writes in HTML: a block from a line that starts with {@code
 * <table} (after at most three spaces, as CommonMark's HTML blocks) to the line where that table
 * closes, nested tables counted. A table that never closes is left as written, and so is every
 * later one: once a scan has reached the end of the text unclosed, none is scanned again, which
 * keeps the search linear in the text whatever it holds.
 */
final class HtmlTableBlocks {
  private static final Pattern START =
      Pattern.compile("^ {0,3}<table(?=[\\s>/]|$)", Pattern.CASE_INSENSITIVE);
  private static final Pattern TAG =
      Pattern.compile("<(/?)table(?=[\\s>/]|$)", Pattern.CASE_INSENSITIVE);

  private final String text;
  private final List<int[]> lines;
  private boolean unclosed;

  /**
   * @param lines each line's {@code [start, end)} in {@code text}, without its line break
   */
  HtmlTableBlocks(String text, List<int[]> lines) {
    this.text = text;
    this.lines = lines;
  }

  /** The index of the line that closes the HTML table starting at line {@code first}, or -1. */
  int end(int first) {
    if (unclosed || !START.matcher(line(first)).find()) {
      return -1;
    }
    int depth = 0;
    for (int i = first; i < lines.size(); i++) {
      Matcher tag = TAG.matcher(line(i));
      while (tag.find()) {
        depth += tag.group(1).isEmpty() ? 1 : -1;
        if (depth == 0) {
          return i;
        }
      }
    }
    unclosed = true;
    return -1;
  }

  private String line(int i) {
    return text.substring(lines.get(i)[0], lines.get(i)[1]);
  }
}
