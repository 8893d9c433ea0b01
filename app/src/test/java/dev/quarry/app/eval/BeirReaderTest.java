package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BeirReaderTest {
  @TempDir Path dir;

  private void write(String file, String... lines) throws IOException {
    Path p = dir.resolve(file);
    Files.createDirectories(p.getParent());
    Files.write(p, List.of(lines));
  }

  @Test
  void read_documentsQueriesAndGradedJudgments() throws IOException {
    write(
        "corpus.jsonl",
        "{\"_id\": \"d1\", \"title\": \"Heat\", \"text\": \"Heat rises.\", \"metadata\": {}}",
        "{\"_id\": \"d2\", \"text\": \"No title here.\"}");
    write(
        "queries.jsonl",
        "{\"_id\": \"q1\", \"text\": \"does heat rise\"}",
        "{\"_id\": \"q2\", \"text\": \"unjudged\"}");
    write("qrels.tsv", "query-id\tcorpus-id\tscore", "q1\td1\t2", "q1\td2\t0");

    BeirCollection c = new BeirReader().read(dir);

    assertEquals(
        List.of(
            new BeirDocument("d1", "Heat", "Heat rises."),
            new BeirDocument("d2", "", "No title here.")),
        c.documents());
    assertEquals(Map.of("d1", 2, "d2", 0), c.judgments().grades("q1"));
    assertEquals(List.of(new BeirQuery("q1", "does heat rise")), c.judgedQueries());
    assertFalse(c.judgments().isJudged("q2"));
  }

  @Test
  void read_fallsBackToBeirTestQrels() throws IOException {
    write("corpus.jsonl", "{\"_id\": \"d1\", \"title\": \"\", \"text\": \"x\"}");
    write("queries.jsonl", "{\"_id\": \"q1\", \"text\": \"x\"}");
    write("qrels/test.tsv", "query-id\tcorpus-id\tscore", "q1\td1\t1");

    assertTrue(new BeirReader().read(dir).judgments().isJudged("q1"));
  }

  @Test
  void read_missingQueriesFile_namesTheFile() throws IOException {
    write("corpus.jsonl", "{\"_id\": \"d1\", \"text\": \"x\"}");
    write("qrels.tsv", "query-id\tcorpus-id\tscore");

    var e = assertThrows(IllegalArgumentException.class, () -> new BeirReader().read(dir));
    assertTrue(e.getMessage().contains("queries.jsonl"), e.getMessage());
  }

  @Test
  void read_malformedLine_namesFileAndLine() throws IOException {
    write("corpus.jsonl", "{\"_id\": \"d1\", \"text\": \"x\"}", "{not json");
    write("queries.jsonl", "{\"_id\": \"q1\", \"text\": \"x\"}");
    write("qrels.tsv", "query-id\tcorpus-id\tscore");

    var e = assertThrows(IllegalArgumentException.class, () -> new BeirReader().read(dir));
    assertTrue(e.getMessage().contains("corpus.jsonl:2"), e.getMessage());
  }

  @Test
  void read_nonIntegerScore_isRejected() throws IOException {
    write("corpus.jsonl", "{\"_id\": \"d1\", \"text\": \"x\"}");
    write("queries.jsonl", "{\"_id\": \"q1\", \"text\": \"x\"}");
    write("qrels.tsv", "query-id\tcorpus-id\tscore", "q1\td1\thigh");

    var e = assertThrows(IllegalArgumentException.class, () -> new BeirReader().read(dir));
    assertTrue(e.getMessage().contains("qrels.tsv:2"), e.getMessage());
  }
}
