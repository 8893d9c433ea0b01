package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * What fonts map bullets, unnamed glyphs and even spaces to (C0 and C1 control characters) is a
 * space in a PDF's text; line ends and tabs stay.
 */
class ControlCharactersTest {
  @Test
  void controlCharacters_areSpaces_butLineEndsAndTabs() {
    // A font whose space is U+0002 (pdf.js's TAMReview), a bullet, a NUL, a C1 bullet, a CR.
    assertEquals(
        "Overview of the model",
        PageCollectingStripper.controlsAsSpaces("Overview\u0002of\u0002the\u0002model"));
    assertEquals(
        "  First, the policy", PageCollectingStripper.controlsAsSpaces("\u0002 First, the policy"));
    assertEquals("  abibi", PageCollectingStripper.controlsAsSpaces("\u0000\u0000abibi"));
    assertEquals("  They work", PageCollectingStripper.controlsAsSpaces("\u0084\u0084They work"));
    assertEquals(
        "a line \nand\tthe next",
        PageCollectingStripper.controlsAsSpaces("a line\r\nand\tthe next"));
  }

  @Test
  void textWithoutControlCharacters_isTheSameString() {
    String text = "Nothing to replace here.\n\tIndented.";
    assertSame(text, PageCollectingStripper.controlsAsSpaces(text));
  }
}
