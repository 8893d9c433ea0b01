package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestSeed;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The grid answers what PDFBox's duplicate-glyph rule answers, glyph for glyph. */
class OverprintFilterTest {

  /**
   * PDFBox 3's rule from {@code PDFTextStripper.processTextPosition}, kept here as the reference.
   */
  static final class PdfBoxRule {
    private final Map<String, TreeMap<Float, TreeSet<Float>>> characters = new HashMap<>();

    boolean isRepeat(String character, float x, float y, float tolerance) {
      TreeMap<Float, TreeSet<Float>> same =
          characters.computeIfAbsent(character, c -> new TreeMap<>());
      if (x - tolerance < x + tolerance
          && y - tolerance < y + tolerance) { // PDFBox throws on a reversed window
        SortedMap<Float, TreeSet<Float>> xMatches = same.subMap(x - tolerance, x + tolerance);
        for (TreeSet<Float> xMatch : xMatches.values()) {
          SortedSet<Float> yMatches = xMatch.subSet(y - tolerance, y + tolerance);
          if (!yMatches.isEmpty()) {
            return true;
          }
        }
      }
      same.computeIfAbsent(x, k -> new TreeSet<>()).add(y);
      return false;
    }
  }

  @Test
  void fakeBold_secondDrawingIsARepeat_neighbourIsNot() {
    OverprintFilter filter = new OverprintFilter();
    assertFalse(filter.isRepeat("A", 100f, 700f, 2f));
    assertTrue(filter.isRepeat("A", 100.5f, 700.3f, 2f), "drawn again half a unit to the right");
    assertFalse(filter.isRepeat("A", 107f, 700f, 2f), "the next letter A of the line");
    assertFalse(filter.isRepeat("B", 100f, 700f, 2f), "another character at the same place");
    filter.clear();
    assertFalse(filter.isRepeat("A", 100f, 700f, 2f), "a new page remembers nothing");
  }

  @Test
  void window_includesItsLowEdge_excludesItsHighEdge() {
    OverprintFilter filter = new OverprintFilter();
    assertFalse(filter.isRepeat("A", 100f, 700f, 2f));
    assertFalse(filter.isRepeat("A", 98f, 700f, 2f), "x window [96, 100) leaves out 100");
    assertFalse(filter.isRepeat("A", 100f, 698f, 2f), "y window [696, 700) leaves out 700");
    filter.clear();
    assertFalse(filter.isRepeat("A", 100f, 700f, 2f));
    assertTrue(filter.isRepeat("A", 102f, 702f, 2f), "windows [100, 104) hold 100 and 700");
    PdfBoxRule reference = new PdfBoxRule();
    assertFalse(reference.isRepeat("A", 100f, 700f, 2f));
    assertFalse(reference.isRepeat("A", 98f, 700f, 2f));
    assertFalse(reference.isRepeat("A", 100f, 698f, 2f));
  }

  @Test
  @ExtendWith(TestSeed.class)
  void randomGlyphs_sameAnswersAsPdfBox(Random random) {
    for (int page = 0; page < 50; page++) {
      OverprintFilter filter = new OverprintFilter();
      PdfBoxRule reference = new PdfBoxRule();
      for (int i = 0; i < 2_000; i++) {
        String character = String.valueOf((char) ('a' + random.nextInt(4)));
        // Coarse positions so that repeats and cell borders are common; some huge glyphs and odd
        // widths.
        float x = random.nextInt(400) / 4f - 20;
        float y = random.nextInt(400) / 4f - 20;
        float tolerance =
            switch (random.nextInt(10)) {
              case 0 -> 60f + random.nextFloat() * 100;
              case 1 -> 0f;
              case 2 -> Float.POSITIVE_INFINITY;
              case 3 -> Float.NaN;
              default -> random.nextFloat() * 5;
            };
        assertEquals(
            reference.isRepeat(character, x, y, tolerance),
            filter.isRepeat(character, x, y, tolerance),
            TestSeed.replay()
                + ", glyph "
                + i
                + " of page "
                + page
                + ": "
                + character
                + " at "
                + x
                + ","
                + y
                + " tolerance "
                + tolerance);
      }
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void oneFilterClearedBetweenPages_sameAnswersAsPdfBoxOnEveryPage(Random random) {
    OverprintFilter filter = new OverprintFilter();
    for (int page = 0; page < 40; page++) {
      filter.clear();
      PdfBoxRule reference = new PdfBoxRule();
      // Some pages with many distinct characters and glyphs, so the filter's tables grow mid-page.
      int alphabet = page % 3 == 0 ? 300 : 6;
      int glyphs = page % 4 == 0 ? 12_000 : 1_500;
      for (int i = 0; i < glyphs; i++) {
        String character =
            random.nextInt(20) == 0
                ? "ff"
                : String.valueOf((char) ('a' + random.nextInt(alphabet)));
        float x = random.nextInt(2400) / 4f - 20;
        float y = random.nextInt(3200) / 4f - 20;
        float tolerance = random.nextInt(50) == 0 ? 90f : random.nextFloat() * 4;
        assertEquals(
            reference.isRepeat(character, x, y, tolerance),
            filter.isRepeat(character, x, y, tolerance),
            TestSeed.replay()
                + ", glyph "
                + i
                + " of page "
                + page
                + ": "
                + character
                + " at "
                + x
                + ","
                + y
                + " tolerance "
                + tolerance);
      }
    }
  }
}
