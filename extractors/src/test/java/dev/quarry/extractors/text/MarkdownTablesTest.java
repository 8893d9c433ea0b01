package dev.quarry.extractors.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.quarry.extractors.ExtractedTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownTablesTest {
  @Test
  void pipeTable_isRenderedAsNamedCells_andItsCellsKept() {
    String md =
        "# Fleet\n\nOur ships:\n\n| Name | Port |\n|:-----|----:|\n| Aurora | Bergen |\n| Borealis |  |\n\nAfter.\n";
    MarkdownTables.Rendered r = MarkdownTables.render(md);
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
    MarkdownTables.Rendered r =
        MarkdownTables.render("a | b\n--- | ---\nx \\| y | z | extra\nonly\n");
    assertEquals(
        List.of(List.of("a", "b"), List.of("x | y", "z")),
        r.tables().get(0).rows(),
        "an escaped pipe is text; extra cells are dropped; a line without a pipe ends the table");
    assertEquals("a = x | y; b = z\nonly\n", r.text());
  }

  @Test
  void noDelimiterRow_orInsideFencedCode_isNoTable() {
    String text = "| a | b |\n| c | d |\n\n```\n| a | b |\n|---|---|\n| c | d |\n```\n";
    MarkdownTables.Rendered r = MarkdownTables.render(text);
    assertSame(text, r.text());
    assertEquals(List.of(), r.tables());
  }

  @Test
  void delimiterOfAnotherWidth_isNoTable() {
    assertEquals(List.of(), MarkdownTables.render("| a | b |\n|---|\n| c | d |\n").tables());
  }
}
