package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Lines given as they stand on a page, left to right, read back in their reading order. Each visual
 * string is written out by hand: right-to-left words turned around, placed as a reader of the line
 * sees them.
 */
class VisualOrderTest {

  private static String reversed(String s) {
    return new StringBuilder(s).reverse().toString();
  }

  @Test
  void hebrewLine_isTurnedAround() {
    assertEquals("שלום עולם", VisualOrder.logical("םלוע םולש", true));
  }

  @Test
  void arabicLineWithLatinWords_keepsEachRunInPlace() {
    // "تحسين بلغة R و Python": the Arabic starts at the right edge, the Latin words run left of it.
    String visual = "Python و R " + reversed("تحسين بلغة");
    assertEquals("تحسين بلغة R و Python", VisualOrder.logical(visual, true));
  }

  @Test
  void latinLineWithAnArabicWord_staysLeftToRight() {
    String visual = "the word " + reversed("مرحبا") + " means hello";
    assertEquals("the word مرحبا means hello", VisualOrder.logical(visual, false));
  }

  @Test
  void mixedLine_readsInTheDirectionGiven() {
    // PDFBox's sample: a line that begins with its English word, then its Arabic one.
    String visual = "test " + reversed("الختبار");
    assertEquals("test الختبار", VisualOrder.logical(visual, false));
    assertEquals("الختبار test", VisualOrder.logical(visual, true));
  }

  @Test
  void brackets_areKeptAsDrawn() {
    // Producers map the glyph at each end of "(שלום)" to the bracket typed there.
    assertEquals("(שלום)", VisualOrder.logical(")םולש(", true));
  }

  @Test
  void lettersOfTwoDirectionsThatTouch_areTwoWords() {
    // "Python من الأدوات" laid out with no gap between "Python" and "من".
    String visual = reversed("من الأدوات") + "Python";
    assertEquals("Python من الأدوات", VisualOrder.logical(visual, true));
  }

  @Test
  void ligatureGlyph_givesItsLettersInReadingOrder() {
    // U+FEFB ARABIC LIGATURE LAM WITH ALEF ISOLATED FORM is lam then alef.
    assertEquals("لا", VisualOrder.logical("\uFEFB", true));
    assertEquals("كلام", VisualOrder.logical(reversed("م") + "\uFEFB" + reversed("ك"), true));
  }

  @Test
  void numbersInARightToLeftLine_readLeftToRight() {
    assertEquals("سنة 2024 م", VisualOrder.logical("م 2024 " + reversed("سنة"), true));
  }

  @Test
  void leftToRightLineWithoutRightToLeftLetters_isReturnedAsGiven() {
    String line = "Quarterly results (2024)";
    assertSame(line, VisualOrder.logical(line, false));
  }

  @Test
  void rightToLeftLineOfNumbersOnly_runsFromTheRight() {
    // A cell of a right-to-left table typed "2024 - 2026": the first year stands at the right.
    assertEquals("2024 - 2026", VisualOrder.logical("2026 - 2024", true));
  }

  @Test
  void firstStrongLetter_givesTheDirection() {
    assertEquals(-1, VisualOrder.firstStrong("2024 - " + "سنة" + " year"));
    assertEquals(1, VisualOrder.firstStrong("(year) " + "سنة"));
    assertEquals(0, VisualOrder.firstStrong("2024 - 2026"));
    assertTrue(VisualOrder.holdsRightToLeft("year " + "سنة"));
    assertFalse(VisualOrder.holdsRightToLeft("year 2024 \u0661\u0662")); // Arabic-Indic digits
  }

  @Test
  void direction_isTheOneMostStrongLettersHave() {
    assertTrue(VisualOrder.readsRightToLeft("نام استاندارد 20300 ISO"));
    assertFalse(VisualOrder.readsRightToLeft("Standard name مرجع"));
    assertFalse(VisualOrder.readsRightToLeft("2024 - 2026"));
  }
}
