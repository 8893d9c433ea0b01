package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.MadeDocuments;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.pagenavigation.PDThread;
import org.apache.pdfbox.pdmodel.interactive.pagenavigation.PDThreadBead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headings inferred from how a real PDF (written here with PDFBox, no outline) sets its lines: the
 * Markdown heading lines the extraction holds are what the chunker gives each passage as its
 * section.
 */
class PdfStyleHeadingsTest {
  static final PDFont REGULAR = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
  static final PDFont BOLD = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
  static final String BODY = "The review covers the year and the work done in it by the team.";

  @TempDir Path dir;

  @Test
  void headingsFromStyles_aSlightlyLargerLine_aNumberDrawnLeftOfItsTitle_butNoBoldParagraph()
      throws IOException, ExtractionException {
    Path file = dir.resolve("review.pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        float y = 740;
        y = line(content, BOLD, 20, 72, y, "Annual Review");
        for (int i = 0; i < 3; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
        // One point over an 11 pt body: under the 15% of a larger heading, alone on its line.
        y = line(content, REGULAR, 12, 72, y, "(1) Scope of the review");
        for (int i = 0; i < 3; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
        // Four bold lines at body size: a list of names, not a heading.
        for (String name : List.of("Alice Martin", "Bob Stone", "Carol White", "Dan Brown")) {
          y = line(content, BOLD, 11, 72, y, name);
        }
        y = line(content, REGULAR, 11, 72, y, BODY);
        // The title drawn first, then its number on the same baseline to its left.
        content.beginText();
        content.setFont(BOLD, 14);
        content.newLineAtOffset(100, y);
        content.showText("Results");
        content.newLineAtOffset(-28, 0);
        content.showText("2");
        content.endText();
        y -= 21;
        for (int i = 0; i < 3; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
      }
      document.save(file.toFile());
    }

    Extraction extraction = new PdfExtractor().extract(file, ExtractionLimits.defaults());

    assertTrue(extraction.markdownHeadings());
    List<String> headings =
        Arrays.stream(extraction.text().split("\n")).filter(l -> l.startsWith("#")).toList();
    assertEquals(
        List.of("# Annual Review", "### (1) Scope of the review", "## Results 2"),
        headings,
        extraction.text());
    assertFalse(extraction.text().contains("Results2"), "the number is a word of its own");
    assertTrue(
        extraction.text().contains("\nAlice Martin\nBob Stone\n"), "the names stay body text");
  }

  @Test
  void headingsFromStyles_afterLinesOfDrawnSpaces_areFound()
      throws IOException, ExtractionException {
    // A form's top: lines that draw only spaces (a producer's padding) before the first text.
    Path file = dir.resolve("form.pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        float y = 740;
        for (int i = 0; i < 6; i++) {
          y = line(content, REGULAR, 11, 72, y, "      ");
        }
        y = line(content, BOLD, 16, 72, y, "Application for admission");
        for (int i = 0; i < 3; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
        y = line(content, BOLD, 16, 72, y, "Documents to supply");
        for (int i = 0; i < 3; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
      }
      document.save(file.toFile());
    }

    Extraction extraction = new PdfExtractor().extract(file, ExtractionLimits.defaults());

    List<String> headings =
        Arrays.stream(extraction.text().split("\n")).filter(l -> l.startsWith("#")).toList();
    assertEquals(
        List.of("# Application for admission", "# Documents to supply"),
        headings,
        extraction.text());
  }

  @Test
  void aHeadingThatEndsAnArticle_isALineOfItsOwn() throws IOException, ExtractionException {
    // Two article threads (beads), as a magazine or a Redbook sets its pages: the title alone in
    // the first, the body in the second. The title's line ends with its article, not with the
    // body's first line.
    Path file = dir.resolve("articles.pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        line(content, BOLD, 20, 72, 700, "Annual Review");
        float y = 600;
        for (int i = 0; i < 4; i++) {
          y = line(content, REGULAR, 11, 72, y, BODY);
        }
      }
      List<PDThreadBead> beads = new ArrayList<>();
      for (PDRectangle area :
          List.of(new PDRectangle(60, 660, 500, 80), new PDRectangle(60, 400, 500, 220))) {
        PDThread thread = new PDThread();
        PDThreadBead bead = new PDThreadBead();
        bead.setRectangle(area);
        bead.setPage(page);
        bead.setThread(thread);
        thread.setFirstBead(bead);
        beads.add(bead);
        document.getDocumentCatalog().getThreads().add(thread);
      }
      page.setThreadBeads(beads);
      document.save(file.toFile());
    }

    Extraction extraction = new PdfExtractor().extract(file, ExtractionLimits.defaults());

    assertTrue(extraction.text().startsWith("# Annual Review\n"), extraction.text());
  }

  /** Shows {@code text} at ({@code x}, {@code y}); the next line's baseline. */
  private static float line(
      PDPageContentStream content, PDFont font, float size, float x, float y, String text)
      throws IOException {
    MadeDocuments.showText(content, font, size, x, y, text);
    return y - size * 1.5f;
  }
}
