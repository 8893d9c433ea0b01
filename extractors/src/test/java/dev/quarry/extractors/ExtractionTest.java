package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractionTest {

  private static Extraction paged(String text, int... starts) {
    return new Extraction(
        text,
        starts,
        null,
        List.of(),
        "application/pdf",
        Extraction.PDFBOX,
        starts.length,
        text.length(),
        List.of(),
        false);
  }

  @Test
  void pageOf_offsetInEachPage_isThatPage() {
    Extraction extraction = paged("aaaabbbcc", 0, 4, 7);
    assertEquals(1, extraction.pageOf(0));
    assertEquals(1, extraction.pageOf(3));
    assertEquals(2, extraction.pageOf(4));
    assertEquals(3, extraction.pageOf(8));
  }

  @Test
  void pageOf_emptyPages_lastPageStartingThereWins() {
    Extraction extraction = paged("aabb", 0, 2, 2, 2);
    assertEquals(4, extraction.pageOf(2));
    assertEquals("", extraction.pageText(2));
  }

  @Test
  void pageOf_unpaged_isNull() {
    Extraction extraction =
        new Extraction(
            "text", null, null, null, "text/plain", Extraction.TEXT, null, 4, null, false);
    assertNull(extraction.pageOf(2));
    assertEquals("text", extraction.pageText(1));
  }

  @Test
  void constructor_pageStartsOutOfOrder_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> paged("aaaa", 0, 3, 2));
  }

  @Test
  void constructor_charactersNotTextLength_isRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new Extraction(
                "text", null, null, null, "text/plain", Extraction.TEXT, null, 5, null, false));
  }

  @Test
  void pageStarts_isACopy() {
    Extraction extraction = paged("aabb", 0, 2);
    extraction.pageStarts()[1] = 0;
    assertEquals(2, extraction.pageStarts()[1]);
  }
}
