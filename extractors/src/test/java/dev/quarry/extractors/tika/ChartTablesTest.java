package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.awt.geom.Rectangle2D;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.xddf.usermodel.chart.AxisPosition;
import org.apache.poi.xddf.usermodel.chart.ChartTypes;
import org.apache.poi.xddf.usermodel.chart.XDDFCategoryAxis;
import org.apache.poi.xddf.usermodel.chart.XDDFChart;
import org.apache.poi.xddf.usermodel.chart.XDDFChartData;
import org.apache.poi.xddf.usermodel.chart.XDDFDataSourcesFactory;
import org.apache.poi.xddf.usermodel.chart.XDDFValueAxis;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFChart;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xssf.usermodel.XSSFChart;
import org.apache.poi.xssf.usermodel.XSSFClientAnchor;
import org.apache.poi.xssf.usermodel.XSSFDrawing;
import org.apache.poi.xssf.usermodel.XSSFRow;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFChart;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.tika.config.TikaConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.Attributes;
import org.xml.sax.helpers.AttributesImpl;
import org.xml.sax.helpers.DefaultHandler;

/** Charts of presentations, workbooks and documents read as tables ({@link OoxmlCharts}). */
class ChartTablesTest {
  private static final String PPTX =
      "application/vnd.openxmlformats-officedocument.presentationml.presentation";
  private static final String XLSX =
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  private static final String DOCX =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  private static final String[] YEARS = {"2019", "2020", "2021", "2022"};
  private static final Double[] FRESHWATER = {120.0, 130.0, 150.0, 175.0};
  private static final Double[] SALTWATER = {80.0, 95.0, 110.0, 130.0};

  /** The table of the chart {@link #plotDucks} draws, as its cache holds the figures. */
  private static final List<List<String>> DUCKS =
      List.of(
          List.of("", "Freshwater", "Saltwater"),
          List.of("2019", "120.0", "80.0"),
          List.of("2020", "130.0", "95.0"),
          List.of("2021", "150.0", "110.0"),
          List.of("2022", "175.0", "130.0"));

  static TikaExtractor tika;

  @TempDir Path dir;

  @BeforeAll
  static void tika() {
    tika = new TikaExtractor(TikaConfig.getDefaultConfig());
  }

  /** Two series of a bar chart over four years, plotted into {@code chart}. */
  private static void plotDucks(XDDFChart chart) {
    chart.setTitleText("Wild ducks counted");
    XDDFCategoryAxis years = chart.createCategoryAxis(AxisPosition.BOTTOM);
    XDDFValueAxis counts = chart.createValueAxis(AxisPosition.LEFT);
    XDDFChartData data = chart.createData(ChartTypes.BAR, years, counts);
    var categories =
        XDDFDataSourcesFactory.fromArray(
            YEARS, chart.formatRange(new CellRangeAddress(1, 4, 0, 0)), 0);
    data.addSeries(
            categories,
            XDDFDataSourcesFactory.fromArray(
                FRESHWATER, chart.formatRange(new CellRangeAddress(1, 4, 1, 1)), 1))
        .setTitle("Freshwater", null);
    data.addSeries(
            categories,
            XDDFDataSourcesFactory.fromArray(
                SALTWATER, chart.formatRange(new CellRangeAddress(1, 4, 2, 2)), 2))
        .setTitle("Saltwater", null);
    chart.plot(data);
  }

  private Path presentation() throws Exception {
    Path file = dir.resolve("ducks.pptx");
    try (XMLSlideShow show = new XMLSlideShow();
        OutputStream out = Files.newOutputStream(file)) {
      XSLFSlide first = show.createSlide();
      XSLFTextBox title = first.createTextBox();
      title.setText("Survey");
      title.setAnchor(new Rectangle2D.Double(50, 20, 400, 50));
      XSLFSlide second = show.createSlide();
      second.createTextBox().setText("Counts by year");
      XSLFChart chart = show.createChart();
      second.addChart(chart, new Rectangle2D.Double(50, 100, 400, 300));
      plotDucks(chart);
      show.write(out);
    }
    return file;
  }

