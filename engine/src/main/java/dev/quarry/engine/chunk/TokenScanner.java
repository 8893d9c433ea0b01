package dev.quarry.engine.chunk;

/**
 * Cuts a text into {@link Tokens}, one at a time and front to back, and notes before each token the
 * boundaries the chunker cares about: line, paragraph, sentence, page, Markdown heading.
 *
 * <p>One pass, no regular expressions, no allocation per token: every character is looked at a
 * bounded number of times whatever the input (a megabyte without a space, a text of nothing but
 * newlines, control characters).
 *
 * <p>Whitespace is what {@link Character#isWhitespace} says it is, the same rule as {@link
 * String#strip()}, so "every non-whitespace character is in some chunk" means what a caller
 * checking it would expect. A run of non-whitespace becomes several tokens when it holds CJK
 * letters (each is a token, with the punctuation that follows it) or when it is longer than {@code
 * maxTokenChars} (cut at a code point boundary).
 *
 * <p>Token weights are in half-words: a word weighs 2 and a CJK letter 1, so that Chinese or
 * Japanese written without spaces fills a chunk with about two characters per word of the budget (a
 * 500-character paragraph is about 250 words). A whitespace-separated run always weighs at least
 * one word, so no chunk holds more whitespace-separated tokens than its word budget. A run longer
 * than {@link #LONG_TOKEN_CHARS} is data rather than a word (a URL, base64, minified code) and
 * weighs a word per {@link #CHARS_PER_DATA_WORD} characters, so such runs fill chunks by size.
 */
final class TokenScanner {
  /** Runs up to this long count as one word; hardly any natural-language word is longer. */
  static final int LONG_TOKEN_CHARS = 64;

  /**
   * Longer runs count one word per this many characters, about the length of an English word with
   * its space.
   */
  static final int CHARS_PER_DATA_WORD = 8;

  private final String text;
  private final int length;
  private final PageMap pages;
  private final boolean markdown;
  private final int maxTokenChars;

  /** Where the next token, or the whitespace before it, begins. */
  private int pos;

  /**
   * The current run of non-whitespace is {@code [runStart, runEnd)}; {@code pos == runEnd} between
   * runs.
   */
  private int runStart;

  private int runEnd;

  /** The 0-based index of the next page start not yet passed. */
  private int nextPage = 1;

  private int prevStart = -1;
  private int prevEnd = -1;
  private boolean inHeadingLine;
  private boolean inFence;

  /** Whether the last {@link #wordEnd} took in a CJK letter after leading punctuation. */
  private boolean joinedCjkLetter;

  /**
   * @param pages the text's pages, or null
   * @param markdown whether lines starting with {@code #} are headings
   * @param maxTokenChars longer runs of non-whitespace are cut into pieces of this many characters
   */
  TokenScanner(String text, PageMap pages, boolean markdown, int maxTokenChars) {
    this.text = text;
    this.length = text.length();
    this.pages = pages;
    this.markdown = markdown;
    this.maxTokenChars = maxTokenChars;
  }

  /** Appends the next token to {@code tokens}; false, appending nothing, at the end of the text. */
  boolean next(Tokens tokens) {
    int flags = pos == runEnd ? startRun() : flagsInsideRun();
    if (flags < 0) {
      return false;
    }
    int start = pos;
    int end;
    int weight;
    int cp = text.codePointAt(start);
    if (Scripts.isCjkLetter(cp)) {
      end = withTrailingPunctuation(start + Character.charCount(cp));
      weight = 1;
    } else {
      end = wordEnd(start);
      weight = joinedCjkLetter ? 1 : 2 * wordsOf(end - start);
    }
    if (start == runStart && end == runEnd) {
      weight = Math.max(weight, 2); // a run by itself is at least a word
    }
    if (inHeadingLine) {
      flags |= Tokens.IN_HEADING;
    }
    if (crossesPageStart(start)) {
      flags |= Tokens.PAGE;
    }
    tokens.append(start, end, weight, flags);
    prevStart = start;
    prevEnd = end;
    pos = end;
    return true;
  }

