package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.quarry.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A document's table reaches the Java client as passages of whole rows, each carrying its table.
 */
class ClientTablesOverHttpTest {
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  @TempDir static Path dir;
  static QuarryClient admin;

  @BeforeAll
  static void start() throws Exception {
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("t", null);
    Path html =
        Files.writeString(
            dir.resolve("fleet.html"),
            "<html><body><h1>Fleet</h1>"
                + "<p>The harbour office keeps a register of its boats.</p>"
                + "<table><tr><th>Name</th><th>Port</th></tr><tr><td>Aurora</td><td>Bergen</td></tr>"
                + "<tr><td>Borealis</td><td>Tromso</td></tr></table><p>The register is kept by the master.</p>"
                + "</body></html>",
            StandardCharsets.UTF_8);
    admin.ingest(IngestRequest.of("t", "fleet.html"), html);
  }

  @Test
  void aTablesPassage_carriesItsTableAndRows_andOtherPassagesNone() {
    List<SourceText.Chunk> chunks = admin.chunks("t", "fleet.html", null).toList();
    SourceText.Chunk table =
        chunks.stream().filter(c -> c.text().startsWith("Name = ")).findFirst().orElseThrow();
    assertEquals("Name = Aurora; Port = Bergen\n\nName = Borealis; Port = Tromso", table.text());
    assertEquals(new Hit.Table(0, List.of(1, 2)), table.table());
    assertNull(chunks.get(0).table(), chunks.get(0).text());
    Hit hit = admin.search("t", "Borealis Tromso").results().get(0);
    assertEquals(new Hit.Table(0, List.of(1, 2)), hit.table());
  }
}
