package dev.quarry.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The footprint command at a tiny size: it keeps a result set the results page reads, with the heap
 * and disk rows of both in-process contenders and every round in the notes. Its figures are
 * meaningless and never asserted on.
 */
class FootprintCommandTest {
  @TempDir Path dir;

  @Test
  void keepsTheFootprintRowsOfBothContenders_andEveryRound() throws Exception {
    Path json = dir.resolve("footprint.json");
    FootprintCommand.main(
        new String[] {
          "--chunks",
          "50",
          "--rounds",
          "2",
          "--workspace",
          dir.resolve("ws").toString(),
          "--json",
          json.toString(),
          "--commit",
          "abc1234"
        });

    ResultSet kept = ResultSet.read(json);
    assertEquals("abc1234", kept.commit());
    assertEquals(
        List.of("heap after GC per chunk", "disk per chunk"),
        kept.rows().stream().map(ResultSet.Row::measure).toList());
    for (ResultSet.Row row : kept.rows()) {
      assertTrue(row.conditions().endsWith(" chunks"), row::conditions);
      assertEquals(
          List.of("lucene", "quarry"),
          row.values().keySet().stream().sorted().toList(),
          row::toString);
    }
    assertEquals(
        2,
        kept.notes().stream().filter(n -> n.startsWith("round ")).count(),
        kept.notes()::toString);
    assertTrue(
        Files.isDirectory(dir.resolve("ws")), "the workspace named is kept for the next run");
  }
}
