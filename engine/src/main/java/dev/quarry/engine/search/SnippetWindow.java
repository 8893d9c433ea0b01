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
 * cut where words end ({@link #isBreak}): at spaces, at punctuation such as hyphens, between
 * Chinese or Japanese characters; inside a word only when one word is longer than the room. Without
 * matches it is the text's beginning. A pure function of the text, its matches and the options, so
 * a pinned search gives the same snippets every time; public so that every store cuts the same
 * window from the same text and matches.
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
    String html =
        options.markers() == null
            ? null
            : html(window, inside, options.markers(), start > 0, end < text.length());
    return new Snippet(window, start, end, inside, html);
  }

  /**
   * The first and last match index of the best span: most distinct words, then most matches, then
   * earliest.
   */
  private static int[] bestSpan(String text, List<int[]> matches, int max) {
    int bestFirst = 0;
    int bestLast = 0;
    int bestDistinct = -1;
    int bestCount = -1;
    String[] matched =
        new String[matches.size()]; // each match's word once, not once per span holding it
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

  /**
   * The start of the sentence holding {@code at}, when it lies at most {@code within} before it;
   * else -1.
   */
  private static int sentenceStart(String text, int at, int within) {
    for (int i = at - 1; i >= 0 && at - i <= within; i--) {
      char c = text.charAt(i);
      if (c == '\n'
          || ((c == '.' || c == '!' || c == '?')
              && i + 1 < text.length()
              && Character.isWhitespace(text.charAt(i + 1)))) {
        return i + 1;
      }
      if (i == 0) {
        return 0;
      }
    }
    return -1;
  }

  /**
   * {@code from}, or the next place a window may start at, but never past {@code limit}; {@code
   * from} when none.
   */
  private static int wordStartAfter(String text, int from, int limit) {
    for (int i = from; i <= limit; i++) {
      if (startsWindow(text, i)) {
        return i;
      }
    }
    return from; // one word longer than the room: cut inside it (the html ellipsis marks the cut)
  }

  /**
   * {@code to}, or the last place before it a window may end at, but never before {@code limit};
   * {@code to} when none.
   */
  private static int wordEndBefore(String text, int to, int limit) {
    for (int i = to; i >= Math.max(limit, 1); i--) { // never an empty window: 0 is no end
      if (endsWindow(text, i)) {
        return i;
      }
    }
    return to; // one word longer than the room: cut inside it (the html ellipsis marks the cut)
  }

  /**
   * A window may start at {@code i}: after a space, or where a word (or an opening bracket or
   * quote) begins.
   */
  static boolean startsWindow(String text, int i) {
    assert i < text.length() : "a window starts before the text's end: " + i;
    if (i == 0 || Character.isWhitespace(text.charAt(i - 1))) {
      return true;
    }
    if (!isBreak(text, i)) {
      return false;
    }
    int next = text.codePointAt(i);
    int type = Character.getType(next);
    return isWordChar(next)
        || type == Character.START_PUNCTUATION
        || type == Character.INITIAL_QUOTE_PUNCTUATION;
  }

  /**
   * A window may end at {@code i}: before a space, or where a word (or a closing bracket, quote or
   * punctuation mark other than a dash) ends; a hyphenated compound is cut at a hyphen, not after
   * it.
   */
  static boolean endsWindow(String text, int i) {
    assert i > 0 : "a window ends after its first character: " + i;
    if (i >= text.length() || Character.isWhitespace(text.charAt(i))) {
      return true;
    }
    if (!isBreak(text, i)) {
      return false;
    }
    int previous = text.codePointBefore(i);
    int type = Character.getType(previous);
    return isWordChar(previous)
        || type == Character.END_PUNCTUATION
        || type == Character.FINAL_QUOTE_PUNCTUATION
        || type == Character.OTHER_PUNCTUATION;
  }

  /**
   * Whether {@code 0 < i < text.length()} is a break opportunity between two characters: at a
   * space; between a word and punctuation (a hyphen, a slash, a period ending a sentence), except
   * the marks inside a word ({@code don't}, {@code 3.14}, {@code snake_case}); between two
   * characters of the scripts written without spaces (Chinese, Japanese). Never inside a surrogate
   * pair or before a combining mark or joiner. A fixed rule rather than {@link
   * java.text.BreakIterator}, whose segmentation differs between JDK releases (and would move
   * pinned snippets) and keeps {@code gon-needle-another} whole.
   */
  static boolean isBreak(String text, int i) {
    char before = text.charAt(i - 1);
    char at = text.charAt(i);
    if (Character.isHighSurrogate(before) && Character.isLowSurrogate(at)) {
      return false;
    }
    if (Character.isWhitespace(before) || Character.isWhitespace(at)) {
      return true;
    }
    int a = text.codePointBefore(i);
    int b = text.codePointAt(i);
    if (isAttached(b) || a == ZERO_WIDTH_JOINER) {
      return false;
    }
    if (isSpacelessScript(a) || isSpacelessScript(b)) {
      return true;
    }
    boolean wordBefore = isWordChar(a);
    boolean wordAfter = isWordChar(b);
    if (wordBefore == wordAfter) {
      return false; // inside a word, or inside a run of punctuation ("?!", "--")
    }
    if (wordBefore) { // word | mark: a mark inside a word when a word follows it
      int after = i + Character.charCount(b);
      return !(isInnerMark(b) && after < text.length() && isWordChar(text.codePointAt(after)));
    }
    int markAt =
        i - Character.charCount(a); // mark | word: a mark inside a word when a word precedes it
    return !(isInnerMark(a) && markAt > 0 && isWordChar(text.codePointBefore(markAt)));
  }

  private static final int ZERO_WIDTH_JOINER = 0x200D;

  private static boolean isWordChar(int c) {
    return Character.isLetterOrDigit(c);
  }

  /**
   * Marks that belong to the character before them: combining marks, joiners, variation selectors.
   */
  private static boolean isAttached(int c) {
    int type = Character.getType(c);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || c == ZERO_WIDTH_JOINER
        || (c >= 0xFE00 && c <= 0xFE0F);
  }

  /** Punctuation that joins the two halves of one word when it stands between letters or digits. */
  private static boolean isInnerMark(int c) {
    return c == '\''
        || c == '\u2019'
        || c == '.'
        || c == ','
        || c == ':'
        || c == '_'
        || c == '\u00B7';
  }

  /**
   * Chinese and Japanese are written without spaces: a window may cut between any two of their
   * characters.
   */
  private static boolean isSpacelessScript(int c) {
    Character.UnicodeScript script = Character.UnicodeScript.of(c);
    return script == Character.UnicodeScript.HAN
        || script == Character.UnicodeScript.HIRAGANA
        || script == Character.UnicodeScript.KATAKANA;
  }

  private static String html(
      String window,
      List<int[]> highlights,
      SearchRequest.Snippets.Markers markers,
      boolean cutBefore,
      boolean cutAfter) {
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
