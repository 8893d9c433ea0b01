package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.testing.TestSeed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The results kept are those of a greedy walk over every chunk in result order, whatever the offer
 * order.
 */
@ExtendWith(TestSeed.class)
class TopChunksTest {

  private static ScoredChunk chunk(int doc, float score, String source, int chunk) {
    return new ScoredChunk(doc, score, new BytesRef(source), chunk);
  }

  private static List<String> keep(List<ScoredChunk> offered, int topK, Integer cap) {
    TopChunks top = new TopChunks(topK, cap);
    for (ScoredChunk c : offered) {
      if (c.score() >= top.minCompetitiveScore()) {
        top.offer(c);
      }
    }
    return top.results().stream().map(c -> c.source().utf8ToString() + "#" + c.chunk()).toList();
  }

  private static List<ScoredChunk> sample() {
    return List.of(
        chunk(1, 3f, "b", 0),
        chunk(2, 3f, "a", 1),
        chunk(3, 3f, "a", 0),
        chunk(4, 5f, "c", 0),
        chunk(5, 1f, "a", 2),
        chunk(6, 3f, "c", 1),
        chunk(7, 4f, "c", 2),
        chunk(8, 2f, "b", 1));
  }

  @Test
  void results_withoutCap_areTheBestByScoreThenSourceThenChunk() {
    assertEquals(List.of("c#0", "c#2", "a#0", "a#1"), keep(sample(), 4, null));
  }

  @Test
  void results_withCap_skipASourcesChunksBeyondTheCap() {
    assertEquals(List.of("c#0", "c#2", "a#0", "a#1", "b#0"), keep(sample(), 5, 2));
    assertEquals(List.of("c#0", "a#0", "b#0"), keep(sample(), 5, 1));
  }

  @Test
  void results_doNotDependOnOfferOrder(Random random) {
    List<ScoredChunk> chunks = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      chunks.add(chunk(i, random.nextInt(5), "s" + random.nextInt(20), i));
    }
    List<String> expected = keep(chunks, 10, 3);
    List<String> expectedUncapped = keep(chunks, 10, null);
    for (int round = 0; round < 5; round++) {
      Collections.shuffle(chunks, random);
      assertEquals(expected, keep(chunks, 10, 3));
      assertEquals(expectedUncapped, keep(chunks, 10, null));
    }
  }
}
