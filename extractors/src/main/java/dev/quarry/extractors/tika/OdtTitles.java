package dev.quarry.extractors.tika;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The paragraphs of an OpenDocument text set in its Title or Subtitle style (or a style derived
 * from one), in order: a document's title is a paragraph style in Writer, not a heading ({@code
 * text:h}), so Tika writes it as a plain paragraph and the passages below it would not have it
 * above them ({@link TitleHeadings} makes them headings, as Docling reads them).
 *
 * <p>A style's parents are followed through the automatic styles of {@code content.xml} and the
 * styles of {@code styles.xml}, at most {@value #MAX_PARENTS} steps. Paragraphs inside tables,
 * frames and notes are not titles. A package that cannot be read has none.
 */
final class OdtTitles {
  static final int MAX_PARENTS = 16;

  /** At most this many titles are looked for: a document has one or two. */
  static final int MAX_TITLES = 16;

  private OdtTitles() {}

  /** A title paragraph: its heading level (1 for Title, 2 for Subtitle) and its text. */
  record Title(int level, String text) {}

  /** The title paragraphs of {@code file}, in document order; empty when none or unreadable. */
  static List<Title> read(Path file) {
    try {
      Parents parents = new Parents();
      OdfContent.parse(file, "styles.xml", parents);
      Paragraphs paragraphs = new Paragraphs(parents.parentOf);
      // The automatic styles come before the body in content.xml: one pass reads both.
      OdfContent.parse(file, paragraphs);
      return paragraphs.titles;
    } catch (IOException | SAXException | RuntimeException e) {
      return List.of();
    }
  }

  /** Text as titles are compared: runs of whitespace one space, no space at either end. */
  static String squash(CharSequence text) {
    return text.toString().strip().replaceAll("\\s+", " ");
  }

  /** Each paragraph style's parent, from a part's {@code style:style} elements. */
  private static class Parents extends DefaultHandler {
    final Map<String, String> parentOf = new HashMap<>();

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) {
      if (OdfContent.STYLE.equals(uri) && "style".equals(localName)) {
        String name = atts.getValue(OdfContent.STYLE, "name");
        String parent = atts.getValue(OdfContent.STYLE, "parent-style-name");
        if (name != null && parent != null) {
          parentOf.put(name, parent);
        }
      }
    }
  }

  /** The body's paragraphs in a title style, after the automatic styles that name their parents. */
  private static final class Paragraphs extends Parents {
    final List<Title> titles = new ArrayList<>();

    /** Open elements in which a paragraph is not a title (tables, frames, notes). */
    private int inside;

    private int level;
    private StringBuilder text;

    Paragraphs(Map<String, String> stylesParents) {
      parentOf.putAll(stylesParents);
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) {
      super.startElement(uri, localName, qName, atts);
      if (OdfContent.TABLE.equals(uri) && "table".equals(localName)
          || OdfContent.DRAW.equals(uri) && "frame".equals(localName)
          || OdfContent.TEXT.equals(uri) && "note".equals(localName)) {
        inside++;
      } else if (OdfContent.TEXT.equals(uri) && text != null) {
        switch (localName) {
          case "s" -> text.append(' ');
          case "tab" -> text.append('\t');
          case "line-break" -> text.append('\n');
          default -> {}
        }
      } else if (OdfContent.TEXT.equals(uri)
          && "p".equals(localName)
          && inside == 0
          && titles.size() < MAX_TITLES) {
        level = levelOf(atts.getValue(OdfContent.TEXT, "style-name"));
        text = level > 0 ? new StringBuilder() : null;
      }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      if (text != null && inside == 0) {
        text.append(ch, start, length);
      }
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
      if (OdfContent.TABLE.equals(uri) && "table".equals(localName)
          || OdfContent.DRAW.equals(uri) && "frame".equals(localName)
          || OdfContent.TEXT.equals(uri) && "note".equals(localName)) {
        inside--;
      } else if (OdfContent.TEXT.equals(uri) && "p".equals(localName) && text != null) {
        String title = squash(text);
        if (!title.isEmpty()) {
          titles.add(new Title(level, title));
        }
        text = null;
      }
    }

    /** 1 for a style that is or comes from Title, 2 for Subtitle, else 0. */
    private int levelOf(String style) {
      for (int step = 0; style != null && step <= MAX_PARENTS; step++) {
        if (style.equals("Title")) {
          return 1;
        }
        if (style.equals("Subtitle")) {
          return 2;
        }
        style = parentOf.get(style);
      }
      return 0;
    }
  }
}
