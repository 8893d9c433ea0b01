package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.text.PagedTextBuilder;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;

class MarkdownRenderingHandlerTest {

  private static final String XHTML = "http://www.w3.org/1999/xhtml";

  private static void element(MarkdownRenderingHandler handler, String name, String cssClass, String text)
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
    MarkdownRenderingHandler.LimitExceededSaxException e = assertThrows(
        MarkdownRenderingHandler.LimitExceededSaxException.class, () -> element(handler, "p", null, "x".repeat(11)));
    assertEquals(Failure.DOCUMENT_TOO_LARGE, e.failure.failure());
  }

  private static AttributesImpl attributes(String cssClass) {
    AttributesImpl attributes = new AttributesImpl();
    attributes.addAttribute("", "class", "class", "CDATA", cssClass);
    return attributes;
  }
}
