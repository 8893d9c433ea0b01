package dev.quarry.benchmarks.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlCorpusTest {
  @TempDir Path dir;

  @Test
  void load_acceptsIdOrUnderscoreId_andAnOptionalTitle() throws Exception {
    Path file =
        write(
            """
        {"id": "a", "title": "Alpha", "text": "first text"}

        {"_id": "b", "text": "second text"}
        """);
    JsonlCorpus corpus = JsonlCorpus.load(file);
    assertEquals(2, corpus.size());
    assertEquals(new SourceDocument("a", "Alpha", "first text"), corpus.document(0));
    assertEquals("b", corpus.document(1).id());
    assertNull(corpus.document(1).title());
  }

  @Test
  void document_pastTheEnd_repeatsUnderNewIds() throws Exception {
    JsonlCorpus corpus =
        JsonlCorpus.load(
            write("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\", \"text\": \"y\"}\n"));
    assertEquals(new SourceDocument("a#2", null, "x"), corpus.document(2));
    assertEquals("b#3", corpus.document(5).id());
  }

  @Test
  void load_lineWithoutText_isRefusedNamingTheLine() throws Exception {
    Path file = write("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\"}\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JsonlCorpus.load(file));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }

  @Test
  void load_sharedSciFactCorpus_readsEveryDocument() throws Exception {
    String shared = System.getProperty("quarry.shared.dir");
    Path file = shared == null ? null : Path.of(shared, "data", "eval", "scifact", "corpus.jsonl");
    assumeTrue(
        file != null && Files.isReadable(file),
        "shared SciFact corpus absent; set quarry.shared.dir");
    JsonlCorpus corpus = JsonlCorpus.load(file);
    assertEquals(
        Files.readAllLines(file).stream().filter(l -> !l.isBlank()).count(), corpus.size());
  }

  private Path write(String content) throws Exception {
    return Files.writeString(dir.resolve("corpus.jsonl"), content);
  }
}
