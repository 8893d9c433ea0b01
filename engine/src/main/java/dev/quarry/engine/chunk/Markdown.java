package dev.quarry.engine.chunk;

import java.util.Locale;

/**
 * Which texts have Markdown ATX headings ({@code # Title}), and what a heading marker looks like.
 *
 * <p>Declared Markdown always has them. Text without a media type, or declared {@code text/plain},
 * is treated as Markdown only when it plainly looks like it: its first non-blank line is a heading,
 * or its first {@value #SNIFF_CHARS} characters hold at least {@value #MIN_SNIFFED_HEADINGS}
 * heading lines. Every other media type (text extracted from PDF, HTML, office documents) has no
 * headings: a line that happens to start with {@code #} there is a hashtag or a number, and cutting
 * a chunk at it would do harm.
 */
final class Markdown {
  /** Only the start of a text is sniffed, so deciding costs the same for 1 KB and for 50 MB. */
  static final int SNIFF_CHARS = 64 * 1024;

  static final int MIN_SNIFFED_HEADINGS = 2;

  /** CommonMark: more than three spaces of indentation make a code block, not a heading. */
  static final int MAX_HEADING_INDENT = 3;

  static final int MAX_HEADING_LEVEL = 6;

  /** CommonMark: an ordered list item's number has at most nine digits. */
  static final int MAX_LIST_NUMBER_DIGITS = 9;

  private Markdown() {}

  /** Whether to recognise ATX headings in {@code text} of the given media type (may be null). */
  static boolean hasHeadings(String text, String mediaType) {
    if (mediaType != null) {
      String type = baseType(mediaType);
      if (type.equals("text/markdown") || type.equals("text/x-markdown")) {
        return true;
      }
      if (!type.equals("text/plain")) {
        return false;
      }
    }
    return looksLikeMarkdown(text);
  }

  /** Whether {@code text[start, end)} is a heading marker: one to six {@code #}. */
  static boolean isHeadingMarker(String text, int start, int end) {
    int length = end - start;
    if (length < 1 || length > MAX_HEADING_LEVEL) {
      return false;
    }
    for (int i = start; i < end; i++) {
      if (text.charAt(i) != '#') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code text[start, end)}, first on its line, marks a list item ({@code -}, {@code *},
   * {@code +}, a bullet, {@code 12.} or {@code 3)}): in any text, not only Markdown, an item begins
   * much as a sentence does.
   */
  static boolean isListMarker(String text, int start, int end) {
    int length = end - start;
    char first = text.charAt(start);
    if (length == 1) {
      return first == '-' || first == '*' || first == '+' || first == '\u2022';
    }
    if (length > MAX_LIST_NUMBER_DIGITS + 1) {
      return false;
    }
    char last = text.charAt(end - 1);
    if (last != '.' && last != ')') {
      return false;
    }
    for (int i = start; i < end - 1; i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text[start, end)} opens or closes a fenced code block. */
  static boolean isFence(String text, int start, int end) {
    return end - start >= 3 && (text.startsWith("```", start) || text.startsWith("~~~", start));
  }

  private static String baseType(String mediaType) {
    int semicolon = mediaType.indexOf(';');
    String type = semicolon < 0 ? mediaType : mediaType.substring(0, semicolon);
    return type.strip().toLowerCase(Locale.ROOT);
  }

  private static boolean looksLikeMarkdown(String text) {
    int limit = Math.min(text.length(), SNIFF_CHARS);
    int headings = 0;
    boolean sawNonBlankLine = false;
    int lineStart = 0;
    while (lineStart < limit) {
      int lineEnd = lineStart;
      while (lineEnd < limit && text.charAt(lineEnd) != '\n') {
        lineEnd++;
      }
      if (isHeadingLine(text, lineStart, lineEnd)) {
        if (!sawNonBlankLine || ++headings >= MIN_SNIFFED_HEADINGS) {
          return true;
        }
      }
      sawNonBlankLine = sawNonBlankLine || !isBlank(text, lineStart, lineEnd);
      lineStart = lineEnd + 1;
    }
    return false;
  }

  private static boolean isBlank(String text, int start, int end) {
    for (int i = start; i < end; i++) {
      if (!Character.isWhitespace(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the line {@code text[start, end)} is {@code #...# title} with at most three spaces
   * before it.
   */
  private static boolean isHeadingLine(String text, int start, int end) {
    int i = start;
    while (i < end && i - start <= MAX_HEADING_INDENT && text.charAt(i) == ' ') {
      i++;
    }
    if (i - start > MAX_HEADING_INDENT) {
      return false;
    }
    int hashes = i;
    while (i < end && text.charAt(i) == '#') {
      i++;
    }
    if (i == hashes
        || i - hashes > MAX_HEADING_LEVEL
        || i == end
        || (text.charAt(i) != ' ' && text.charAt(i) != '\t')) {
      return false;
    }
    while (i < end && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i < end;
  }
}
