package dev.quarry.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * Draws the results page's charts with JFreeChart and writes them as SVG with JFreeSVG: plain
 * vector drawings that any browser and Markdown viewer shows, with a fixed palette (one colour per
 * contender on every chart) and no date inside, so a chart changes only when its figures do.
 */
public final class Charts {
  static final int WIDTH = 720;
  static final int HEIGHT = 400;

  /** One colour per contender, the same on every chart. */
  private static final Map<String, Color> COLOURS =
      Map.of(
          "quarry", new Color(0x1f77b4),
          "lucene", new Color(0x7f7f7f),
          "quarry-http", new Color(0x2ca02c),
          "opensearch", new Color(0xd62728));

  private static final Map<String, String> NAMES =
      Map.of(
          "quarry",
          "Quarry engine",
          "lucene",
          "raw Lucene",
          "quarry-http",
          "Quarry over HTTP",
          "opensearch",
          "OpenSearch over HTTP");

  private Charts() {}

  /** A contender's name as the charts and the page write it. */
  static String name(String contender) {
    return NAMES.getOrDefault(contender, contender);
  }

  /**
   * A line per contender through {@code (x, y)} points, x on a logarithmic axis.
   *
   * @param points per contender (in legend order), its points as {@code {x, y}}
   */
  public static String lines(
      String title,
      String subtitle,
      String xLabel,
      String yLabel,
      Map<String, List<double[]>> points) {
    XYSeriesCollection data = new XYSeriesCollection();
    for (Map.Entry<String, List<double[]>> e : points.entrySet()) {
      XYSeries series = new XYSeries(name(e.getKey()));
      e.getValue().forEach(p -> series.add(p[0], p[1]));
      data.addSeries(series);
    }
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    LogAxis x = new LogAxis(xLabel);
    x.setBase(10);
    x.setSmallestValue(1);
    x.setNumberFormatOverride(new DecimalFormat("#,###"));
    x.setTickUnit(
        new NumberTickUnit(1.0)); // a tick at each power of ten (the unit is in log10 units)
    plot.setDomainAxis(x);
    ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    int i = 0;
    for (String contender : points.keySet()) {
      renderer.setSeriesPaint(i, COLOURS.getOrDefault(contender, Color.BLACK));
      renderer.setSeriesStroke(i, new BasicStroke(2f));
      i++;
    }
    plot.setRenderer(renderer);
    return svg(style(chart, subtitle));
  }

  /**
   * Bars grouped by category, one bar per contender.
   *
   * @param values per contender (in legend order), its value per category (in axis order)
   */
  public static String bars(
      String title, String subtitle, String yLabel, Map<String, Map<String, Double>> values) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (Map.Entry<String, Map<String, Double>> e : values.entrySet()) {
      e.getValue().forEach((category, value) -> data.addValue(value, name(e.getKey()), category));
    }
    JFreeChart chart =
        ChartFactory.createBarChart(
            title, null, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    CategoryPlot plot = chart.getCategoryPlot();
    plot.getDomainAxis().setMaximumCategoryLabelLines(3);
    BarRenderer renderer = (BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setItemMargin(0.05);
    int i = 0;
    for (String contender : values.keySet()) {
      renderer.setSeriesPaint(i++, COLOURS.getOrDefault(contender, Color.BLACK));
    }
    return svg(style(chart, subtitle));
  }

  private static JFreeChart style(JFreeChart chart, String subtitle) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    if (subtitle != null) {
      TextTitle sub = new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      sub.setPaint(Color.DARK_GRAY);
      chart.addSubtitle(sub);
    }
    chart.getPlot().setBackgroundPaint(new Color(0xf7f7f7));
    return chart;
  }

  private static String svg(JFreeChart chart) {
    SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
    // The default prefix of clip and gradient ids holds the clock: a fixed one keeps a redrawn
    // chart's file unchanged.
    g.setDefsKeyPrefix("quarry");
    chart.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
    return g.getSVGDocument();
  }
}
