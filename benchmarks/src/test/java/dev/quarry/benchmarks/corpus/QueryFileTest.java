package dev.quarry.benchmarks.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.benchmarks.extraction.BuildSharedDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryFileTest {
  @TempDir Path dir;

  @Test
  void load_keepsFileOrder_andSkipsBlankLines() throws Exception {
    Path file = dir.resolve("queries.jsonl");
    Files.writeString(
        file,
        """
        {"_id": "2", "text": "0-dimensional biomaterials show inductive properties."}

        {"id": "1", "text": "ALDH1 expression is associated with poorer prognosis", "metadata": {}}
        """);
    assertEquals(
        List.of(
            "0-dimensional biomaterials show inductive properties.",
            "ALDH1 expression is associated with poorer prognosis"),
        QueryFile.load(file));
  }

  @Test
  void load_namesTheLine_thatIsNotJsonOrLacksText() throws Exception {
    Path file = dir.resolve("bad.jsonl");
    Files.writeString(
        file, "{\"_id\": \"1\", \"text\": \"fine\"}\n{\"_id\": \"2\", \"text\": \" \"}\n");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> QueryFile.load(file))
            .getMessage()
            .contains("line 2"));
    Files.writeString(file, "not json\n");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> QueryFile.load(file))
            .getMessage()
            .contains("line 1 is not JSON"));
    Files.writeString(file, "\n");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> QueryFile.load(file))
            .getMessage()
            .contains("no queries"));
  }

  @Test
  void spec_isGeneratedOrAFile() {
    assertFalse(QueryFile.isFile(QueryFile.GENERATED));
    assertTrue(QueryFile.isFile("jsonl:q.jsonl"));
    assertEquals("scifact/queries.jsonl", QueryFile.describe("jsonl:data/scifact/queries.jsonl"));
    assertThrows(IllegalArgumentException.class, () -> QueryFile.path("generated"));
  }

  @Test
  void scifact_isAbsent_withAReasonNamingTheFile() {
    String reason = Scifact.unavailableReason(dir);
    assertNotNull(reason);
    assertTrue(reason.contains("queries.jsonl") || reason.contains("corpus.jsonl"), reason);
  }

  /** SciFact's own 300 claims, when the shared folder holds them. */
  @Test
  void scifactQueries_areTheClaims() throws Exception {
    Path shared = BuildSharedDir.path();
    String unavailable = Scifact.unavailableReason(shared);
    assumeTrue(unavailable == null, () -> "skipped: " + unavailable);
    assertNull(unavailable);
    List<String> claims = QueryFile.load(Scifact.queries(shared));
    assertEquals(300, claims.size());
    double words = claims.stream().mapToInt(q -> q.split("\\s+").length).average().orElseThrow();
    assertTrue(words > 8, "claims are sentences, not keywords: " + words + " words on average");
  }
}
