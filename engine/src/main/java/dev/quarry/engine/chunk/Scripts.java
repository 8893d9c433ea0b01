package dev.quarry.engine.chunk;

/**
 * Character classes the chunker needs, as plain range checks: {@link Character.UnicodeScript#of} is
 * a binary search per call, too slow for a scan over every character of a corpus.
 */
final class Scripts {
  private Scripts() {}

  /**
   * Whether {@code cp} is a Han, Hiragana, Katakana or Hangul letter: a character of a script
   * written without spaces between words, which the chunker counts as half a word.
   */
  static boolean isCjkLetter(int cp) {
    if (cp < 0x1100) {
      return false;
    }
    return (cp >= 0x4E00 && cp <= 0x9FFF) // CJK unified ideographs
        || (cp >= 0x3400 && cp <= 0x4DBF) // extension A
        || (cp >= 0x3040 && cp <= 0x30FF) // Hiragana, Katakana
        || (cp >= 0xAC00 && cp <= 0xD7AF) // Hangul syllables
        || (cp >= 0x1100 && cp <= 0x11FF) // Hangul jamo
        || (cp >= 0x3130 && cp <= 0x318F) // Hangul compatibility jamo
        || (cp >= 0x31F0 && cp <= 0x31FF) // Katakana phonetic extensions
        || (cp >= 0xF900 && cp <= 0xFAFF) // compatibility ideographs
        || (cp >= 0xFF66 && cp <= 0xFF9D) // half-width Katakana
        || (cp >= 0x20000 && cp <= 0x3FFFF); // supplementary ideographic planes
  }

  /**
   * Sentence-ending punctuation that ends a sentence without a following space (CJK, full width).
   */
  static boolean isCjkTerminal(char c) {
    return c == '\u3002' || c == '\uFF01' || c == '\uFF1F' || c == '\uFF61';
  }

  /** Sentence-ending punctuation of scripts that put a space after it. */
  static boolean isSpacedTerminal(char c) {
    return c == '.'
        || c == '!'
        || c == '?'
        || c == '\u2026' // ellipsis
        || c == '\u061F'
        || c == '\u06D4' // Arabic question mark, Urdu full stop
        || c == '\u0964'
        || c == '\u0965' // Devanagari danda
        || c == '\u203C'
        || c == '\u2047'
        || c == '\u2048'
        || c == '\u2049';
  }

  /** Closing quotes and brackets that may follow a sentence's final punctuation. */
  static boolean isCloser(char c) {
    return switch (c) {
      case '"',
          '\'',
          ')',
          ']',
          '}',
          '\u2019',
          '\u201D',
          '\u00BB',
          '\u203A',
          '\u300D',
          '\u300F',
          '\uFF09' ->
          true;
      default -> false;
    };
  }

  /** Opening quotes and brackets that may precede a sentence's first letter. */
  static boolean isOpener(char c) {
    return switch (c) {
      case '"',
          '\'',
          '(',
          '[',
          '{',
          '\u2018',
          '\u201C',
          '\u00AB',
          '\u2039',
          '\u300C',
          '\u300E',
          '\uFF08',
          '\u00BF',
          '\u00A1' ->
          true;
      default -> false;
    };
  }
}
