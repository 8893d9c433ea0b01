package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hebrew and Arabic printed to PDF by Chromium ({@code right-to-left-chromium.pdf}, printed from
 * the HTML page beside it with {@code chromium --headless --no-pdf-header-footer
 * --print-to-pdf=right-to-left-chromium.pdf right-to-left-chromium.html}; DejaVu Sans, embedded).
 * Chromium draws every line's glyphs from left to right, so the order they are drawn in says
 * nothing of where a line begins; its side of the page and its letters do.
 */
class RightToLeftPdfTest {
  @TempDir Path dir;

  private Extraction extract() throws Exception {
    Path file = dir.resolve("right-to-left-chromium.pdf");
    try (InputStream in = getClass().getResourceAsStream("right-to-left-chromium.pdf")) {
      Files.copy(in, file);
    }
    return new PdfExtractor().extract(file, ExtractionLimits.defaults());
  }

  @Test
  void rightAlignedHeadingsEndingInLatinWords_readFromTheRight() throws Exception {
    String text = extract().text();
    // Drawn "Quarry" first, at the left: the heading still begins with its Hebrew.
    assertTrue(text.contains("# מדריך ההתקנה של Quarry\n"), text);
    assertTrue(text.contains("# تحسين الإنتاجية باستخدام Python\n"), text);
  }

  @Test
  void paragraphs_readInOrder_bracketsAsTyped() throws Exception {
    String text = extract().text();
    assertTrue(
        text.contains(
            "השרת פועל על פורט 8080 ומשתמש ב-Java 21 (או גרסה חדשה יותר). יש להוריד את הקובץ"
                + " ולהריץ אותו."),
        text);
    assertTrue(
        text.contains(
            "تعتبر البرمجة بلغة Python من الأدوات القوية (مثل pandas) التي تعزز الإنتاجية."),
        text);
    // A left-to-right paragraph with a Hebrew word keeps its order.
    assertTrue(text.contains("The English paragraph mentions שלום in passing."), text);
  }

  @Test
  void rightToLeftTable_firstColumnAtTheRight_cellsInReadingOrder() throws Exception {
    Extraction extraction = extract();
    assertEquals(1, extraction.tables().size(), extraction.text());
    List<List<String>> rows = extraction.tables().get(0).rows();
    assertEquals(List.of("רכיב", "גרסה"), rows.get(0));
    assertEquals(List.of("Java", "21"), rows.get(1));
    assertEquals("זיכרון", rows.get(2).get(0));
    // The table sits under the heading above it.
    String text = extraction.text();
    assertTrue(
        text.indexOf("## דרישות") < text.indexOf("רכיב = Java; גרסה = 21")
            && text.indexOf("רכיב = Java; גרסה = 21") < text.indexOf("The English paragraph"),
        text);
  }
}