  @Test
  void aSlidesChart_isATableOnItsSlide_notARunOfFigures() throws Exception {
    Extraction extraction = tika.extract(presentation(), PPTX, ExtractionLimits.defaults());
    assertEquals(1, extraction.tables().size(), extraction.text());
    ExtractedTable table = extraction.tables().get(0);
    assertEquals(DUCKS, table.rows());
    String text = extraction.text();
    assertTrue(text.contains("2019; Freshwater = 120.0; Saltwater = 80.0"), text);
    assertTrue(text.contains("Wild ducks counted"), "the chart's title stays: " + text);
    assertFalse(text.contains("\t"), "no run of figures apart by tabs: " + text);
    assertEquals(2, extraction.pageOf(table.start()), "on the chart's slide");
  }

  @Test
  void aSheetsChart_isATableAfterTheSheetsOwn() throws Exception {
    Path file = dir.resolve("ducks.xlsx");
    try (XSSFWorkbook book = new XSSFWorkbook();
        OutputStream out = Files.newOutputStream(file)) {
      XSSFSheet sheet = book.createSheet("Counts");
      String[] header = {"Year", "Freshwater", "Saltwater"};
      XSSFRow top = sheet.createRow(0);
      for (int c = 0; c < header.length; c++) {
        top.createCell(c).setCellValue(header[c]);
      }
      for (int r = 0; r < YEARS.length; r++) {
        XSSFRow row = sheet.createRow(r + 1);
        row.createCell(0).setCellValue(YEARS[r]);
        row.createCell(1).setCellValue(FRESHWATER[r]);
        row.createCell(2).setCellValue(SALTWATER[r]);
      }
      XSSFDrawing drawing = sheet.createDrawingPatriarch();
      XSSFClientAnchor anchor = drawing.createAnchor(0, 0, 0, 0, 5, 1, 12, 16);
      XSSFChart chart = drawing.createChart(anchor);
      plotDucks(chart);
      book.write(out);
    }
    Extraction extraction = tika.extract(file, XLSX, ExtractionLimits.defaults());
    List<ExtractedTable> tables = extraction.tables();
    assertEquals(2, tables.size(), extraction.text());
    assertEquals("Year", tables.get(0).rows().get(0).get(0), "the sheet's own table first");
    assertEquals(DUCKS, tables.get(1).rows());
    assertFalse(extraction.text().contains("\t"), extraction.text());
  }

  @Test
  void aDocumentsChart_isATableInItsPlace() throws Exception {
    Path file = dir.resolve("ducks.docx");
    try (XWPFDocument document = new XWPFDocument();
        OutputStream out = Files.newOutputStream(file)) {
      document.createParagraph().createRun().setText("Before the chart.");
      XWPFChart chart = document.createChart(5_000_000, 3_000_000);
      plotDucks(chart);
      document.createParagraph().createRun().setText("After the chart.");
      document.write(out);
    }
    Extraction extraction = tika.extract(file, DOCX, ExtractionLimits.defaults());
    assertEquals(1, extraction.tables().size(), extraction.text());
    assertEquals(DUCKS, extraction.tables().get(0).rows());
    String text = extraction.text();
    assertFalse(text.contains("\t"), text);
    assertTrue(text.indexOf("Before") < extraction.tables().get(0).start(), text);
  }

  @Test
  void charts_areReadFromTheirCaches_withEveryValueInTheOrderTikaWritesThem() throws Exception {
    List<OoxmlCharts.Chart> charts = OoxmlCharts.read(presentation(), 1_000_000);
    assertEquals(1, charts.size());
    assertEquals(DUCKS, charts.get(0).rows());
    assertEquals(
        List.of("Freshwater", "2019", "2020", "2021", "2022", "120.0", "130.0", "150.0", "175.0"),
        charts.get(0).values().subList(0, 9),
        "every value of the part in order, as Tika writes them");
    assertEquals(List.of(), OoxmlCharts.read(presentation(), 10), "past the bound: no table");
  }

