package dev.quarry.extractors.tika;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;

/**
 * Puts each chart's table ({@link OoxmlCharts}) where Tika writes the chart's values. Tika reads a
 * chart's cache as bare text outside any paragraph (its series names, categories and values in the
 * part's order, each followed by a tab), which reads as one line of figures no one can follow
 * ({@code Freshwater Ducks 2019 2020 2021 2022 120 130 150 175 Saltwater Ducks ...}). Such a run of
 * bare text is held back until the next element; when its values are exactly a chart's (each chart
 * once), the chart's table is written there instead (as an XHTML table, so it becomes a table like
 * any other), and otherwise the text is passed on unchanged. The chart's title and axis titles are
 * paragraphs Tika writes around that run and stay as they are.
 */
final class ChartTextTables extends ContentHandlerDecorator {
  private static final String XHTML = "http://www.w3.org/1999/xhtml";

  /** Elements whose text is not bare. Everything but the page's frame holds text of its own. */
  private static final Set<String> FRAME = Set.of("html", "body", "div");

  /**
   * The tables of the charts not yet written, by their values (blank ones left out): a run of bare
   * text is looked up by its own, so each run costs its length whatever the number of charts.
   */
  private final Map<List<String>, ArrayDeque<List<List<String>>>> unused = new HashMap<>();

  /** Elements open that are not the frame: text is bare when there are none. */
  private int inText;

  private final StringBuilder bare = new StringBuilder();

  /**
   * The most bare text held back: more than any chart's values could be written in (twice their
   * characters, and some), so a long run of other text is passed on as it comes.
   */
  private final long maxHeld;

  /**
   * The bare run now arriving is longer than {@link #maxHeld}: passed on until the next element.
   */
  private boolean passing;

  ChartTextTables(ContentHandler handler, List<OoxmlCharts.Chart> charts) {
    super(handler);
    long most = 0;
    for (OoxmlCharts.Chart chart : charts) {
      unused
          .computeIfAbsent(nonBlank(chart.values().stream()), k -> new ArrayDeque<>())
          .add(chart.rows());
      long chars = 0;
      for (String value : chart.values()) {
        chars += value.length() + 1;
      }
      most = Math.max(most, chars);
    }
    this.maxHeld = 2 * most + 1024;
  }

  @Override
  public void startElement(String uri, String localName, String qName, Attributes atts)
      throws SAXException {
    flush();
    if (!FRAME.contains(name(localName, qName))) {
      inText++;
    }
    super.startElement(uri, localName, qName, atts);
  }

  @Override
  public void endElement(String uri, String localName, String qName) throws SAXException {
    flush();
    if (!FRAME.contains(name(localName, qName)) && inText > 0) {
      inText--;
    }
    super.endElement(uri, localName, qName);
  }

  @Override
  public void characters(char[] ch, int start, int length) throws SAXException {
    if (inText == 0 && !unused.isEmpty() && !passing) {
      bare.append(ch, start, length);
      if (bare.length() > maxHeld) {
        passing = true;
        String text = bare.toString();
        bare.setLength(0);
        super.characters(text.toCharArray(), 0, text.length());
      }
    } else {
      super.characters(ch, start, length);
    }
  }

  @Override
  public void endDocument() throws SAXException {
    flush();
    super.endDocument();
  }

  /** Passes the bare text held back on: as a chart's table when it is one's values. */
  private void flush() throws SAXException {
    passing = false;
    if (bare.isEmpty()) {
      return;
    }
    String text = bare.toString();
    bare.setLength(0);
    List<String> values = text.indexOf('\t') < 0 ? null : nonBlank(Arrays.stream(text.split("\t")));
    ArrayDeque<List<List<String>>> tables =
        values == null || values.isEmpty() ? null : unused.get(values);
    if (tables == null) {
      super.characters(text.toCharArray(), 0, text.length());
      return;
    }
    List<List<String>> rows = tables.poll();
    if (tables.isEmpty()) {
      unused.remove(values);
    }
    writeTable(rows);
  }

  private static List<String> nonBlank(Stream<String> values) {
    return values.map(String::strip).filter(v -> !v.isEmpty()).toList();
  }

  private void writeTable(List<List<String>> rows) throws SAXException {
    start("table");
    for (int r = 0; r < rows.size(); r++) {
      start("tr");
      String cell = r == 0 ? "th" : "td";
      for (String value : rows.get(r)) {
        start(cell);
        super.characters(value.toCharArray(), 0, value.length());
        end(cell);
      }
      end("tr");
    }
    end("table");
  }

  private void start(String name) throws SAXException {
    super.startElement(XHTML, name, name, new AttributesImpl());
  }

  private void end(String name) throws SAXException {
    super.endElement(XHTML, name, name);
  }

  private static String name(String localName, String qName) {
    return (localName.isEmpty() ? qName : localName).toLowerCase(Locale.ROOT);
  }
}
