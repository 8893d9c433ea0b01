package dev.quarry.extractors.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.tika.HtmlFragments;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MarkdownTablesTest {
  @Test
  void pipeTable_isRenderedAsNamedCells_andItsCellsKept() {
    String md =
        "# Fleet\n\nOur ships:\n\n| Name | Port |\n|:-----|----:|\n| Aurora | Bergen |\n| Borealis |  |\n\nAfter.\n";
    RenderedText r = MarkdownTables.render(md);
    assertEquals(
        "# Fleet\n\nOur ships:\n\nName = Aurora; Port = Bergen\n\nName = Borealis\n\nAfter.\n",
        r.text());
    ExtractedTable t = r.tables().get(0);
    assertEquals(
        List.of(List.of("Name", "Port"), List.of("Aurora", "Bergen"), List.of("Borealis", "")),
        t.rows());
    assertEquals(
        "Name = Aurora; Port = Bergen\n\nName = Borealis", r.text().substring(t.start(), t.end()));
    assertEquals(List.of(t.start(), r.text().indexOf("Name = Borealis")), t.rowStarts());
  }

  @Test
  void rowsWithoutOuterPipes_escapedPipes_andRaggedRows_followGfm() {
    RenderedText r = MarkdownTables.render("a | b\n--- | ---\nx \\| y | z | extra\nonly\n");
    assertEquals(
        List.of(List.of("a", "b"), List.of("x | y", "z")),
        r.tables().get(0).rows(),
        "an escaped pipe is text; extra cells are dropped; a line without a pipe ends the table");
    assertEquals("a = x | y; b = z\nonly\n", r.text());
  }

  @Test
  void noDelimiterRow_orInsideFencedCode_isNoTable() {
    String text = "| a | b |\n| c | d |\n\n```\n| a | b |\n|---|---|\n| c | d |\n```\n";
    RenderedText r = MarkdownTables.render(text);
    assertSame(text, r.text());
    assertEquals(List.of(), r.tables());
  }

  @Test
  void delimiterOfAnotherWidth_isNoTable() {
    assertEquals(List.of(), MarkdownTables.render("| a | b |\n|---|\n| c | d |\n").tables());
  }

  private static RenderedText withHtml(String markdown) throws ExtractionException {
    return MarkdownTables.render(markdown, HtmlFragments::render, 1_000_000);
  }

  @Test
  void htmlTable_isReadAsAnHtmlDocumentsTable_spansRepeated_tagsGone() throws Exception {
    String md =
        "## Famous ducks\n\nHere is a table:\n\n<table>\n  <tr><th>Character</th><th>Name in"
            + " German</th></tr>\n  <tr><td rowspan=\"2\">Huey &amp; Dewey</td><td>Tick</td></tr>\n"
            + "  <tr><td>Trick</td></tr>\n</table>\n\nAfter the table.\n";
    RenderedText r = withHtml(md);
    assertEquals(1, r.tables().size(), r.text());
    ExtractedTable t = r.tables().get(0);
    assertEquals(
        List.of(
            List.of("Character", "Name in German"),
            List.of("Huey & Dewey", "Tick"),
            List.of("Huey & Dewey", "Trick")),
        t.rows(),
        "a cell spanning two rows repeats in each; entities decoded");
    assertEquals(
        "Character = Huey & Dewey; Name in German = Tick\n\n"
            + "Character = Huey & Dewey; Name in German = Trick",
        r.text().substring(t.start(), t.end()));
    assertEquals(
        List.of(t.start(), r.text().indexOf("Character = Huey & Dewey; Name in German = Trick")),
        t.rowStarts());
    assertTrue(r.text().startsWith("## Famous ducks\n\nHere is a table:\n\n"), r.text());
    assertTrue(r.text().endsWith("\n\nAfter the table.\n"), r.text());
    assertFalse(r.text().contains("<t"), r.text());
  }

  @Test
  void htmlAndPipeTables_inOneText_keepTheirOrderAndOffsets() throws Exception {
    String md =
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n<TABLE><tr><th>x</th></tr><tr><td>9</td></tr></TABLE>\n";
    RenderedText r = withHtml(md);
    assertEquals(2, r.tables().size());
    assertEquals(
        "a = 1; b = 2", r.text().substring(r.tables().get(0).start(), r.tables().get(0).end()));
    assertEquals("x = 9", r.text().substring(r.tables().get(1).start(), r.tables().get(1).end()));
  }

  @Test
  void htmlTable_inFencedCode_orNotAtALinesStart_orNeverClosed_isLeftAsWritten() throws Exception {
    for (String md :
        List.of(
            "```html\n<table><tr><td>a</td></tr></table>\n```\n",
            "Write <table><tr><td>a</td></tr></table> inline.\n",
            "<table><tr><td>a</td></tr>\n\nno end\n<table><tr><td>b</td></tr></table>\n",
            "    <table><tr><td>indented code</td></tr></table>\n")) {
      RenderedText r = withHtml(md);
      assertEquals(md, r.text());
      assertEquals(List.of(), r.tables(), md);
    }
  }

  @Test
  void htmlTable_renderedPastTheLimit_failsAsTooLarge() {
    StringBuilder md = new StringBuilder("<table><tr><th>Header</th></tr>");
    for (int i = 0; i < 100; i++) {
      md.append("<tr><td>value ").append(i).append("</td></tr>");
    }
    md.append("</table>\n");
    ExtractionException e =
        assertThrows(
            ExtractionException.class,
            () -> MarkdownTables.render(md.toString(), HtmlFragments::render, 500));
    assertEquals(ExtractionException.Failure.DOCUMENT_TOO_LARGE, e.failure());
  }

  @Test
  void nestedHtmlBlocksWithoutATable_areReadOnce() throws Exception {
    StringBuilder md = new StringBuilder();
    int depth = 2_000;
    md.append("<table>\n".repeat(depth)).append("</table>\n".repeat(depth));
    AtomicInteger reads = new AtomicInteger();
    RenderedText r =
        MarkdownTables.render(
            md.toString(),
            (html, maxChars) -> {
              reads.incrementAndGet();
              return HtmlFragments.render(html, maxChars);
            },
            1_000_000);
    assertEquals(1, reads.get(), "a block without a table was read again from a line inside it");
    assertEquals(md.toString(), r.text());
  }
}
