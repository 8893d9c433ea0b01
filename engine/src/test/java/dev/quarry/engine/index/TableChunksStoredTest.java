package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rows of a table a chunk holds are stored with it and returned on its hits and chunks. */
class TableChunksStoredTest {
  static final String TEXT =
      "The fleet list follows.\n\n"
          + "Name = Aurora; Port = Bergen; Cargo = dried cod and timber\n\n"
          + "Name = Borealis; Port = Tromso; Cargo = dried cod and timber\n\n"
          + "Name = Cirrus; Port = Oslo; Cargo = dried cod and timber";

  @TempDir Path dir;
  CorpusIndex index;

  static SourceOperation.Index withTable(String source) {
    int start = TEXT.indexOf("Name = Aurora");
    return new SourceOperation.Index(
        source,
        null,
        TEXT,
        null,
        "text/plain",
        Metadata.EMPTY,
        null,
        null,
        null,
        null,
        null,
        List.of(
            new SourceOperation.Table(
                start,
                TEXT.length(),
                List.of(start, TEXT.indexOf("Name = Borealis"), TEXT.indexOf("Name = Cirrus")))));
  }

  @BeforeEach
  void open() throws Exception {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.DEFAULT.language(),
            new CorpusSettings.Chunking(16, 0),
            CorpusSettings.DEFAULT.ranking());
    index =
        CorpusIndex.open(
            dir, new CorpusInfo("docs", "c1", settings, Instant.now()), EngineConfig.defaults());
    index.apply(Mutation.of(withTable("fleet.txt"), "tester"));
    index.apply(
        Mutation.of(
            new SourceOperation.Index(
                "plain.txt",
                null,
                TEXT,
                null,
                "text/plain",
                Metadata.EMPTY,
                null,
                null,
                null,
                null),
            "tester"));
  }

  @AfterEach
  void close() throws Exception {
    index.close();
  }

  @Test
  void chunksOfATable_carryTheirRows_andOtherChunksNone() {
    SourceChunks chunks = index.readChunks("fleet.txt", null, -1, 100).orElseThrow();
    assertEquals(
        List.of(
            "The fleet list follows.",
            "Name = Aurora; Port = Bergen; Cargo = dried cod and timber",
            "Name = Borealis; Port = Tromso; Cargo = dried cod and timber",
            "Name = Cirrus; Port = Oslo; Cargo = dried cod and timber"),
        chunks.chunks().stream().map(SourceChunks.Chunk::text).toList());
    assertEquals(
        Arrays.asList(
            null, new ChunkTable(0, 1, 1), new ChunkTable(0, 2, 2), new ChunkTable(0, 3, 3)),
        chunks.chunks().stream().map(SourceChunks.Chunk::table).toList());
  }

  @Test
  void hits_returnTheirTable_andTextIndexedWithoutTables_hasNone() {
    List<Hit> hits =
        index
            .search(
                new SearchRequest("Borealis", SourceScope.ALL, List.of(), 10, null, null, false))
            .hits();
    for (Hit h : hits) {
      if (h.source().equals("fleet.txt")) {
        assertEquals(new ChunkTable(0, 2, 2), h.table());
      } else {
        assertNull(h.table(), "a source indexed without tables has no table on any chunk");
      }
    }
    assertEquals(2, hits.size());
  }

  @Test
  void tables_changeTheFingerprint() {
    CorpusSettings.Chunking chunking = new CorpusSettings.Chunking(16, 0);
    SourceOperation.Index plain =
        new SourceOperation.Index(
            "s", null, TEXT, null, "text/plain", Metadata.EMPTY, null, null, null, null);
    assertNotEquals(
        PreparedSource.prepare(plain, chunking).fingerprint(),
        PreparedSource.prepare(withTable("s"), chunking).fingerprint());
  }

  @Test
  void overlappingTables_areRefused_namingTheField() {
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () ->
                new SourceOperation.Index(
                    "s",
                    null,
                    TEXT,
                    null,
                    null,
                    Metadata.EMPTY,
                    null,
                    null,
                    null,
                    null,
                    null,
                    List.of(
                        new SourceOperation.Table(0, 20, List.of(0)),
                        new SourceOperation.Table(10, 30, List.of(10)))));
    assertEquals("tables[1]", e.field());
  }
}
