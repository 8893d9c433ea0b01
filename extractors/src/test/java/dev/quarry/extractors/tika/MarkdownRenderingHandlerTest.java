package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;

class MarkdownRenderingHandlerTest {

  private static final String XHTML = "http://www.w3.org/1999/xhtml";

  private static void element(
      MarkdownRenderingHandler handler, String name, String cssClass, String text)
      throws SAXException {
    AttributesImpl attributes = new AttributesImpl();
    if (cssClass != null) {
      attributes.addAttribute("", "class", "class", "CDATA", cssClass);
    }
    handler.startElement(XHTML, name, name, attributes);
    if (text != null) {
      handler.characters(text.toCharArray(), 0, text.length());
    }
    handler.endElement(XHTML, name, name);
  }

  @Test
  void headings_becomeAtxLines_separatedFromParagraphs() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    element(handler, "h2", null, "Leave\npolicy");
    element(handler, "p", null, "Staff may take leave.");
    element(handler, "li", null, "one");
    assertEquals("## Leave policy\n\nStaff may take leave.\n\n- one", text.text());
  }

  private static void row(MarkdownRenderingHandler handler, String cell, String... values)
      throws SAXException {
    handler.startElement(XHTML, "tr", "tr", new AttributesImpl());
    for (String v : values) {
      element(handler, cell, null, v);
    }
    handler.endElement(XHTML, "tr", "tr");
  }

  @Test
  void tables_nameEachCellByItsHeader_oneParagraphPerRow() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    element(handler, "p", null, "Before.");
    handler.startElement(XHTML, "table", "table", new AttributesImpl());
    row(handler, "th", "Name", "Born", "");
    row(handler, "td", "Ada  Lovelace", "1815", "poet's daughter");
    row(handler, "td", "Alan", "", "");
    handler.endElement(XHTML, "table", "table");
    element(handler, "p", null, "After.");
    assertEquals(
        "Before.\n\nName = Ada Lovelace; Born = 1815; poet's daughter\n\nName = Alan\n\nAfter.",
        text.text());
    assertEquals(1, handler.tables().size());
    var table = handler.tables().get(0);
    assertEquals(
        List.of(
            List.of("Name", "Born", ""),
            List.of("Ada Lovelace", "1815", "poet's daughter"),
            List.of("Alan", "", "")),
        table.rows());
    assertEquals("Name = Ada Lovelace", text.text().substring(table.start(), table.start() + 19));
    assertEquals("Name = Alan", text.text().substring(table.rowStarts().get(1), table.end()));
  }

  @Test
  void aPackageEntrysName_isNoHeading_butHeadingsInsideIt_are() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    element(handler, "h1", null, "Report");
    handler.startElement(XHTML, "div", "div", attributes("package-entry"));
    element(handler, "h1", null, "image1.png");
    element(handler, "h2", null, "Inside");
    handler.endElement(XHTML, "div", "div");
    assertEquals("# Report\n\nimage1.png\n\n## Inside", text.text());
  }

  @Test
  void mergedCells_repeatTheirValueInEverySlotTheySpan() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    handler.startElement(XHTML, "table", "table", new AttributesImpl());
    handler.startElement(XHTML, "tr", "tr", new AttributesImpl());
    AttributesImpl wide = new AttributesImpl();
    wide.addAttribute("", "colspan", "colspan", "CDATA", "2");
    handler.startElement(XHTML, "th", "th", wide);
    handler.characters("Both".toCharArray(), 0, 4);
    handler.endElement(XHTML, "th", "th");
    handler.endElement(XHTML, "tr", "tr");
    handler.startElement(XHTML, "tr", "tr", new AttributesImpl());
    AttributesImpl tall = new AttributesImpl();
    tall.addAttribute("", "rowspan", "rowspan", "CDATA", "2");
    handler.startElement(XHTML, "td", "td", tall);
    handler.characters("x".toCharArray(), 0, 1);
    handler.endElement(XHTML, "td", "td");
    element(handler, "td", null, "1");
    handler.endElement(XHTML, "tr", "tr");
    row(handler, "td", "2");
    handler.endElement(XHTML, "table", "table");
    assertEquals(
        List.of(List.of("Both", "Both"), List.of("x", "1"), List.of("x", "2")),
        handler.tables().get(0).rows());
  }

  @Test
  void headAndScripts_areLeftOut() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    handler.startElement(XHTML, "head", "head", new AttributesImpl());
    element(handler, "title", null, "Window title");
    handler.endElement(XHTML, "head", "head");
    element(handler, "script", null, "alert(1)");
    element(handler, "p", null, "Body");
    assertEquals("Body", text.text());
  }

  @Test
  void slides_startPages_butNotInsideEmbeddedDocuments() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, true);
    element(handler, "div", "slide-content", "First");
    handler.startElement(XHTML, "div", "div", attributes("embedded"));
    element(handler, "div", "slide-content", "Embedded");
    handler.endElement(XHTML, "div", "div");
    element(handler, "div", "slide-content", "Second");
    assertArrayEquals(new int[] {0, text.text().indexOf("Second")}, text.pageStarts());
  }

  @Test
  void textPastTheBudget_failsWithDocumentTooLarge() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(10, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    MarkdownRenderingHandler.LimitExceededSaxException e =
        assertThrows(
            MarkdownRenderingHandler.LimitExceededSaxException.class,
            () -> element(handler, "p", null, "x".repeat(11)));
    assertEquals(Failure.DOCUMENT_TOO_LARGE, e.failure.failure());
  }

  private static AttributesImpl attributes(String cssClass) {
    AttributesImpl attributes = new AttributesImpl();
    attributes.addAttribute("", "class", "class", "CDATA", cssClass);
    return attributes;
  }

  @Test
  void textThatWouldReadAsAHeadingOrFence_isEscaped_headingsAreNot() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    element(handler, "h1", null, "Results");
    element(handler, "p", null, "# of trials: 12");
    element(handler, "p", null, "```not code");
    handler.startElement(XHTML, "table", "table", new AttributesImpl());
    row(handler, "th", "# layers", "Score");
    row(handler, "td", "6", "0.93");
    handler.endElement(XHTML, "table", "table");
    assertEquals(
        "# Results\n\n\\# of trials: 12\n\n\\```not code\n\n\\# layers = 6; Score = 0.93",
        text.text().strip());
  }

  @Test
  void aListItemsParagraph_staysOnItsMarkersLine() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    handler.startElement(XHTML, "ul", "ul", new AttributesImpl());
    for (String item : new String[] {"Item A", "Item B"}) {
      handler.startElement(XHTML, "li", "li", new AttributesImpl());
      handler.characters(new char[] {'\t'}, 0, 1);
      element(handler, "p", null, item);
      handler.endElement(XHTML, "li", "li");
    }
    handler.endElement(XHTML, "ul", "ul");
    element(handler, "p", null, "After.");
    // A paragraph in each item: a loose list, as Markdown writes one.
    assertEquals("- Item A\n\n- Item B\n\nAfter.", text.text().strip());
  }

  @Test
  void anItemThatOpensWithAList_isNoEmptyItem() throws SAXException {
    PagedTextBuilder text = new PagedTextBuilder(1_000, 10);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false);
    handler.startElement(XHTML, "ul", "ul", new AttributesImpl());
    handler.startElement(XHTML, "li", "li", new AttributesImpl());
    handler.startElement(XHTML, "ul", "ul", new AttributesImpl());
    for (String item : new String[] {"Inner one", "Inner two"}) {
      handler.startElement(XHTML, "li", "li", new AttributesImpl());
      element(handler, "p", null, item);
      handler.endElement(XHTML, "li", "li");
    }
    handler.endElement(XHTML, "ul", "ul");
    handler.endElement(XHTML, "li", "li");
    handler.endElement(XHTML, "ul", "ul");
    assertEquals("- Inner one\n\n- Inner two", text.text().strip());
  }
}
