package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.IndexFootprint;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CorpusIndex#footprint}: the published revision's segments and their bytes, as Lucene's
 * commit has them.
 */
class CorpusIndexFootprintTest {
  private static final CorpusInfo INFO =
      new CorpusInfo("handbook", "c1", CorpusSettings.DEFAULT, Instant.now());

  @TempDir Path dir;

  @Test
  void footprint_afterWrites_isTheLastCommitsSegmentsAndTheirSize() throws Exception {
    Path live = dir.resolve("live");
    IndexFootprint footprint;
    try (CorpusIndex index = CorpusIndex.open(live, INFO, EngineConfig.defaults())) {
      for (int i = 0; i < 3; i++) {
        index.apply(
            new Mutation(
                List.of(CorpusIndexWriteTest.passages("s" + i, "footprint words number " + i)),
                "tester",
                null,
                null));
      }
      footprint = index.footprint().orElseThrow();
      // Each write committed and published its revision: the commit on disk is what searches read.
      try (FSDirectory directory = FSDirectory.open(live)) {
        SegmentInfos committed = SegmentInfos.readLatestCommit(directory);
        long bytes = 0;
        for (SegmentCommitInfo segment : committed) {
          bytes += segment.sizeInBytes();
        }
        assertEquals(new IndexFootprint(committed.size(), bytes), footprint);
      }
    }
    assertTrue(footprint.segments() >= 1 && footprint.bytes() > 0, footprint::toString);
  }

  @Test
  void footprint_ofAClosedIndex_isUnavailable() throws Exception {
    CorpusIndex index = CorpusIndex.open(dir.resolve("live"), INFO, EngineConfig.defaults());
    index.close();
    assertEquals(
        ErrorCode.UNAVAILABLE, assertThrows(QuarryException.class, index::footprint).code());
  }
}
