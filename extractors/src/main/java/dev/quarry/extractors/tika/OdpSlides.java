package dev.quarry.extractors.tika;

import static dev.quarry.extractors.tika.OdfContent.DRAW;
import static dev.quarry.extractors.tika.OdfContent.PRESENTATION;
import static dev.quarry.extractors.tika.OdfContent.SVG;
import static dev.quarry.extractors.tika.OdfContent.TABLE;
import static dev.quarry.extractors.tika.OdfContent.TEXT;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;
import org.xml.sax.helpers.DefaultHandler;

/**
 * An OpenDocument presentation's slides, read from its {@code content.xml} and written as the XHTML
 * events of a slide deck, which {@link MarkdownRenderingHandler} renders as it does PowerPoint's.
 * Tika reads an ODP as one run of paragraphs: no slide starts, no titles, and the master pages'
 * placeholders ("Click to edit Master title style") as text. Here each {@code draw:page} is a slide
 * (a page), its title frame ({@code presentation:class="title"}) its heading (a slide without one
 * is headed by its name, {@code Slide3}, as Docling heads it), its text boxes, shapes, lists and
 * tables in document order, and its speaker notes after them; the master pages (in {@code
 * styles.xml}) are not read. A table's cells keep their spans; covered cells are left out, as HTML
 * leaves them.
 */
final class OdpSlides extends DefaultHandler {

  private final ContentHandler out;

  /** For each slide in order, whether it has a title frame (a first reading of the part). */
  private final List<Boolean> titled;

  private int slide = -1;

  /** Inside a slide ({@code draw:page}). */
  private boolean inSlide;

  /** Depth of open title frames: their paragraphs are the slide's heading. */
  private int titleDepth;

  /** Depth of open elements whose text is not the slide's (a shape's alt text, a covered cell). */
  private int skipDepth;

  /** Depth of open paragraphs: characters outside one are the markup's whitespace. */
  private int paragraphDepth;

  private OdpSlides(ContentHandler out, List<Boolean> titled) {
    this.out = out;
    this.titled = titled;
  }

  /**
   * Writes the slides of {@code file} to {@code out}; false, writing nothing, when it has no
   * presentation in its {@code content.xml}.
   */
  static boolean read(Path file, ContentHandler out) throws IOException, SAXException {
    TitleFrames titles = new TitleFrames();
    if (!OdfContent.parse(file, titles) || titles.titled.isEmpty()) {
      return false;
    }
    out.startDocument();
    OdfContent.parse(file, new OdpSlides(out, titles.titled));
    out.endDocument();
    return true;
  }

  @Override
  public void startElement(String uri, String local, String qName, Attributes atts)
      throws SAXException {
    if (skipDepth > 0) {
      skipDepth++;
      return;
    }
    if (DRAW.equals(uri) && local.equals("page")) {
      inSlide = true;
      slide++;
      AttributesImpl page = new AttributesImpl();
      page.addAttribute("", "class", "class", "CDATA", "slide-content");
      start("div", page);
      String name = atts.getValue(DRAW, "name");
      if (!titled.get(slide) && name != null && !name.isBlank()) {
        start("h1", new AttributesImpl());
        out.characters(name.toCharArray(), 0, name.length());
        end("h1");
      }
      return;
    }
    if (!inSlide) {
      return;
    }
    if ((SVG.equals(uri) && (local.equals("title") || local.equals("desc")))
        || (TABLE.equals(uri) && local.equals("covered-table-cell"))) {
      skipDepth = 1;
    } else if (DRAW.equals(uri) && local.equals("frame")) {
      if (titleDepth > 0 || "title".equals(atts.getValue(PRESENTATION, "class"))) {
        titleDepth++;
      }
    } else if (TEXT.equals(uri) && (local.equals("p") || local.equals("h"))) {
      paragraphDepth++;
      start(titleDepth > 0 ? "h1" : "p", new AttributesImpl());
    } else if (TEXT.equals(uri) && local.equals("list")) {
      start("ul", new AttributesImpl());
    } else if (TEXT.equals(uri) && local.equals("list-item")) {
      start("li", new AttributesImpl());
    } else if (TEXT.equals(uri) && local.equals("s")) {
      text(" ");
    } else if (TEXT.equals(uri) && local.equals("tab")) {
      text("\t");
    } else if (TEXT.equals(uri) && local.equals("line-break")) {
      start("br", new AttributesImpl());
      end("br");
    } else if (TABLE.equals(uri) && local.equals("table")) {
      start("table", new AttributesImpl());
    } else if (TABLE.equals(uri) && local.equals("table-row")) {
      start("tr", new AttributesImpl());
    } else if (TABLE.equals(uri) && local.equals("table-cell")) {
      AttributesImpl cell = new AttributesImpl();
      span(cell, "colspan", atts.getValue(TABLE, "number-columns-spanned"));
      span(cell, "rowspan", atts.getValue(TABLE, "number-rows-spanned"));
      start("td", cell);
    }
  }

  @Override
  public void endElement(String uri, String local, String qName) throws SAXException {
    if (skipDepth > 0) {
      skipDepth--;
      return;
    }
    if (DRAW.equals(uri) && local.equals("page")) {
      end("div");
      inSlide = false;
      titleDepth = 0;
      return;
    }
    if (!inSlide) {
      return;
    }
    if (DRAW.equals(uri) && local.equals("frame")) {
      if (titleDepth > 0) {
        titleDepth--;
      }
    } else if (TEXT.equals(uri) && (local.equals("p") || local.equals("h"))) {
      paragraphDepth--;
      end(titleDepth > 0 ? "h1" : "p");
    } else if (TEXT.equals(uri) && local.equals("list")) {
      end("ul");
    } else if (TEXT.equals(uri) && local.equals("list-item")) {
      end("li");
    } else if (TABLE.equals(uri) && local.equals("table")) {
      end("table");
    } else if (TABLE.equals(uri) && local.equals("table-row")) {
      end("tr");
    } else if (TABLE.equals(uri) && local.equals("table-cell")) {
      end("td");
    }
  }

  @Override
  public void characters(char[] ch, int start, int length) throws SAXException {
    if (inSlide && skipDepth == 0 && paragraphDepth > 0) {
      out.characters(ch, start, length);
    }
  }

  private void text(String s) throws SAXException {
    if (inSlide && skipDepth == 0 && paragraphDepth > 0) {
      out.characters(s.toCharArray(), 0, s.length());
    }
  }

  private void start(String name, Attributes atts) throws SAXException {
    OdfContent.start(out, name, atts);
  }

  private void end(String name) throws SAXException {
    OdfContent.end(out, name);
  }

  /** Which slides have a title frame, in order. */
  private static final class TitleFrames extends DefaultHandler {
    final List<Boolean> titled = new ArrayList<>();

    @Override
    public void startElement(String uri, String local, String qName, Attributes atts) {
      if (DRAW.equals(uri) && local.equals("page")) {
        titled.add(false);
      } else if (DRAW.equals(uri)
          && local.equals("frame")
          && !titled.isEmpty()
          && "title".equals(atts.getValue(PRESENTATION, "class"))) {
        titled.set(titled.size() - 1, true);
      }
    }
  }

  private static void span(AttributesImpl cell, String name, String value) {
    if (value != null) {
      cell.addAttribute("", name, name, "CDATA", value);
    }
  }
}
