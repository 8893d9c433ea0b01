package dev.quarry.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.benchmarks.Harness;
import dev.quarry.benchmarks.contender.JsonHttp;
import dev.quarry.benchmarks.report.ResultSet;
import dev.quarry.benchmarks.report.ResultsPage;
import dev.quarry.benchmarks.report.Target;
import dev.quarry.testing.OpenSearchNodes;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the cluster benchmark at tiny sizes against a real single OpenSearch node (started from the
 * project's {@code opensearch-plugin/} launcher; the test skips, saying so, when it is not built),
 * so it cannot rot: every row is measured, lands in the result set the report command reads, and
 * fills the results page's cluster targets; nothing of the run stays on the node. Figures are never
 * asserted on beyond being measured.
 */
class ClusterBenchmarkSmokeIT {
  private static final List<String> CLUSTER_TARGETS =
      List.of(
          "cluster store bulk ingest / OpenSearch `_bulk?refresh=wait_for`, batches of 100",
          "cluster store search p50 / a plain `match` query, same cluster",
          "cluster store search p99 / a plain `match` query, same cluster",
          "cluster store bulk ingest, two fronts / one front, a corpus per front");

  @Test
  void smokeProfile_measuresEveryRowAndFillsTheClusterTargets(@TempDir Path dir) throws Exception {
    OpenSearchNodes node = OpenSearchNodes.single();
    String url = node.urls().get(0).toString();
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

    ResultSet result =
        new ClusterBenchmark(ClusterProfile.SMOKE, url, 1, 0, Harness.DEFAULT_SEED, quiet)
            .run("test");

    assertEquals(
        List.of(
            "indexing",
            "search p50",
            "search p99",
            "pinned search p50",
            "pinned search p99",
            "granted search p50",
            "granted search p99",
            "granted search, corpus statistics p50",
            "granted search, corpus statistics p99",
            ClusterBenchmark.FRONTS_MEASURE,
            ClusterBenchmark.FRONTS_MEASURE),
        result.rows().stream().map(ResultSet.Row::measure).toList());
    for (ResultSet.Row row : result.rows()) {
      for (double figure : row.values().values()) {
        assertTrue(figure > 0 && Double.isFinite(figure), "a figure of " + row);
      }
    }
    Path file = dir.resolve("cluster.json");
    result.write(file);
    ResultSet read = ResultSet.read(file);
    for (String name : CLUSTER_TARGETS) {
      Target target =
          Target.ALL.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
      assertTrue(
          read.rows().stream().anyMatch(target::reads), name + " reads no row of " + read.rows());
    }
    String page = new ResultsPage(List.of(read)).render(dir.resolve("charts"), "charts");
    for (String name : CLUSTER_TARGETS) {
      String line =
          page.lines().filter(l -> l.startsWith("| " + name + " |")).findFirst().orElseThrow();
      assertFalse(line.contains("not measured yet"), line);
    }
    assertTrue(
        ClusterBenchmark.toMarkdown(read).contains("| " + ClusterBenchmark.FRONTS_MEASURE + " |"));

    JsonNode left =
        new JsonHttp(url, null)
            .send("GET", "/_cat/indices/qbench-*?format=json", null, null)
            .json();
    assertEquals(0, left.size(), "indexes the run left on the node: " + left);
  }
}
