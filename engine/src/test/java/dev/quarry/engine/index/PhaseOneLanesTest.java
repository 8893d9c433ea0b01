package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phase 1 spreads a group over indexing threads only when it is large enough to be worth a segment
 * each.
 */
class PhaseOneLanesTest {
  @TempDir Path dir;

  @Test
  void lanes_growWithTheGroupsText_boundedByThreads() {
    assertEquals(1, CorpusWriter.lanes(0, 2));
    // A batch of 100 sources of about 7 KB each stays on one thread.
    assertEquals(1, CorpusWriter.lanes(700_000, 2));
    assertEquals(1, CorpusWriter.lanes(2 * CorpusWriter.CHARS_PER_LANE - 1, 2));
    assertEquals(2, CorpusWriter.lanes(2 * CorpusWriter.CHARS_PER_LANE, 2));
    assertEquals(2, CorpusWriter.lanes(100 * CorpusWriter.CHARS_PER_LANE, 2));
    assertEquals(1, CorpusWriter.lanes(100 * CorpusWriter.CHARS_PER_LANE, 1));
  }

  @Test
  void smallMutation_commitsOneSegment() throws Exception {
    try (CorpusIndex index =
        CorpusIndex.open(
            dir,
            new CorpusInfo("c", "c1", CorpusSettings.DEFAULT, Instant.now()),
            EngineConfig.defaults())) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ops.add(
            SourceOperation.Index.text(
                "s" + i, "title " + i, "some words of source " + i, Metadata.EMPTY));
      }
      index.apply(new Mutation(ops, "tester", null, null));
      // Chunks, source records and history entries of the group all land in one flushed segment.
      assertEquals(1, segments(dir));
    }
  }

  private static long segments(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".si")).count();
    }
  }
}
