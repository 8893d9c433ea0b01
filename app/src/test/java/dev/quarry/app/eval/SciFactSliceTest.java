package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.app.cli.EvalCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs {@code quarry eval} end to end on a slice of BEIR's SciFact: the first {@value #QUERIES}
 * queries, their relevant abstracts and the first {@value #DISTRACTORS} other abstracts. Skipped
 * when the shared data folder is absent.
 */
class SciFactSliceTest {
  static final int QUERIES = 30;
  static final int DISTRACTORS = 200;

  @TempDir static Path slice;

  @BeforeAll
  static void writeSlice() throws IOException {
    String shared = System.getProperty("quarry.shared.dir");
    Path scifact = shared == null ? null : Path.of(shared, "data", "eval", "scifact");
    assumeTrue(
        scifact != null && Files.isRegularFile(scifact.resolve("corpus.jsonl")),
        "SciFact is not available (expected data/eval/scifact under the quarry.shared.dir folder); skipping");

    List<String> queryLines =
        Files.readAllLines(scifact.resolve("queries.jsonl")).subList(0, QUERIES);
    ObjectMapper json = new ObjectMapper();
    Set<String> queryIds = new LinkedHashSet<>();
    for (String line : queryLines) {
      queryIds.add(json.readTree(line).get("_id").asText());
    }
    List<String> qrels = new ArrayList<>();
    Set<String> relevant = new LinkedHashSet<>();
    for (String line : Files.readAllLines(scifact.resolve("qrels.tsv"))) {
      String[] cols = line.split("\t");
      if (qrels.isEmpty() || queryIds.contains(cols[0])) {
        qrels.add(line);
        relevant.add(cols[1]);
      }
    }
    List<String> corpus = new ArrayList<>();
    int distractors = 0;
    for (String line : Files.readAllLines(scifact.resolve("corpus.jsonl"))) {
      boolean isRelevant = relevant.contains(json.readTree(line).get("_id").asText());
      if (isRelevant || distractors++ < DISTRACTORS) {
        corpus.add(line);
      }
    }
    Files.write(slice.resolve("corpus.jsonl"), corpus);
    Files.write(slice.resolve("queries.jsonl"), queryLines);
    Files.write(slice.resolve("qrels.tsv"), qrels);
  }

  private static JsonNode eval(String... options) throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        new CommandLine(new EvalCommand())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of(slice.toString(), "--json"));
    args.addAll(List.of(options));
    int exit = cli.execute(args.toArray(String[]::new));
    assertEquals(0, exit, err.toString());
    return new ObjectMapper().readTree(out.toString());
  }

  @Test
  void eval_defaultSettings_ranksRelevantAbstractsFirst() throws IOException {
    JsonNode report = eval();

    assertEquals(QUERIES, report.get("queries").asInt());
    // Quarry's defaults score about 0.88 / 0.97 / 0.88 on this slice; a broken analyzer, title
    // handling, chunking or metric falls below these floors.
    assertTrue(report.get("ndcgAt10").asDouble() >= 0.70, report.toString());
    assertTrue(report.get("recallAt100").asDouble() >= 0.90, report.toString());
    assertTrue(report.get("mrrAt10").asDouble() >= 0.65, report.toString());
  }

  @Test
  void eval_withAModel_reportsSemanticAndHybridFromOneIndex() throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new EvalCommand())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(
                slice.toString(),
                "--json",
                "--model",
                "all-minilm-l6-v2",
                "--mode",
                "semantic,hybrid",
                "--max-words",
                "150",
                "--overlap-words",
                "30");
    assertEquals(0, exit, err.toString());
    List<JsonNode> reports = new ArrayList<>();
    for (String line : out.toString().split("\\R")) {
      if (!line.isBlank()) {
        reports.add(new ObjectMapper().readTree(line));
      }
    }
    assertEquals(2, reports.size(), out.toString());
    assertEquals("semantic", reports.get(0).get("mode").asText());
    assertEquals("hybrid", reports.get(1).get("mode").asText());
    // One index for both modes: the reports share its chunk count and the one time it took.
    assertEquals(reports.get(0).get("chunks"), reports.get(1).get("chunks"));
    assertEquals(reports.get(0).get("indexingMs"), reports.get(1).get("indexingMs"), out::toString);
    JsonNode embedding = reports.get(1).get("settings").get("embedding");
    assertEquals("all-minilm-l6-v2", embedding.get("model").asText());
    assertTrue(embedding.get("sha256").asText().matches("[0-9a-f]{64}"));
    // The smallest model alone and fused with BM25F; a broken pooling, prefix or fusion falls far
    // below these floors on this slice.
    assertTrue(reports.get(0).get("ndcgAt10").asDouble() >= 0.60, reports.get(0).toString());
    assertTrue(reports.get(1).get("ndcgAt10").asDouble() >= 0.75, reports.get(1).toString());
    assertTrue(reports.get(1).get("recallAt100").asDouble() >= 0.90, reports.get(1).toString());
  }

  @Test
  void eval_options_setTheCorpusSettingsAndTheNumberOfQueries() throws IOException {
    JsonNode report =
        eval(
            "--queries",
            "5",
            "--k1",
            "1.2",
            "--b",
            "0.75",
            "--title-weight",
            "3",
            "--max-words",
            "120",
            "--overlap-words",
            "20",
            "--language",
            "standard");

    assertEquals(5, report.get("queries").asInt());
    JsonNode settings = report.get("settings");
    assertEquals("standard", settings.get("language").asText());
    assertEquals(1.2, settings.get("ranking").get("k1").asDouble());
    assertEquals(0.75, settings.get("ranking").get("b").asDouble());
    assertEquals(3.0, settings.get("ranking").get("titleWeight").asDouble());
    assertEquals(120, settings.get("chunking").get("maxWords").asInt());
    assertEquals(20, settings.get("chunking").get("overlapWords").asInt());
  }
}
