package dev.quarry.benchmarks.contender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.Hit;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuarryContenderTest {
  private static final SourceDocument SLATE =
      new SourceDocument("slate", "Slate", "Slate splits into thin sheets.");
  private static final SourceDocument GRANITE =
      new SourceDocument("granite", "Granite", "Granite is cut in quarries.");

  @TempDir Path dir;

  @BeforeEach
  void engineSearches() throws Exception {
    assumeTrue(
        Availability.probe(ContenderKind.QUARRY, dir).searches(), "the engine cannot search yet");
  }

  @Test
  void indexBatch_isVisibleToSearchOnReturn() throws Exception {
    try (Contender quarry = ContenderKind.QUARRY.open(dir.resolve("index"))) {
      quarry.indexBatch(List.of(GRANITE, SLATE));
      assertEquals(List.of("slate"), sources(quarry.search("slate")));
    }
  }

  @Test
  void reopenedIndex_stillFindsWhatWasIndexed() throws Exception {
    Path index = dir.resolve("index");
    try (Contender quarry = ContenderKind.QUARRY.open(index)) {
      quarry.indexBatch(List.of(GRANITE, SLATE));
    }
    try (Contender quarry = ContenderKind.QUARRY.open(index)) {
      assertEquals(List.of("granite"), sources(quarry.search("quarry")));
    }
  }

  private static List<String> sources(List<?> hits) {
    return hits.stream().map(h -> ((Hit) h).source()).toList();
  }
}
