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
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PDF tables found from the rules drawn on the page, on PDFs the test writes itself. */
class PdfTablesTest {
  private static final List<List<String>> FLEET =
      List.of(
          List.of("Name", "Port", "Tons"),
          List.of("Aurora", "Bergen", "1200"),
          List.of("Borealis", "Tromso", "800"));
  private static final Extractors extractors = TestExtractors.oneWorker();

  @TempDir Path dir;

  /**
   * A page with a paragraph and {@link #FLEET} set in three columns, with the given rules drawn.
   */
  private Path pdf(String name, boolean verticalRules, boolean rowRules) throws IOException {
    return pdf(name, verticalRules, verticalRules, rowRules);
  }

  /** As above; {@code outerRules}: whether the table's left and right sides are ruled too. */
  private Path pdf(String name, boolean innerRules, boolean outerRules, boolean rowRules)
      throws IOException {
    return pdf(name, innerRules, outerRules, rowRules, false);
  }

  /** As above; {@code footerFirst}: a page footer drawn at the bottom before anything else. */
  private Path pdf(
      String name, boolean innerRules, boolean outerRules, boolean rowRules, boolean footerFirst)
      throws IOException {
    return pdf(
        name,
        innerRules,
        outerRules,
        rowRules,
        footerFirst,
        "The fleet of the harbour office, as listed in the register.",
        "The register is kept by the harbour master.");
  }

  /** As above, with the lines {@code above} and {@code below} the table. */
  private Path pdf(
      String name,
      boolean innerRules,
      boolean outerRules,
      boolean rowRules,
      boolean footerFirst,
      String above,
      String below)
      throws IOException {
    Path file = dir.resolve(name);
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
      PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        if (footerFirst) {
          text(content, regular, 72, 40, "Harbour office, page 1 of 1");
        }
        text(content, regular, 72, 720, above);
        float top = 680;
        float[] xs = {72, 222, 372, 522};
        for (int r = 0; r < FLEET.size(); r++) {
          for (int c = 0; c < 3; c++) {
            text(
                content,
                r == 0 ? bold : regular,
                xs[c] + 6,
                top - 20 * r - 15,
                FLEET.get(r).get(c));
          }
        }
        float bottom = top - 20 * FLEET.size();
        for (int r = 0; r <= FLEET.size(); r++) {
          if (rowRules || r == 0 || r == 1 || r == FLEET.size()) {
            content.moveTo(xs[0], top - 20 * r);
            content.lineTo(xs[3], top - 20 * r);
          }
        }
        for (int i = 0; i < xs.length; i++) {
          boolean outer = i == 0 || i == xs.length - 1;
          if (outer ? outerRules : innerRules) {
            content.moveTo(xs[i], top);
            content.lineTo(xs[i], bottom);
          }
        }
        content.stroke();
        text(content, regular, 72, bottom - 30, below);
      }
      document.save(file.toFile());
    }
    return file;
  }

  private static void text(
      PDPageContentStream content, PDType1Font font, float x, float y, String s)
      throws IOException {
    MadeDocuments.showText(content, font, 11, x, y, s);
  }

  @Test
  void ruledGrid_isATable_writtenAsNamedCells() throws Exception {
    Extraction e = extractors.extract(pdf("grid.pdf", true, true), null);
    assertEquals(1, e.tables().size(), e.text());
    ExtractedTable t = e.tables().get(0);
    assertEquals(FLEET, t.rows());
    assertEquals(
        "Name = Aurora; Port = Bergen; Tons = 1200\n\nName = Borealis; Port = Tromso; Tons = 800",
        e.text().substring(t.start(), t.end()));
    assertFalse(
        e.text().contains("# Name"), "a bold header inside a table is no heading: " + e.text());
    assertTrue(e.text().contains("The register is kept by the harbour master."), e.text());
  }

  @Test
  void table_isWrittenWhereItStands_afterTheTextAboveIt() throws Exception {
    // The footer is drawn first and stands below the table: the table still waits for the
    // paragraph above it, and comes before the one below.
    for (boolean footerFirst : new boolean[] {false, true}) {
      Extraction e = extractors.extract(pdf("placed.pdf", true, true, true, footerFirst), null);
      ExtractedTable t = e.tables().get(0);
      String text = e.text();
      assertTrue(
          text.indexOf("as listed in the register.") < t.start()
              && t.end() < text.indexOf("The register is kept by the harbour master."),
          text);
    }
  }

  @Test
  void aWordBrokenAtAHyphenAcrossTheTable_isJoined_andTheTableFollowsTheLineThatEndsIt()
      throws Exception {
    Extraction e =
        extractors.extract(
            pdf(
                "hyphen.pdf",
                true,
                true,
                true,
                false,
                "The fleet of the harbour office, as listed in the regis-",
                "ter kept by the harbour master."),
            null);
    ExtractedTable t = e.tables().get(0);
    String text = e.text();
    assertTrue(text.contains("listed in the register kept by the harbour master."), text);
    assertTrue(text.indexOf("harbour master.") < t.start(), text);
    assertEquals(FLEET, t.rows());
  }

  @Test
  void gridOpenAtItsSides_keepsItsOuterColumns() throws Exception {
    Extraction e = extractors.extract(pdf("open.pdf", true, false, true), null);
    assertEquals(List.of(FLEET), e.tables().stream().map(ExtractedTable::rows).toList(), e.text());
  }

  @Test
  void rulesAcrossOnly_withColumnsApart_isATable() throws Exception {
    Extraction e = extractors.extract(pdf("booktabs.pdf", false, false), null);
    assertEquals(List.of(FLEET), e.tables().stream().map(ExtractedTable::rows).toList(), e.text());
  }

  @Test
  void textWithoutRules_staysText() throws Exception {
    Path file =
        MadeDocuments.pdf(
            dir.resolve("plain.pdf"), List.of(List.of("Name Port Tons", "Aurora Bergen 1200")));
    assertEquals(List.of(), extractors.extract(file, null).tables());
  }
}
