package dev.quarry.benchmarks.contender;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokensFile;
import dev.quarry.benchmarks.corpus.SourceDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuarryHttpContenderTest {
  private static final SourceDocument SLATE =
      new SourceDocument("slate", "Slate", "Slate splits into thin sheets.");
  private static final SourceDocument GRANITE =
      new SourceDocument("granite", null, "Granite is cut in quarries.");

  @TempDir Path dir;

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

  /**
   * A server given by URL: one corpus per benchmark folder, found again by a later contender for
   * the same folder.
   */
  @Test
  void serverGivenByUrl_keepsOneCorpusPerFolder() throws Exception {
    Path tokens = dir.resolve("tokens.json");
    Files.writeString(
        tokens,
        "{\"tokens\": [{\"subject\": \"bench\", \"token\": \"bench-token-0123456789\","
            + " \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\", \"index\", \"manage\"]}]}]}");
    try (QuarryServer server =
        QuarryServer.start(
            dir.resolve("data"), "127.0.0.1", 0, TokensFile.read(tokens), ServerConfig.DEFAULT)) {
      Path first = dir.resolve("first");
      try (Contender http =
          QuarryHttpContender.connect(first, server.url(), "bench-token-0123456789")) {
        http.indexBatch(List.of(GRANITE, SLATE));
      }
      try (Contender again =
              QuarryHttpContender.connect(first, server.url(), "bench-token-0123456789");
          Contender other =
              QuarryHttpContender.connect(
                  dir.resolve("second"), server.url(), "bench-token-0123456789")) {
        assertEquals(List.of("slate"), sources(again.search("slate")));
        assertEquals(List.of(), sources(other.search("slate")));
      }
    }
  }

  private static List<String> sources(List<?> hits) {
    return hits.stream().map(h -> ((JsonNode) h).path("source").asText()).toList();
  }
}
