package dev.quarry.engine.search;

import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.Snippet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts a hit's readable window: the span of at most {@code maxChars} characters that holds the most
 * distinct matched words, then the most matches (the earliest such span on a tie), widened with
 * context (a third before, the rest after, or from the start of its sentence when that is near) and
 * cut at word boundaries. Without matches it is the text's beginning. A pure function of the text,
 * its matches and the options, so a pinned search gives the same snippets every time; public so that
 * every store cuts the same window from the same text and matches.
 */
public final class SnippetWindow {
  /** An ellipsis marks where the rendered window cuts the text. */
  static final String ELLIPSIS = "\u2026";

  private SnippetWindow() {}

  /**
   * @param matches {@code [start, end)} ranges in {@code text}, in order, not overlapping
   */
  public static Snippet of(String text, List<int[]> matches, SearchRequest.Snippets options) {
    int max = options.maxChars();
    int start;
    int end;
    if (text.length() <= max) {
      start = 0;
      end = text.length();
    } else if (matches.isEmpty()) {
      start = 0;
      end = wordEndBefore(text, max, 0);
    } else {
      int[] best = bestSpan(text, matches, max);
      int from = matches.get(best[0])[0];
      int to = matches.get(best[1])[1];
      int spare = max - (to - from);
      start = sentenceStart(text, from, spare);
      if (start < 0) {
        start = wordStartAfter(text, Math.max(0, from - spare / 3), from);
      }
      end = Math.min(text.length(), start + max);
      if (end == text.length()) {
        start = wordStartAfter(text, Math.max(0, end - max), from);
      } else {
        end = wordEndBefore(text, end, to);
      }
    }
    while (start < end && Character.isWhitespace(text.charAt(start))) {
      start++;
    }
    while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    if (start < end && Character.isLowSurrogate(text.charAt(start))) {
      start++;
    }
    if (end > start && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    List<int[]> inside = new ArrayList<>();
    for (int[] m : matches) {
      if (m[0] >= start && m[1] <= end) {
        inside.add(new int[] {m[0] - start, m[1] - start});
      }
    }
    String window = text.substring(start, end);
    String html = options.markers() == null ? null
        : html(window, inside, options.markers(), start > 0, end < text.length());
    return new Snippet(window, start, end, inside, html);
  }

  /** The first and last match index of the best span: most distinct words, then most matches, then earliest. */
  private static int[] bestSpan(String text, List<int[]> matches, int max) {
    int bestFirst = 0;
    int bestLast = 0;
    int bestDistinct = -1;
    int bestCount = -1;
    String[] matched = new String[matches.size()]; // each match's word once, not once per span holding it
    for (int i = 0; i < matched.length; i++) {
      matched[i] = text.substring(matches.get(i)[0], matches.get(i)[1]).toLowerCase(Locale.ROOT);
    }
    for (int i = 0; i < matches.size(); i++) {
      Set<String> words = new HashSet<>();
      int j = i;
      while (j < matches.size() && matches.get(j)[1] - matches.get(i)[0] <= max) {
        words.add(matched[j]);
        j++;
      }
      int last = Math.max(i, j - 1); // a single match longer than max still anchors its own span
      int count = last - i + 1;
      if (words.size() > bestDistinct || (words.size() == bestDistinct && count > bestCount)) {
        bestFirst = i;
        bestLast = last;
        bestDistinct = words.size();
        bestCount = count;
      }
    }
    return new int[] {bestFirst, bestLast};
  }

  /** The start of the sentence holding {@code at}, when it lies at most {@code within} before it; else -1. */
  private static int sentenceStart(String text, int at, int within) {
    for (int i = at - 1; i >= 0 && at - i <= within; i--) {
      char c = text.charAt(i);
      if (c == '\n' || ((c == '.' || c == '!' || c == '?') && i + 1 < text.length()
          && Character.isWhitespace(text.charAt(i + 1)))) {
        return i + 1;
      }
      if (i == 0) {
        return 0;
      }
    }
    return -1;
  }

  /** {@code from}, or the start of the next word when it falls inside one, but never past {@code limit}. */
  private static int wordStartAfter(String text, int from, int limit) {
    if (from == 0 || Character.isWhitespace(text.charAt(from - 1))) {
      return from;
    }
    for (int i = from; i < limit; i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        return i + 1;
      }
    }
    return from;
  }

  /** {@code to}, or the end of the previous word when it falls inside one, but never before {@code limit}. */
  private static int wordEndBefore(String text, int to, int limit) {
    if (to >= text.length() || Character.isWhitespace(text.charAt(to))) {
      return to;
    }
    for (int i = to; i > limit; i--) {
      if (Character.isWhitespace(text.charAt(i - 1))) {
        return i - 1;
      }
    }
    return to;
  }

  private static String html(String window, List<int[]> highlights, SearchRequest.Snippets.Markers markers,
      boolean cutBefore, boolean cutAfter) {
    StringBuilder out = new StringBuilder(window.length() + 16 * highlights.size() + 2);
    if (cutBefore) {
      out.append(ELLIPSIS);
    }
    int at = 0;
    for (int[] h : highlights) {
      escape(window, at, h[0], out);
      out.append(markers.pre());
      escape(window, h[0], h[1], out);
      out.append(markers.post());
      at = h[1];
    }
    escape(window, at, window.length(), out);
    if (cutAfter) {
      out.append(ELLIPSIS);
    }
    return out.toString();
  }

  /** HTML-escapes text content and attribute values alike: {@code & < > " '}. */
  private static void escape(String s, int from, int to, StringBuilder out) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
  }
}
