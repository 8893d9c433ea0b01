package dev.quarry.extractors.pdf;

import java.text.Bidi;
import java.text.Normalizer;

/**
 * A line of a PDF read left to right on the page, as the reader of an Arabic, Persian or Hebrew
 * line reads it.
 *
 * <p>A PDF places glyphs; it does not say in which order its text is read. Read left to right, a
 * right-to-left line comes out backwards: its letters reversed, and its runs of words in the wrong
 * order around any left-to-right words (a name, a number) inside it. PDFBox turns each of its words
 * around on its own, taking each word's direction from the first letter it meets from the left, so
 * a line whose words stand apart keeps its runs in the page's order ({@code Python و R تحسين ...}
 * for {@code تحسين ... R و Python}). This reads the whole line at once instead, in the direction
 * the caller found for it, and puts the Unicode bidirectional algorithm's runs ({@link Bidi}) in
 * reading order, each right-to-left run turned around. For the levels a line of text has (a
 * right-to-left line with left-to-right words, or the reverse) putting runs in reading order and in
 * page order are the same permutation, so the algorithm that lays text out also reads it back. Not
 * always: a number typed before a Latin word in a right-to-left line ({@code 2 GB}, shown {@code GB
 * 2}) reads back as shown, since the algorithm gives a number after a Latin letter the letter's
 * direction; PDFBox reads it so too.
 *
 * <p>Brackets are not mirrored: the producers seen (Word's Arabic and Persian documents, a Hebrew
 * one, Chromium's printed pages) map the glyph drawn at either end of a bracketed phrase to the
 * bracket as typed, so its character is already the reading order's.
 */
final class VisualOrder {
  private VisualOrder() {}

  /**
   * The reading order of {@code visual}, a line's characters as they stand from left to right (each
   * glyph's own letters in page order too), for a line that reads right to left when {@code
   * rightToLeft} (where even a line of numbers runs from the right: {@code 2026 - 2024} reads
   * {@code 2024 - 2026}); the same string for a left-to-right line with no character written right
   * to left.
   */
  static String logical(String visual, boolean rightToLeft) {
    if (!rightToLeft && !Bidi.requiresBidi(visual.toCharArray(), 0, visual.length())) {
      return visual;
    }
    String text = scriptsSpaced(presentationFormsExpanded(visual));
    Bidi bidi =
        new Bidi(text, rightToLeft ? Bidi.DIRECTION_RIGHT_TO_LEFT : Bidi.DIRECTION_LEFT_TO_RIGHT);
    int runs = bidi.getRunCount();
    byte[] levels = new byte[runs];
    Integer[] order = new Integer[runs];
    for (int i = 0; i < runs; i++) {
      levels[i] = (byte) bidi.getRunLevel(i);
      order[i] = i;
    }
    Bidi.reorderVisually(levels, 0, order, 0, runs);
    StringBuilder out = new StringBuilder(text.length());
    for (int run : order) {
      int start = bidi.getRunStart(run);
      int end = bidi.getRunLimit(run);
      if ((levels[run] & 1) == 0) {
        out.append(text, start, end);
        continue;
      }
      // Right to left: turned around.
      appendReversed(text, start, end, out);
    }
    return out.toString();
  }

  /**
   * Whether text reads right to left: it has letters written right to left, at least as many as
   * letters written left to right.
   */
  static boolean readsRightToLeft(CharSequence text) {
    int rtl = 0;
    int ltr = 0;
    for (int i = 0; i < text.length(); ) {
      int c = Character.codePointAt(text, i);
      i += Character.charCount(c);
      int direction = strong(c);
      rtl += direction < 0 ? 1 : 0;
      ltr += direction > 0 ? 1 : 0;
    }
    return rtl > 0 && rtl >= ltr;
  }

  /** Whether {@code text} holds a letter written right to left. */
  static boolean holdsRightToLeft(CharSequence text) {
    for (int i = 0; i < text.length(); ) {
      int c = Character.codePointAt(text, i);
      i += Character.charCount(c);
      if (strong(c) < 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The direction of the first letter of {@code text} that has one: 1 left to right, -1 right to
   * left, 0 when no letter has.
   */
  static int firstStrong(CharSequence text) {
    for (int i = 0; i < text.length(); ) {
      int c = Character.codePointAt(text, i);
      i += Character.charCount(c);
      if (strong(c) != 0) {
        return strong(c);
      }
    }
    return 0;
  }

  /**
   * A space between a right-to-left letter and a left-to-right one that touch: they never join into
   * one word, and a producer that lays out a line of both often leaves no gap where its text had a
   * space ({@code Pythonمن}), which would make one word of two for search.
   */
  private static String scriptsSpaced(String text) {
    StringBuilder out = null;
    int previous = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (i > 0 && strong(previous) * strong(c) < 0) {
        if (out == null) {
          out = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        out.append(' ');
      }
      if (out != null) {
        out.appendCodePoint(c);
      }
      previous = c;
      i += Character.charCount(c);
    }
    return out == null ? text : out.toString();
  }

  /** 1 for a letter written left to right, -1 for one written right to left, else 0. */
  private static int strong(int c) {
    return switch (Character.getDirectionality(c)) {
      case Character.DIRECTIONALITY_LEFT_TO_RIGHT -> 1;
      case Character.DIRECTIONALITY_RIGHT_TO_LEFT, Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC ->
          -1;
      default -> 0;
    };
  }

  /**
   * Arabic and Hebrew presentation forms (a glyph's shape, with its own code point) as the letters
   * they stand for, as PDFBox does with a word: a form that stands for several letters (a ligature
   * such as lam-alef) gets them in page order, so that turning the run around puts them in reading
   * order.
   */
  private static String presentationFormsExpanded(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(0xFB1D <= c && c <= 0xFDFF || 0xFE70 <= c && c <= 0xFEFF)) {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 8).append(text, 0, i);
      }
      String letters = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFKC).strip();
      appendReversed(letters, 0, letters.length(), out);
    }
    return out == null ? text : out.toString();
  }

  /**
   * Appends {@code text} from {@code start} to {@code end} in reverse order. A glyph's own letters
   * come in page order ({@code TextPosition#getVisuallyOrderedUnicode}, a vowel sign before the
   * letter it sits on), so turning the run around puts them in reading order too.
   */
  private static void appendReversed(CharSequence text, int start, int end, StringBuilder out) {
    for (int i = end; i > start; ) {
      int c = Character.codePointBefore(text, i);
      i -= Character.charCount(c);
      out.appendCodePoint(c);
    }
  }
}
