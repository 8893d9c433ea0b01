package dev.quarry.extractors.tika;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.ParserConfigurationException;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The charts of an OOXML package (a presentation's, a workbook's or a document's {@code
 * charts/chartN.xml} parts) as tables: a chart keeps a copy of the figures it draws (its cache),
 * and in a presentation or a document that copy is the only place the figures are written.
 *
 * <p>A chart's table has a column of categories (a bar's label, a scatter point's x value; the
 * point's number from 1 when the chart has none) under an empty header, then a column per series
 * headed by the series' name, a row per point: {@code 2019; Freshwater Ducks = 120; Saltwater Ducks
 * = 80}, as Docling reads charts. Every kind of plot of the 2006 chart schema is read the same way
 * (their series share one shape); the newer chart kinds ({@code chartEx} parts: treemaps,
 * waterfalls) are not.
 *
 * <p>Tika writes the same cache as one run of values apart by tabs ({@link ChartTextTables} puts
 * the table in its place): {@link Chart#values} is that run, every {@code c:v} of the part in
 * order. Bounded: a chart of more than {@value #MAX_POINTS} points, {@value
 * TableCollector#MAX_COLUMNS} series or {@value #MAX_CELLS} cells gives no table, and a package
 * whose charts' values pass {@code maxChars} characters or whose tables pass {@value
 * #MAX_PACKAGE_CELLS} cells gives none. A package or chart that cannot be read gives none either
 * (its values stay the text Tika writes).
 */
final class OoxmlCharts {
  static final int MAX_POINTS = 10_000;

  /**
   * The most cells of one chart's table (points times series, each point of each series, written or
   * not) and of all of a package's: a few values far apart would otherwise ask for a table of
   * millions of empty cells.
   */
  static final int MAX_CELLS = 100_000;

  static final int MAX_PACKAGE_CELLS = 1_000_000;

  private static final String CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart";
  private static final Pattern CHART_PART =
      Pattern.compile("(?:ppt|xl|word)/charts/chart[^/]*\\.xml");

  /** Where a series' points lie: the categories (or x values), or the values (or y values). */
  private static final Set<String> CATEGORY_ELEMENTS = Set.of("cat", "xVal");

  private static final Set<String> VALUE_ELEMENTS = Set.of("val", "yVal");

  private OoxmlCharts() {}

  /**
   * One chart.
   *
   * @param values every value of its cache in the part's order (series names, categories, values)
   * @param rows its table, header first
   */
  record Chart(List<String> values, List<List<String>> rows) {}

  /** The charts of {@code file} with a table, in the order of their parts' names; empty if none. */
  static List<Chart> read(Path file, long maxChars) {
    List<Chart> charts = new ArrayList<>();
    long chars = 0;
    long cells = 0;
    try (ZipFile zip = new ZipFile(file.toFile())) {
      TreeMap<String, ZipEntry> parts = new TreeMap<>();
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        if (CHART_PART.matcher(entry.getName()).matches()) {
          parts.put(entry.getName(), entry);
        }
      }
      for (ZipEntry part : parts.values()) {
        ChartReader reader = new ChartReader();
        try (InputStream in = zip.getInputStream(part)) {
          ZipXmlText.secureParser().parse(in, reader);
        } catch (SAXException | IOException e) {
          continue; // a damaged chart: its values stay Tika's text
        }
        Chart chart = reader.chart();
        if (chart == null) {
          continue;
        }
        for (String v : chart.values()) {
          chars += v.length();
        }
        cells += (long) chart.rows().size() * chart.rows().get(0).size();
        if (chars > maxChars || cells > MAX_PACKAGE_CELLS) {
          return List.of();
        }
        charts.add(chart);
      }
    } catch (IOException | ParserConfigurationException | RuntimeException e) {
      return List.of();
    }
    return charts;
  }

  /** The parts of a series whose values are read: its name, its categories, its values. */
  private enum Part {
    NAME,
    CATEGORIES,
    VALUES
  }

  /** One series: its name and its points by index. */
  private static final class Series {
    String name = "";
    final TreeMap<Integer, String> categories = new TreeMap<>();
    final TreeMap<Integer, String> values = new TreeMap<>();
  }

  /** Reads one chart part: its values in order and its series. */
  private static final class ChartReader extends DefaultHandler {
    private final List<String> values = new ArrayList<>();
    private final List<Series> series = new ArrayList<>();
    private Series current;

    /** Elements open, the open series' element's depth, and its open part's. */
    private int depth;

    private int seriesDepth = -1;
    private int partDepth = -1;

    /** The open series' part ({@code tx}, {@code cat}/{@code xVal}, {@code val}/{@code yVal}). */
    private Part part;

    /** The open point's index, or -1 outside a point (a series name's {@code c:v} has none). */
    private int point = -1;

    /** Within a multi-level category, the level open (only the first is kept). */
    private int level;

    private StringBuilder text;
    private boolean tooLarge;

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) {
      depth++;
      if (!CHART.equals(uri)) {
        return;
      }
      if ("ser".equals(localName)) {
        current = new Series();
        series.add(current);
        seriesDepth = depth;
        part = null;
      } else if (current != null && depth == seriesDepth + 1) {
        // a series' own parts only: a data label's text inside it is not its name
        part =
            "tx".equals(localName)
                ? Part.NAME
                : CATEGORY_ELEMENTS.contains(localName)
                    ? Part.CATEGORIES
                    : VALUE_ELEMENTS.contains(localName) ? Part.VALUES : null;
        partDepth = part == null ? -1 : depth;
        level = 0;
      } else if ("lvl".equals(localName)) {
        level++;
      } else if ("pt".equals(localName)) {
        point = index(atts.getValue("idx"));
      } else if ("v".equals(localName)) {
        text = new StringBuilder();
      }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      if (text != null) {
        text.append(ch, start, length);
      }
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
      if (CHART.equals(uri)) {
        if ("v".equals(localName) && text != null) {
          String value = text.toString().strip();
          text = null;
          values.add(value);
          record(value);
        } else if ("pt".equals(localName)) {
          point = -1;
        } else if ("ser".equals(localName) && depth == seriesDepth) {
          current = null;
        } else if (depth == partDepth) {
          part = null;
          partDepth = -1;
        }
      }
      depth--;
    }

    private void record(String value) {
      if (current == null || part == null) {
        return;
      }
      if (point > MAX_POINTS || series.size() > TableCollector.MAX_COLUMNS) {
        tooLarge = true;
        return;
      }
      switch (part) {
        case NAME -> current.name = value;
        case CATEGORIES -> {
          if (point >= 0 && level <= 1) {
            current.categories.putIfAbsent(point, value);
          }
        }
        case VALUES -> {
          if (point >= 0) {
            current.values.put(point, value);
          }
        }
      }
    }

    private static int index(String idx) {
      try {
        return idx == null ? -1 : Integer.parseInt(idx.strip());
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    /** The chart read, or null when it has no series with values or is too large. */
    Chart chart() {
      if (tooLarge) {
        return null;
      }
      List<Series> drawn = series.stream().filter(s -> !s.values.isEmpty()).toList();
      if (drawn.isEmpty()) {
        return null;
      }
      // Categories are the first series' that has any; a point without one is numbered from 1.
      TreeMap<Integer, String> categories =
          drawn.stream()
              .map(s -> s.categories)
              .filter(c -> !c.isEmpty())
              .findFirst()
              .orElse(new TreeMap<>());
      int points = 0;
      for (Series s : drawn) {
        points = Math.max(points, s.values.lastKey() + 1);
      }
      if (!categories.isEmpty()) {
        points = Math.max(points, categories.lastKey() + 1);
      }
      if ((long) (points + 1) * (drawn.size() + 1) > MAX_CELLS) {
        return null;
      }
      List<List<String>> rows = new ArrayList<>(points + 1);
      List<String> header = new ArrayList<>(drawn.size() + 1);
      header.add("");
      drawn.forEach(s -> header.add(s.name));
      rows.add(header);
      for (int p = 0; p < points; p++) {
        List<String> row = new ArrayList<>(drawn.size() + 1);
        row.add(categories.getOrDefault(p, Integer.toString(p + 1)));
        for (Series s : drawn) {
          row.add(s.values.getOrDefault(p, ""));
        }
        rows.add(row);
      }
      return new Chart(List.copyOf(values), rows);
    }
  }
}
