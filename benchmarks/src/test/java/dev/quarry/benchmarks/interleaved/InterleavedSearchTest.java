package dev.quarry.benchmarks.interleaved;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.report.ResultSet;
import dev.quarry.benchmarks.report.ResultsPage;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the interleaved search comparison on a tiny corpus laid out as SciFact is (a {@code scifact}
 * folder with {@code corpus.jsonl} and {@code queries.jsonl}), so it cannot rot: every contender is
 * measured, the result set round-trips through JSON and fills the results page's SciFact engine
 * row. Figures are never asserted on beyond being measured.
 */
class InterleavedSearchTest {
  private static final String TARGET =
      "engine search p50 / raw Lucene, SciFact's own claims, CPU time per search"
          + " (interleaved)";

  @Test
  void selfCheck_measuresEveryContender_andFillsTheSciFactEngineRow(@TempDir Path dir)
      throws Exception {
    Path data = Files.createDirectories(dir.resolve("scifact"));
    StringBuilder corpus = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      corpus
          .append("{\"_id\": \"d")
          .append(i)
          .append("\", \"title\": \"Study ")
          .append(i)
          .append("\", \"text\": \"Vitamin D and bone density in trial ")
          .append(i)
          .append(" patients with low calcium intake over ")
          .append(i + 2)
          .append(" years.\"}\n");
    }
    Files.writeString(data.resolve("corpus.jsonl"), corpus);
    Files.writeString(
        data.resolve("queries.jsonl"),
        """
        {"_id": "1", "text": "vitamin D improves bone density"}
        {"_id": "2", "text": "calcium intake in patients"}
        {"_id": "3", "text": "unrelated words nowhere"}
        """);
    Path workspace = Files.createDirectories(dir.resolve("work"));
    String before = System.getProperty(Workspace.PROPERTY);

    ResultSet result =
        new InterleavedSearch(
                Corpus.JSONL_PREFIX + data.resolve("corpus.jsonl"),
                QueryFile.JSONL_PREFIX + data.resolve("queries.jsonl"),
                1,
                2,
                true,
                null,
                null,
                workspace,
                new PrintStream(OutputStream.nullOutputStream()))
            .run("test");

    assertEquals(
        before, System.getProperty(Workspace.PROPERTY), "the workspace property is restored");
    assertEquals(
        List.of("search p50", "search p99", "search p50", "search p99", "allocation per search"),
        result.rows().stream().map(ResultSet.Row::measure).toList());
    assertTrue(
        result.rows().get(0).conditions().endsWith(InterleavedSearch.CPU_CONDITIONS),
        result.rows().get(0).conditions());
    assertTrue(result.rows().get(2).conditions().endsWith(InterleavedSearch.WALL_CONDITIONS));
    for (ResultSet.Row row : result.rows()) {
      assertEquals(
          Set.of("quarry", "lucene", InterleavedSearch.SELF_CHECK),
          row.values().keySet(),
          row.toString());
      for (double figure : row.values().values()) {
        assertTrue(figure > 0 && Double.isFinite(figure), "a figure of " + row);
      }
    }
    assertTrue(
        result.notes().stream().anyMatch(n -> n.startsWith("self-check: ")),
        result.notes().toString());
    assertFalse(
        result.run().contains(dir.toString()),
        "the run names files by their folder only: " + result.run());

    Path file = dir.resolve("interleaved.json");
    result.write(file);
    String page =
        new ResultsPage(List.of(ResultSet.read(file))).render(dir.resolve("charts"), "charts");
    String line =
        page.lines().filter(l -> l.startsWith("| " + TARGET + " |")).findFirst().orElseThrow();
    assertFalse(line.contains("not measured yet"), line);
    assertTrue(line.contains("(1 thread)"), line);
  }

  @Test
  void generatedText_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new InterleavedSearch(
                Corpus.GENERATED,
                QueryFile.GENERATED,
                1,
                1,
                false,
                null,
                null,
                Path.of("."),
                System.out));
  }

  @Test
  void quarryServerWithoutOpenSearch_isRefused(@TempDir Path dir) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new InterleavedSearch(
                    Corpus.JSONL_PREFIX + dir.resolve("corpus.jsonl"),
                    QueryFile.JSONL_PREFIX + dir.resolve("queries.jsonl"),
                    1,
                    1,
                    false,
                    null,
                    "http://127.0.0.1:8097",
                    dir,
                    System.out));
    assertTrue(e.getMessage().contains("--quarry-server"), e.getMessage());
  }
}