  @Test
  void bareTextThatIsNoChartsValues_passesOnUnchanged() throws Exception {
    var written = new StringBuilder();
    var tables = new int[1];
    DefaultHandler sink =
        new DefaultHandler() {
          @Override
          public void characters(char[] ch, int start, int length) {
            written.append(ch, start, length);
          }

          @Override
          public void startElement(String uri, String localName, String qName, Attributes atts) {
            if (localName.equals("table")) {
              tables[0]++;
            }
          }
        };
    OoxmlCharts.Chart chart =
        new OoxmlCharts.Chart(List.of("a", "1"), List.of(List.of("", "a"), List.of("1", "1")));
    ChartTextTables handler = new ChartTextTables(sink, List.of(chart));
    var none = new AttributesImpl();
    handler.startElement("", "body", "body", none);
    char[] other = "a\t2\t".toCharArray();
    handler.characters(other, 0, other.length);
    handler.startElement("", "p", "p", none);
    char[] inParagraph = "a\t1\t".toCharArray();
    handler.characters(inParagraph, 0, inParagraph.length);
    handler.endElement("", "p", "p");
    char[] values = "a\t1\t".toCharArray();
    handler.characters(values, 0, values.length);
    handler.startElement("", "p", "p", none);
    handler.endElement("", "p", "p");
    handler.characters(values, 0, values.length); // the chart is used: the second run stays text
    handler.endElement("", "body", "body");
    handler.endDocument();
    assertEquals("a\t2\ta\t1\ta11a\t1\t", written.toString());
    assertEquals(1, tables[0]);
  }

  @Test
  void aLongRunOfBareText_isPassedOnAsItComes_notHeldBack() throws Exception {
    var written = new StringBuilder();
    DefaultHandler sink =
        new DefaultHandler() {
          @Override
          public void characters(char[] ch, int start, int length) {
            written.append(ch, start, length);
          }
        };
    OoxmlCharts.Chart chart =
        new OoxmlCharts.Chart(List.of("a", "1"), List.of(List.of("", "a"), List.of("1", "1")));
    ChartTextTables handler = new ChartTextTables(sink, List.of(chart));
    char[] line = "x\t".repeat(1_000).toCharArray();
    for (int i = 0; i < 100; i++) {
      handler.characters(line, 0, line.length);
    }
    assertTrue(
        written.length() >= 99 * line.length,
        "held back: " + (100 * line.length - written.length()) + " characters");
    handler.endDocument();
    assertEquals(100 * line.length, written.length());
  }

  @Test
  void damagedOrHugeCharts_giveNoTable_andTheOthersStillDo() throws Exception {
    String chart =
        "<c:chartSpace xmlns:c=\"http://schemas.openxmlformats.org/drawingml/2006/chart\">";
    String series =
        "<c:chart><c:plotArea><c:barChart><c:ser><c:tx><c:v>n</c:v></c:tx>"
            + "<c:val><c:numLit><c:pt idx=\"%s\"><c:v>1</c:v></c:pt></c:numLit></c:val>"
            + "</c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>";
    String sparse =
        ("<c:ser><c:val><c:numLit><c:pt idx=\"0\"><c:v>1</c:v></c:pt>"
                + "<c:pt idx=\"9999\"><c:v>2</c:v></c:pt></c:numLit></c:val></c:ser>")
            .repeat(20);
    Path file = dir.resolve("hostile.xlsx");
    try (var zip = new ZipOutputStream(Files.newOutputStream(file))) {
      String[][] parts = {
        {"xl/charts/chart1.xml", chart + "<c:chart><c:plotArea"}, // cut short
        {"xl/charts/chart2.xml", chart + series.formatted("2000000000")}, // a point far out
        {
          "xl/charts/chart3.xml", "<!DOCTYPE x [<!ENTITY e \"e\">]>" + chart + series.formatted("0")
        },
        {"xl/charts/chart4.xml", chart + series.formatted("1")},
        // a few values far apart: a table of 10,000 rows and 21 columns, past the cells bound
        {
          "xl/charts/chart5.xml",
          chart
              + "<c:chart><c:plotArea><c:barChart>"
              + sparse
              + "</c:barChart></c:plotArea></c:chart></c:chartSpace>"
        },
      };
      for (String[] part : parts) {
        zip.putNextEntry(new ZipEntry(part[0]));
        zip.write(part[1].getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    List<OoxmlCharts.Chart> charts = OoxmlCharts.read(file, 1_000_000);
    assertEquals(1, charts.size());
    assertEquals(
        List.of(List.of("", "n"), List.of("1", ""), List.of("2", "1")), charts.get(0).rows());
  }
}