  /**
   * Skips the whitespace before the next run and returns the flags of its first token, or -1 at the
   * end of the text.
   */
  private int startRun() {
    int newlines = 0;
    int indent = 0;
    int i = pos;
    for (; i < length; i++) {
      char c = text.charAt(i);
      if (!isSpace(c)) {
        break;
      }
      switch (c) {
        case '\n', '\u000B', '\u2028' -> {
          newlines++;
          indent = 0;
        }
        case '\r' -> { // \r\n is one line break, counted at its \n
          newlines += i + 1 < length && text.charAt(i + 1) == '\n' ? 0 : 1;
          indent = 0;
        }
        case '\f', '\u2029' -> { // a form feed or paragraph separator ends a paragraph
          newlines += 2;
          indent = 0;
        }
        case '\t' -> indent += 4;
        default -> indent++;
      }
    }
    pos = i;
    if (i == length) {
      runStart = runEnd = length;
      return -1;
    }
    runStart = i;
    int j = i + 1;
    while (j < length && !isSpace(text.charAt(j))) {
      j++;
    }
    runEnd = j;

    boolean first = prevEnd < 0;
    boolean lineStart = first || newlines > 0;
    int flags = Tokens.RUN_START;
    if (lineStart) {
      flags |= Tokens.LINE_START;
      inHeadingLine = false;
      if (markdown) {
        flags |= markdownLineStart(indent);
      }
    }
    if (!first && newlines >= 2) {
      flags |= Tokens.PARAGRAPH | Tokens.SENTENCE;
    } else if (!first
        && (lineStart && Markdown.isListMarker(text, runStart, runEnd)
            || Sentences.endsBefore(text, prevStart, prevEnd, runStart, runEnd))) {
      flags |= Tokens.SENTENCE;
    }
    return flags;
  }

  /** Tracks code fences and recognises a heading marker at the start of a Markdown line. */
  private int markdownLineStart(int indent) {
    if (Markdown.isFence(text, runStart, runEnd)) {
      inFence = !inFence;
      return 0;
    }
    if (!inFence
        && indent <= Markdown.MAX_HEADING_INDENT
        && Markdown.isHeadingMarker(text, runStart, runEnd)) {
      inHeadingLine = true;
      return Tokens.HEADING;
    }
    return 0;
  }

  /**
   * The flags of a token that follows another in the same run: only a CJK full stop ends a sentence
   * there.
   */
  private int flagsInsideRun() {
    return Sentences.endsWithCjkTerminal(text, prevStart, prevEnd) ? Tokens.SENTENCE : 0;
  }

  /**
   * The end of a token of non-CJK characters starting at {@code start}: the run's end, the next CJK
   * letter, or {@code maxTokenChars} further. Punctuation right before a CJK letter (an opening
   * bracket or quote) joins that letter's token instead of standing alone.
   */
  private int wordEnd(int start) {
    int end = start;
    boolean hasLetterOrDigit = false;
    joinedCjkLetter = false;
    while (end < runEnd && end - start < maxTokenChars) {
      char c = text.charAt(end);
      if (c < 0x1100) { // no CJK letter and no surrogate below this
        hasLetterOrDigit = hasLetterOrDigit || Character.isLetterOrDigit(c);
        end++;
        continue;
      }
      int cp = text.codePointAt(end);
      if (Scripts.isCjkLetter(cp)) {
        if (hasLetterOrDigit) {
          return end;
        }
        joinedCjkLetter = true;
        return withTrailingPunctuation(end + Character.charCount(cp));
      }
      hasLetterOrDigit = hasLetterOrDigit || Character.isLetterOrDigit(cp);
      end += Character.charCount(cp);
    }
    return end;
  }

  /** Extends a CJK letter's token over the punctuation after it (bounded, like any token). */
  private int withTrailingPunctuation(int end) {
    int limit = Math.min(runEnd, end + maxTokenChars);
    while (end < limit) {
      int cp = text.codePointAt(end);
      if (Character.isLetterOrDigit(cp)
          || (cp < Character.MIN_SUPPLEMENTARY_CODE_POINT && Scripts.isOpener((char) cp))) {
        return end; // an opening bracket or quote belongs to the letter after it
      }
      end += Character.charCount(cp);
    }
    return end;
  }

  /** Whether a page starts at or before {@code start} that no earlier token has passed. */
  private boolean crossesPageStart(int start) {
    if (pages == null) {
      return false;
    }
    boolean crossed = false;
    while (nextPage < pages.pageCount() && pages.start(nextPage) <= start) {
      nextPage++;
      crossed = true;
    }
    return crossed && prevEnd >= 0;
  }

  private static int wordsOf(int chars) {
    return chars <= LONG_TOKEN_CHARS ? 1 : (chars + CHARS_PER_DATA_WORD - 1) / CHARS_PER_DATA_WORD;
  }

  private static boolean isSpace(char c) {
    return c <= ' ' ? Character.isWhitespace(c) : c >= 0x80 && Character.isWhitespace(c);
  }
}
