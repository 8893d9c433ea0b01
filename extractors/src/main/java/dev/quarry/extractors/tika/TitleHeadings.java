package dev.quarry.extractors.tika;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;

/**
 * Writes an OpenDocument text's title paragraphs ({@link OdtTitles}) as headings: each paragraph
 * ({@code p}) outside tables is held back until it ends, and when its text is the next title's, it
 * is passed on as a heading of the title's level ({@code h1} for Title, {@code h2} for Subtitle),
 * with the same content; any other paragraph is passed on as it came. Once every title is found,
 * nothing is held back.
 */
final class TitleHeadings extends ContentHandlerDecorator {
  private static final String XHTML = "http://www.w3.org/1999/xhtml";

  private final ArrayDeque<OdtTitles.Title> titles;

  /** The events of the paragraph held back, in order; null when none is. */
  private List<Event> held;

  /** Elements open inside the paragraph held back, the paragraph's own included. */
  private int heldDepth;

  /** Tables open: a paragraph in a table is not a title. */
  private int tables;

  private final StringBuilder heldText = new StringBuilder();

  /** A paragraph with more text than this is no title: passed on as it comes. */
  private final int maxHeldChars;

  TitleHeadings(ContentHandler handler, List<OdtTitles.Title> titles) {
    super(handler);
    this.titles = new ArrayDeque<>(titles);
    this.maxHeldChars = 2 * titles.stream().mapToInt(t -> t.text().length()).max().orElse(0) + 256;
  }

  /** One event held back. */
  private sealed interface Event {}

  private record Start(String uri, String localName, String qName, Attributes atts)
      implements Event {}

  private record End(String uri, String localName, String qName) implements Event {}

  private record Text(String text) implements Event {}

  @Override
  public void startElement(String uri, String localName, String qName, Attributes atts)
      throws SAXException {
    String name = name(localName, qName);
    if (held != null) {
      heldDepth++;
      held.add(new Start(uri, localName, qName, new AttributesImpl(atts)));
      return;
    }
    if ("table".equals(name)) {
      tables++;
    } else if ("p".equals(name) && tables == 0 && !titles.isEmpty()) {
      held = new ArrayList<>();
      heldDepth = 1;
      heldText.setLength(0);
      held.add(new Start(uri, localName, qName, new AttributesImpl(atts)));
      return;
    }
    super.startElement(uri, localName, qName, atts);
  }

  @Override
  public void endElement(String uri, String localName, String qName) throws SAXException {
    if (held != null) {
      held.add(new End(uri, localName, qName));
      if (--heldDepth == 0) {
        release(true);
      }
      return;
    }
    if ("table".equals(name(localName, qName)) && tables > 0) {
      tables--;
    }
    super.endElement(uri, localName, qName);
  }

  @Override
  public void characters(char[] ch, int start, int length) throws SAXException {
    if (held != null) {
      String text = new String(ch, start, length);
      held.add(new Text(text));
      heldText.append(text);
      if (heldText.length() > maxHeldChars) {
        release(false); // the rest of the paragraph passes on as it comes
      }
      return;
    }
    super.characters(ch, start, length);
  }

  @Override
  public void endDocument() throws SAXException {
    if (held != null) {
      release(false); // a paragraph the document never closed: passed on as it came
    }
    super.endDocument();
  }

  /**
   * Passes the paragraph held back on: as a heading when it has {@code ended} and is the next
   * title.
   */
  private void release(boolean ended) throws SAXException {
    List<Event> events = held;
    held = null;
    OdtTitles.Title next = titles.peek();
    boolean title = ended && next != null && next.text().equals(OdtTitles.squash(heldText));
    if (title) {
      titles.poll();
    }
    for (int i = 0; i < events.size(); i++) {
      boolean outer = i == 0 || i == events.size() - 1;
      switch (events.get(i)) {
        case Start s when title && outer -> {
          String h = "h" + next.level();
          super.startElement(XHTML, h, h, new AttributesImpl());
        }
        case End e when title && outer -> {
          String h = "h" + next.level();
          super.endElement(XHTML, h, h);
        }
        case Start s -> super.startElement(s.uri(), s.localName(), s.qName(), s.atts());
        case End e -> super.endElement(e.uri(), e.localName(), e.qName());
        case Text t -> super.characters(t.text().toCharArray(), 0, t.text().length());
      }
    }
  }

  private static String name(String localName, String qName) {
    return (localName.isEmpty() ? qName : localName).toLowerCase(Locale.ROOT);
  }
}
