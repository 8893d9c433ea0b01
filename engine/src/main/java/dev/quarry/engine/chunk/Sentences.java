package dev.quarry.engine.chunk;

/**
 * Decides whether a sentence ends between two tokens, by looking only at the end of the one and the
 * start of the other: linear, allocation-free, and right often enough for choosing where to cut a
 * passage. It errs towards "no sentence end" (an abbreviation, an initial, a lower-case
 * continuation), since a missed sentence end only costs a less tidy cut.
 */
final class Sentences {
  /**
   * Words that end with a period without ending a sentence, compared case-insensitively. "etc." is
   * left out on purpose: it ends sentences as often as not.
   */
  private static final String[] ABBREVIATIONS = {
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "fig", "figs", "no", "nos", "vol",
    "vols", "pp", "ca", "cf", "approx", "dept", "inc", "ltd", "co", "corp", "gen", "gov", "rev",
    "sgt", "capt", "col", "lt", "mt", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "al", "eq", "eqs", "ch", "sec", "op", "ed", "eds", "est", "resp"
  };

  /**
   * Dotted abbreviations ("e.g.", "i.e.", "U.S.") are at most this long without the final period.
   */
  private static final int MAX_DOTTED_ABBREVIATION_CHARS = 5;

  private Sentences() {}

  /**
   * Whether the token {@code text[prevStart, prevEnd)}, followed by whitespace, ends a sentence
   * that the token starting at {@code nextStart} begins.
   */
  static boolean endsBefore(String text, int prevStart, int prevEnd, int nextStart, int nextEnd) {
    if (isAsciiLetterOrDigit(text.charAt(prevEnd - 1))) {
      return false; // most words: decided without looking further
    }
    int k = prevEnd - 1;
    while (k > prevStart && Scripts.isCloser(text.charAt(k))) {
      k--;
    }
    char last = text.charAt(k);
    if (Scripts.isCjkTerminal(last)) {
      return true;
    }
    if (!Scripts.isSpacedTerminal(last)) {
      return false;
    }
    if (last == '.' && isAbbreviation(text, prevStart, k)) {
      return false;
    }
    return !startsLowerCase(text, nextStart, nextEnd);
  }

  /**
   * Whether a CJK full stop (which needs no space after it) ends the token {@code text[start,
   * end)}.
   */
  static boolean endsWithCjkTerminal(String text, int start, int end) {
    if (text.charAt(end - 1) < 0x80) {
      return false;
    }
    int k = end - 1;
    while (k > start && Scripts.isCloser(text.charAt(k))) {
      k--;
    }
    return Scripts.isCjkTerminal(text.charAt(k));
  }

  /** Whether {@code text[start, period)} followed by a period is an abbreviation or an initial. */
  private static boolean isAbbreviation(String text, int start, int period) {
    while (start < period && Scripts.isOpener(text.charAt(start))) {
      start++;
    }
    int length = period - start;
    if (length == 0) {
      return false;
    }
    if (text.charAt(period - 1) == '.') {
      return false; // an ellipsis written as "..."
    }
    if (length == 1) {
      return Character.isLetter(text.charAt(start)); // an initial: "J. R. R. Tolkien"
    }
    if (length <= MAX_DOTTED_ABBREVIATION_CHARS) {
      for (int i = start + 1; i < period; i++) {
        if (text.charAt(i) == '.') {
          return true; // "e.g.", "i.e.", "U.S."
        }
      }
    }
    char first = Character.toLowerCase(text.charAt(start));
    for (String abbreviation : ABBREVIATIONS) {
      if (abbreviation.length() == length
          && abbreviation.charAt(0) == first
          && text.regionMatches(true, start, abbreviation, 0, length)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isAsciiLetterOrDigit(char c) {
    char lower = (char) (c | 0x20);
    return (lower >= 'a' && lower <= 'z') || (c >= '0' && c <= '9');
  }

  /** Whether the token's first letter, after any opening quotes or brackets, is lower case. */
  private static boolean startsLowerCase(String text, int start, int end) {
    int i = start;
    while (i < end && Scripts.isOpener(text.charAt(i))) {
      i++;
    }
    return i < end && Character.isLowerCase(text.codePointAt(i));
  }
}
