package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables of contents, indexes and code lists set with dot leaders and no rules, on PDFs the test
 * writes itself: each entry and what its leader leads to are a row of two cells, the dots no text.
 */
class PdfLeaderTablesTest {
  private static final PDFont REGULAR = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
  private static final PDFont BOLD = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
  private static final float SIZE = 11;
  private static final float RIGHT = 540;
  private static final Extractors extractors = TestExtractors.oneWorker();

  @TempDir Path dir;

  /**
   * Writes {@code lines} top-down; a line ending in {@code " ... N"} gets leaders to N at RIGHT.
   */
  private Path pdf(String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        float y = 720;
        for (String line : lines) {
          if (line.startsWith("# ")) {
            MadeDocuments.showText(content, BOLD, 18, 72, y, line.substring(2));
            y -= 30;
            continue;
          }
          int leader = line.indexOf(" ... ");
          if (leader < 0) {
            MadeDocuments.showText(content, REGULAR, SIZE, 72, y, line);
          } else {
            String entry = line.substring(0, leader);
            String reference = line.substring(leader + 5);
            float entryEnd = 72 + REGULAR.getStringWidth(entry) / 1000 * SIZE;
            float pageStart = RIGHT - REGULAR.getStringWidth(reference) / 1000 * SIZE;
            float dotWidth = REGULAR.getStringWidth(" .") / 1000 * SIZE;
            int dots = (int) ((pageStart - entryEnd - 6) / dotWidth);
            MadeDocuments.showText(content, REGULAR, SIZE, 72, y, entry + " .".repeat(dots));
            MadeDocuments.showText(content, REGULAR, SIZE, pageStart, y, reference);
          }
          y -= 15;
        }
        MadeDocuments.showText(content, REGULAR, 9, 72, 40, "Harbour office report, page iii");
        // A stamp drawn last over the page, between two lines of the first three: text of its
        // own, which a table's box must not swallow.
        MadeDocuments.showText(content, BOLD, 6, 300, 700 - 30 - 15 - 7, "APPROVED COPY");
      }
      document.save(file.toFile());
    }
    return file;
  }

  @Test
  void tableOfContents_isATableOfEntriesAndPages_withoutItsDots() throws Exception {
    Extraction e =
        extractors.extract(
            pdf(
                "contents.pdf",
                List.of(
                    "# Contents",
                    "Preface ... vii",
                    "1 The harbour and its office ... 1",
                    "1.1 Moorings ... 3",
                    "1.2 The register of ships kept by the harbour master for the",
                    "office and the port authority ... 12",
                    "Index ... 5-1")),
            null);
    assertEquals(1, e.tables().size(), e.text());
    ExtractedTable t = e.tables().get(0);
    assertEquals(
        List.of(
            List.of("", ""),
            List.of("Preface", "vii"),
            List.of("1 The harbour and its office", "1"),
            List.of("1.1 Moorings", "3"),
            List.of(
                "1.2 The register of ships kept by the harbour master for the office and the port"
                    + " authority",
                "12"),
            List.of("Index", "5-1")),
        t.rows(),
        "a wrapped entry's first line starts its row");
    // The table names no columns: each row is its cells alone.
    assertTrue(
        e.text().contains("\n\nPreface; vii\n\n1 The harbour and its office; 1\n\n"), e.text());
    assertFalse(e.text().contains(". . ."), e.text());
    assertTrue(e.text().startsWith("# Contents\n"), "the title over the table stays a heading");
    assertTrue(e.text().indexOf("# Contents") < t.start(), e.text());
    assertTrue(e.text().contains("Harbour office report, page iii"), e.text());
    assertTrue(e.text().contains("APPROVED COPY"), "text inside the table's box is kept");
  }

  @Test
  void aFormsNumberedLines_anEllipsis_andTwoLeaderLines_stayText() throws Exception {
    Extraction e =
        extractors.extract(
            pdf(
                "form.pdf",
                List.of(
                    "10 Taxable refunds and credits ... 10",
                    "11 Alimony received ... 11",
                    "12 Business income or loss ... 12",
                    "The harbour master said . . . . That was all.",
                    "Name of the ship . . . . . . . . . . ,",
                    "Preface ... vii",
                    "1 The harbour and its office ... 1")),
            null);
    assertEquals(List.of(), e.tables(), e.text());
    assertTrue(e.text().contains("11 Alimony received . . ."), e.text());
  }
}
