package dev.quarry.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.PageRange;
import java.util.List;

/**
 * The rules every result of {@link Chunker#split} must keep, checked from the outside: words are
 * counted here independently of the chunker, as whitespace-separated tokens.
 */
final class ChunkInvariants {
  private ChunkInvariants() {}

  /** Splits and checks every invariant; returns the spans for further checks. */
  static List<ChunkSpan> splitAndCheck(
      String text, int[] pageStarts, String mediaType, CorpusSettings.Chunking settings) {
    List<ChunkSpan> spans = Chunker.split(text, pageStarts, mediaType, settings);
    check(text, pageStarts, settings, spans);
    return spans;
  }

  static void check(
      String text, int[] pageStarts, CorpusSettings.Chunking settings, List<ChunkSpan> spans) {
    assertEquals(text.isBlank(), spans.isEmpty(), "blank text, and only blank text, has no chunks");
    boolean[] covered = new boolean[text.length()];
    // Whitespace-separated words do not measure CJK text; its overlap is checked by its own tests.
    boolean spaced = text.codePoints().noneMatch(Scripts::isCjkLetter);
    ChunkSpan previous = null;
    for (int n = 0; n < spans.size(); n++) {
      ChunkSpan span = spans.get(n);
      String chunk = text.substring(span.start(), span.end());
      String where = "chunk " + n + " [" + span.start() + ", " + span.end() + ")";
      assertFalse(Character.isWhitespace(chunk.charAt(0)), where + " starts with whitespace");
      assertFalse(
          Character.isWhitespace(chunk.charAt(chunk.length() - 1)),
          where + " ends with whitespace");
      assertFalse(
          splitsSurrogatePair(text, span.start()), where + " starts inside a surrogate pair");
      assertFalse(splitsSurrogatePair(text, span.end()), where + " ends inside a surrogate pair");
      int words = wordCount(chunk);
      assertTrue(words <= settings.maxWords() || words == 1, where + " has " + words + " words");
      if (previous != null) {
        assertTrue(
            span.start() > previous.start(), where + " does not start after the previous chunk");
        assertTrue(span.end() > previous.end(), where + " does not end after the previous chunk");
        if (span.start() < previous.end()) {
          int overlapWords = wordCount(text.substring(span.start(), previous.end()));
          // +1: the overlap may begin inside a run that holds CJK letters.
          assertTrue(
              overlapWords <= settings.overlapWords() + 1,
              where + " overlaps by " + overlapWords + " words");
          int previousWords = wordCount(text.substring(previous.start(), previous.end()));
          assertTrue(
              !spaced || overlapWords <= previousWords / 2 + 1,
              where
                  + " overlaps "
                  + overlapWords
                  + " of the previous chunk's "
                  + previousWords
                  + " words");
        }
      }
      for (int i = span.start(); i < span.end(); i++) {
        covered[i] = true;
      }
      if (pageStarts == null) {
        assertNull(span.pages(), where + " has pages but the text has none");
      } else {
        assertEquals(
            new PageRange(pageOf(pageStarts, span.start()), pageOf(pageStarts, span.end() - 1)),
            span.pages(),
            where + " pages");
      }
      previous = span;
    }
    for (int i = 0; i < text.length(); i++) {
      if (!covered[i] && !Character.isWhitespace(text.charAt(i))) {
        fail("character " + i + " (U+" + Integer.toHexString(text.charAt(i)) + ") is in no chunk");
      }
    }
  }

  private static boolean splitsSurrogatePair(String text, int offset) {
    return offset > 0
        && offset < text.length()
        && Character.isHighSurrogate(text.charAt(offset - 1))
        && Character.isLowSurrogate(text.charAt(offset));
  }

  /** Whitespace-separated tokens, the plain definition of a word. */
  static int wordCount(String s) {
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < s.length(); i++) {
      boolean space = Character.isWhitespace(s.charAt(i));
      if (!space && !inWord) {
        words++;
      }
      inWord = !space;
    }
    return words;
  }

  /** The 1-based page of {@code offset}: the last page starting at or before it. */
  static int pageOf(int[] pageStarts, int offset) {
    int page = 0;
    for (int i = 0; i < pageStarts.length && pageStarts[i] <= offset; i++) {
      page = i + 1;
    }
    return page;
  }
}
