package dev.quarry.benchmarks.contender;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.benchmarks.corpus.SourceDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuarryHttpContenderTest {
  private static final SourceDocument SLATE = new SourceDocument("slate", "Slate", "Slate splits into thin sheets.");
  private static final SourceDocument GRANITE = new SourceDocument("granite", null, "Granite is cut in quarries.");

  @TempDir
  Path dir;

  @Test
  void reopenedServer_findsWhatTheBatchIndexed() throws Exception {
    Path index = Files.createDirectories(dir.resolve("index"));
    try (Contender http = ContenderKind.QUARRY_HTTP.open(index)) {
      http.indexBatch(List.of(GRANITE, SLATE));
      assertEquals(List.of("slate"), sources(http.search("slate")));
    }
    // The corpus exists already: opening again must not fail on corpora/create.
    try (Contender http = ContenderKind.QUARRY_HTTP.open(index)) {
      assertEquals(List.of("granite"), sources(http.search("quarry")));
    }
  }

  private static List<String> sources(List<?> hits) {
    return hits.stream().map(h -> ((JsonNode) h).path("source").asText()).toList();
  }
}
