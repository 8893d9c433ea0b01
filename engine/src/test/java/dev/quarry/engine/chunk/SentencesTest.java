package dev.quarry.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SentencesTest {
  /** Whether a sentence ends between the two words of {@code "first second"}. */
  private static boolean endsBetween(String text) {
    int space = text.indexOf(' ');
    return Sentences.endsBefore(text, 0, space, space + 1, text.length());
  }

  @Test
  void endsBefore_periodThenCapital_endsSentence() {
    assertTrue(endsBetween("done. Next"));
  }

  @Test
  void endsBefore_questionAndExclamation_endSentences() {
    assertTrue(endsBetween("why? Because"));
    assertTrue(endsBetween("stop! Now"));
  }

  @Test
  void endsBefore_closingQuoteAfterPeriod_endsSentence() {
    assertTrue(endsBetween("said.\u201D The"));
    assertTrue(endsBetween("(this.) And"));
  }

  @Test
  void endsBefore_lowerCaseContinuation_isNoSentenceEnd() {
    assertFalse(endsBetween("approx. ten"));
    assertFalse(endsBetween("Yahoo! is"));
  }

  @Test
  void endsBefore_knownAbbreviation_isNoSentenceEnd() {
    assertFalse(endsBetween("Dr. Smith"));
    assertFalse(endsBetween("MR. Jones"));
    assertFalse(endsBetween("Fig. Three"));
  }

  @Test
  void endsBefore_dottedAbbreviationOrInitial_isNoSentenceEnd() {
    assertFalse(endsBetween("e.g. Apples"));
    assertFalse(endsBetween("U.S. Congress"));
    assertFalse(endsBetween("J. Tolkien"));
  }

  @Test
  void endsBefore_ellipsis_endsSentence() {
    assertTrue(endsBetween("wait... Then"));
  }

  @Test
  void endsBefore_noTerminal_isNoSentenceEnd() {
    assertFalse(endsBetween("3.14 Then"));
    assertFalse(endsBetween("word Then"));
  }

  @Test
  void endsBefore_arabicQuestionMark_endsSentence() {
    assertTrue(endsBetween("\u0645\u0627\u0630\u0627\u061F \u0647\u0630\u0627"));
  }

  @Test
  void endsWithCjkTerminal_fullStopAndFullWidthMarks_endSentences() {
    assertTrue(Sentences.endsWithCjkTerminal("好。", 0, 2));
    assertTrue(Sentences.endsWithCjkTerminal("好！」", 0, 3));
    assertFalse(Sentences.endsWithCjkTerminal("好，", 0, 2));
  }
}
