package dev.quarry.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.SourceOperation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A table starts a chunk of its own, is cut only between rows, and each of its chunks names its
 * rows.
 */
class TableChunksTest {
  private static final CorpusSettings.Chunking SMALL = new CorpusSettings.Chunking(20, 5);

  /**
   * A text of prose, a table of {@code rows} rows of six words each, and more prose; its table in
   * {@code tables}.
   */
  private static String withTable(int rows, String rowSuffix, List<SourceOperation.Table> tables) {
    StringBuilder text = new StringBuilder("Intro words before the table go here.\n\n");
    int start = text.length();
    List<Integer> starts = new ArrayList<>();
    for (int r = 1; r <= rows; r++) {
      if (r > 1) {
        text.append("\n\n");
      }
      starts.add(text.length());
      text.append("Name = ship").append(r).append("; Tonnage = ").append(r * 100).append(rowSuffix);
    }
    tables.add(new SourceOperation.Table(start, text.length(), starts));
    text.append("\n\nClosing words after the table.");
    return text.toString();
  }

  @Test
  void table_startsAndEndsItsOwnChunks_withWholeRows() {
    List<SourceOperation.Table> tables = new ArrayList<>();
    String text = withTable(7, "", tables);
    List<ChunkSpan> spans = Chunker.split(text, null, null, SMALL, tables);
    assertEquals(
        "Intro words before the table go here.",
        text.substring(spans.get(0).start(), spans.get(0).end()));
    assertNull(spans.get(0).table());
    List<ChunkSpan> inTable = spans.stream().filter(s -> s.table() != null).toList();
    // Six words a row, twenty a chunk: three rows a chunk, without overlap.
    assertEquals(
        List.of(new ChunkTable(0, 1, 3), new ChunkTable(0, 4, 6), new ChunkTable(0, 7, 7)),
        inTable.stream().map(ChunkSpan::table).toList());
    for (ChunkSpan s : inTable) {
      String chunk = text.substring(s.start(), s.end());
      assertTrue(chunk.startsWith("Name = ship") && chunk.endsWith("00"), chunk);
      assertEquals(
          s.table().lastRow() - s.table().firstRow() + 1, chunk.split("\n\n").length, chunk);
    }
    ChunkSpan last = spans.get(spans.size() - 1);
    assertEquals("Closing words after the table.", text.substring(last.start(), last.end()));
    assertNull(last.table());
  }

  @Test
  void rowLongerThanAChunk_isCutAtWords_eachPieceHoldingThatRow() {
    List<SourceOperation.Table> tables = new ArrayList<>();
    String text = withTable(2, "; Notes = " + "long ".repeat(40).strip(), tables);
    List<ChunkSpan> inTable =
        Chunker.split(text, null, null, SMALL, tables).stream()
            .filter(s -> s.table() != null)
            .toList();
    assertTrue(inTable.size() >= 4, inTable.toString());
    for (ChunkSpan s : inTable) {
      assertEquals(
          s.table().firstRow(), s.table().lastRow(), "a piece of a long row holds that row alone");
    }
    assertEquals(1, inTable.get(0).table().firstRow());
    assertEquals(2, inTable.get(inTable.size() - 1).table().firstRow());
  }

  @Test
  void tableChunks_carryTheirPages() {
    List<SourceOperation.Table> tables = new ArrayList<>();
    String text = withTable(6, "", tables);
    int secondPage = tables.get(0).rowStarts().get(3);
    List<ChunkSpan> inTable =
        Chunker.split(text, new int[] {0, secondPage}, null, SMALL, tables).stream()
            .filter(s -> s.table() != null)
            .toList();
    assertEquals(
        List.of(new PageRange(1, 1), new PageRange(2, 2)),
        inTable.stream().map(ChunkSpan::pages).toList());
  }

  @Test
  void withoutTables_theChunksAreTheChunkersOwn() {
    List<SourceOperation.Table> tables = new ArrayList<>();
    String text = withTable(7, "", tables);
    assertEquals(
        Chunker.split(text, null, null, SMALL), Chunker.split(text, null, null, SMALL, List.of()));
  }

  @Test
  void tablePastTheText_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Chunker.split(
                "short text",
                null,
                null,
                SMALL,
                List.of(new SourceOperation.Table(0, 50, List.of(0)))));
  }

  @Test
  void windowFit_splitsATableChunk_betweenItsRows() {
    List<SourceOperation.Table> tables = new ArrayList<>();
    String text = withTable(3, "", tables);
    List<ChunkSpan> spans = Chunker.split(text, null, null, SMALL, tables);
    // A model that reads every word as four pieces, with a window of 40: a table chunk of 18 words
    // must split.
    List<ChunkSpan> fitted =
        WindowFit.fit(
            text,
            null,
            null,
            SMALL,
            tables,
            spans,
            chunk -> chunk.isBlank() ? 0 : 4 * chunk.strip().split("\\s+").length,
            0,
            40);
    List<ChunkTable> rows = fitted.stream().map(ChunkSpan::table).filter(t -> t != null).toList();
    assertTrue(rows.size() > 1, fitted.toString());
    assertEquals(1, rows.get(0).firstRow());
    assertEquals(3, rows.get(rows.size() - 1).lastRow());
    for (int i = 1; i < rows.size(); i++) {
      assertEquals(
          rows.get(i - 1).lastRow() + 1,
          rows.get(i).firstRow(),
          "pieces hold consecutive whole rows");
    }
  }
}
