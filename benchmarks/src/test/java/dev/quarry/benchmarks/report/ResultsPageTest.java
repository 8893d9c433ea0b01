package dev.quarry.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.ReportCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ResultsPageTest {
  @TempDir Path dir;

  static ResultSet older() {
    return new ResultSet(
        "2026-11-28",
        "2 CPUs, idle",
        "aaaaaaa",
        "`benchmarks.jar full`",
        List.of(),
        List.of(
            row("search p50", "10,000 chunks", 1, "ms", Map.of("quarry", 0.6, "lucene", 0.5)),
            row("search p50", "100,000 chunks", 1, "ms", Map.of("quarry", 0.8, "lucene", 0.7)),
            row(
                "indexing",
                "batches of 100 docs into 0 chunks",
                1,
                "docs/s",
                Map.of("quarry", 500.0, "lucene", 700.0)),
            row(
                "indexing",
                "batches of 100 docs into 0 chunks",
                2,
                "docs/s",
                Map.of("quarry", 650.0, "lucene", 700.0))));
  }

  static ResultSet newer() {
    return new ResultSet(
        "2026-11-29",
        "2 CPUs, load 2",
        "bbbbbbb",
        "`benchmarks.jar compare`",
        List.of("a note"),
        List.of(
            row(
                "search p50",
                "10,000 chunks",
                1,
                "ms",
                Map.of("quarry", 0.5, "lucene", 0.5, "quarry-http", 1.6, "opensearch", 2.0))));
  }

  static ResultSet.Row row(
      String measure, String conditions, int threads, String unit, Map<String, Double> values) {
    return new ResultSet.Row(measure, conditions, threads, unit, values);
  }

  @Test
  void headline_takesEachTargetsLatestFigures_andSaysWhere() {
    String headline = new ResultsPage(List.of(newer(), older())).headline();
    // Search p50 comes from the newer set, 1.00x against a bound of 1.25x.
    assertTrue(
        headline.contains(
            "| engine search p50 / raw Lucene, 10k chunks | <= 1.25x | 1.00x (1 thread) | yes | "
                + "2026-11-29, `bbbbbbb` (2) |"),
        headline);
    // Indexing only the older set has: one ratio per thread count, each judged.
    assertTrue(
        headline.contains(
            "| 0.71x / 0.93x (1 / 2 threads) | **no** / yes | 2026-11-28, `aaaaaaa` (1) |"),
        headline);
    assertTrue(
        headline.contains(
            "| HTTP search p50 / OpenSearch, generated queries, 10k chunks | <= 0.5x | 0.80x "
                + "(1 thread) | **no** |"),
        headline);
    assertTrue(
        headline.contains(
            "| engine search p50 / raw Lucene, SciFact's own claims, CPU time per search (interleaved)"
                + " | <= 1.25x | not measured yet |"),
        headline);
    assertEquals(Target.ALL.size() + 2, headline.strip().split("\n").length);
  }

  @Test
  void charts_areSvgThatParses_onlyWhereThereAreFigures() throws Exception {
    Map<String, String> charts = new ResultsPage(List.of(older(), newer())).charts();
    assertEquals(
        List.of(ResultsPage.SIZE_CHART, ResultsPage.INDEXING_CHART, ResultsPage.HTTP_CHART),
        List.copyOf(charts.keySet()));
    for (Map.Entry<String, String> chart : charts.entrySet()) {
      Document svg = parse(chart.getValue());
      assertEquals("svg", svg.getDocumentElement().getLocalName(), chart.getKey());
      assertTrue(
          chart.getValue().contains("Quarry engine")
              || chart.getValue().contains("Quarry over HTTP"),
          chart.getKey());
    }
    // One set with one size draws no curve.
    assertFalse(new ResultsPage(List.of(newer())).charts().containsKey(ResultsPage.SIZE_CHART));
  }

  @Test
  void charts_areTheSameFileWhenDrawnTwice() {
    assertEquals(
        new ResultsPage(List.of(older(), newer())).charts(),
        new ResultsPage(List.of(older(), newer())).charts());
  }

  @Test
  void reportCommand_replacesOnlyTheResultsPartOfThePage() throws IOException {
    Path results = Files.createDirectories(dir.resolve("results"));
    older().write(results.resolve("a.json"));
    newer().write(results.resolve("b.json"));
    Path page = dir.resolve("docs").resolve("benchmarks.md");
    Files.createDirectories(page.getParent());
    Files.writeString(
        page,
        "# Benchmarks\n\nintro\n\n"
            + ResultsPage.BEGIN
            + "\nstale\n"
            + ResultsPage.END
            + "\n\n## Method\n\nkept\n");
    ReportCommand.write(results, page, dir.resolve("docs").resolve("benchmarks"));
    String written = Files.readString(page, StandardCharsets.UTF_8);
    assertTrue(written.startsWith("# Benchmarks\n\nintro\n\n" + ResultsPage.BEGIN), written);
    assertTrue(written.endsWith(ResultsPage.END + "\n\n## Method\n\nkept\n"), written);
    assertFalse(written.contains("stale"), written);
    assertTrue(
        written.contains(
            "2. 2026-11-29, `bbbbbbb`, 2 CPUs, load 2: `benchmarks.jar compare`; a note\n"),
        written);
    assertTrue(
        written.contains(
            "![search p50 against index size](benchmarks/" + ResultsPage.SIZE_CHART + ")"),
        written);
    assertTrue(
        Files.isRegularFile(
            dir.resolve("docs").resolve("benchmarks").resolve(ResultsPage.SIZE_CHART)));
    // Rendering again changes nothing.
    ReportCommand.write(results, page, dir.resolve("docs").resolve("benchmarks"));
    assertEquals(written, Files.readString(page, StandardCharsets.UTF_8));
  }

  @Test
  void resultSet_roundTripsThroughJson_andRefusesUnknownFields() throws IOException {
    Path file = dir.resolve("set.json");
    newer().write(file);
    assertEquals(newer(), ResultSet.read(file));
    Files.writeString(
        file,
        "{\"date\": \"2026-11-29\", \"machine\": \"m\", \"commit\": \"c\", \"run\": \"r\","
            + " \"rows\": [], \"extra\": 1}");
    IOException e = assertThrows(IOException.class, () -> ResultSet.read(file));
    assertTrue(e.getMessage().contains("extra"), e.getMessage());
  }

  @Test
  void readAll_ordersADaysSetsByTheirNumber_tenAfterNine() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("results"));
    ResultSet ninth = new ResultSet("2026-11-29", "m", "c9", "r", List.of(), newer().rows());
    ResultSet tenth = new ResultSet("2026-11-29", "m", "c10", "r", List.of(), newer().rows());
    tenth.write(folder.resolve("2026-11-29-10-search.json"));
    ninth.write(folder.resolve("2026-11-29-9-search.json"));
    older().write(folder.resolve("2026-11-28-12-full.json"));
    assertEquals(
        List.of("aaaaaaa", "c9", "c10"),
        ResultSet.readAll(folder).stream().map(ResultSet::commit).toList());
  }

  /** The kept result sets of the repository all read. */
  @Test
  void keptResultSets_read() throws IOException {
    Path kept = Path.of("results");
    List<ResultSet> sets = ResultSet.readAll(kept);
    assertFalse(sets.isEmpty());
    sets.forEach(s -> assertFalse(s.rows().isEmpty(), s.date() + " " + s.run()));
  }

  private static Document parse(String xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    // The SVG names the SVG 1.1 DTD; a test reads nothing from the network.
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return factory
        .newDocumentBuilder()
        .parse(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }
}
