package dev.quarry.engine.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives each chunk its section: the Markdown ATX headings in force where it ends, outermost first.
 * A heading always starts a chunk ({@link SpanPacker}), so a chunk holds headings only at its start
 * and the path where it ends is the path of all its text. A heading of level {@code n} closes every
 * open heading of level {@code n} or deeper; a skipped level leaves no empty entry ({@code #} then
 * {@code ###} gives a path of two headings).
 *
 * <p>Headings are recognised by the rules the scanner cuts at (at most three spaces of indent, one
 * to six {@code #} and a space, outside fenced code), so the path and the cuts agree; a closing
 * sequence of {@code #} is dropped and inner whitespace collapsed. Linear in the text.
 */
final class HeadingPaths {
  /** A heading's text is cut at this many characters: a path is a label, not a passage. */
  static final int MAX_HEADING_CHARS = 200;

  private HeadingPaths() {}

  /**
   * {@code spans} (in text order) each with its section; unchanged when {@code markdown} is false.
   */
  static List<ChunkSpan> assign(String text, boolean markdown, List<ChunkSpan> spans) {
    if (!markdown || spans.isEmpty()) {
      return spans;
    }
    List<ChunkSpan> out = new ArrayList<>(spans.size());
    String[] open = new String[Markdown.MAX_HEADING_LEVEL + 1];
    int pos = 0;
    boolean inFence = false;
    for (ChunkSpan span : spans) {
      // Read every line that starts before the span's end.
      while (pos < text.length() && pos < span.end()) {
        int lineEnd = text.indexOf('\n', pos);
        if (lineEnd < 0) {
          lineEnd = text.length();
        }
        int first = firstNonSpace(text, pos, lineEnd);
        if (first < lineEnd) {
          int runEnd = runEnd(text, first, lineEnd);
          if (Markdown.isFence(text, first, runEnd)) {
            inFence = !inFence;
          } else if (!inFence
              && indent(text, pos, first) <= Markdown.MAX_HEADING_INDENT
              && Markdown.isHeadingMarker(text, first, runEnd)
              && runEnd < lineEnd) {
            int level = runEnd - first;
            String title = headingText(text, runEnd, lineEnd);
            if (!title.isEmpty()) {
              open[level] = title;
              for (int deeper = level + 1; deeper < open.length; deeper++) {
                open[deeper] = null;
              }
            }
          }
        }
        pos = lineEnd + 1;
      }
      out.add(span.withSection(path(open)));
    }
    return out;
  }

  private static List<String> path(String[] open) {
    List<String> path = new ArrayList<>(open.length);
    for (String heading : open) {
      if (heading != null) {
        path.add(heading);
      }
    }
    return path;
  }

  /** The heading's words, single-spaced, without a closing {@code ###} sequence. */
  static String headingText(String text, int start, int end) {
    int e = end;
    while (e > start && Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    int hashes = e;
    while (hashes > start && text.charAt(hashes - 1) == '#') {
      hashes--;
    }
    if (hashes < e && (hashes == start || Character.isWhitespace(text.charAt(hashes - 1)))) {
      e = hashes; // "## Title ##": the closing sequence is not text
    }
    StringBuilder out = new StringBuilder(Math.min(e - start, MAX_HEADING_CHARS));
    boolean space = false;
    for (int i = start; i < e && out.length() < MAX_HEADING_CHARS; i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        space = out.length() > 0;
      } else {
        if (space) {
          out.append(' ');
          space = false;
        }
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int firstNonSpace(String text, int from, int end) {
    int i = from;
    while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\r')) {
      i++;
    }
    return i;
  }

  /** Indentation as the scanner counts it: a tab is four spaces. */
  private static int indent(String text, int from, int first) {
    int indent = 0;
    for (int i = from; i < first; i++) {
      indent += text.charAt(i) == '\t' ? 4 : text.charAt(i) == ' ' ? 1 : 0;
    }
    return indent;
  }

  private static int runEnd(String text, int from, int end) {
    int i = from;
    while (i < end && !Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }
}
