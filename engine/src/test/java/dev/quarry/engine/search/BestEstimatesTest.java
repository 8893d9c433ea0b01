package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class BestEstimatesTest {

  /**
   * Whatever the order and the ties, what is kept at or above the {@code candidates}-th best
   * estimate is exactly every entry offered there: the candidates' choice reads nothing else.
   */
  @Test
  void keepsEveryEntryAtOrAboveTheBoundWhateverTheOrder() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      String replay = "seed " + seed + ", round " + round;
      int candidates = 1 + random.nextInt(60);
      int offered = random.nextInt(2000);
      // Few distinct estimates in some rounds, so that ties cross every cut.
      int distinct = random.nextBoolean() ? 1 + random.nextInt(8) : Integer.MAX_VALUE;
      float[] estimates = new float[offered];
      for (int i = 0; i < offered; i++) {
        estimates[i] =
            distinct == Integer.MAX_VALUE
                ? (float) random.nextGaussian()
                : random.nextInt(distinct) - distinct / 2f;
      }
      BestEstimates best = new BestEstimates(candidates);
      for (int doc = 0; doc < offered; doc++) {
        best.offer(estimates[doc], doc);
      }
      List<Long> kept = new ArrayList<>();
      best.addTo(kept::add);

      float[] sorted = estimates.clone();
      Arrays.sort(sorted);
      float bound = offered <= candidates ? Float.NEGATIVE_INFINITY : sorted[offered - candidates];
      Set<Integer> expected = new TreeSet<>();
      for (int doc = 0; doc < offered; doc++) {
        if (estimates[doc] >= bound) {
          expected.add(doc);
        }
      }
      Set<Integer> keptAtOrAbove = new TreeSet<>();
      for (long entry : kept) {
        int doc = BestEstimates.docOf(entry);
        assertEquals(estimates[doc], BestEstimates.estimateOf(entry), replay);
        if (estimates[doc] >= bound) {
          assertTrue(keptAtOrAbove.add(doc), replay + ": doc " + doc + " kept twice");
        }
      }
      assertEquals(expected, keptAtOrAbove, replay);
      // The cut when the entries are given leaves nothing below the bound.
      assertEquals(expected.size(), kept.size(), replay + ": entries below the bound kept");
    }
  }

  @Test
  void packedEntriesOrderAsTheirEstimates() {
    float[] ascending = {Float.NEGATIVE_INFINITY, -2.5f, -0f, 0f, 1e-30f, 3f, Float.MAX_VALUE};
    for (int i = 1; i < ascending.length; i++) {
      long lower = BestEstimates.pack(ascending[i - 1], 7);
      long higher = BestEstimates.pack(ascending[i], 3);
      assertTrue(lower < higher, ascending[i - 1] + " before " + ascending[i]);
      assertEquals(ascending[i], BestEstimates.estimateOf(higher));
      assertEquals(3, BestEstimates.docOf(higher));
    }
  }

  @Test
  void refusesNoCandidates() {
    assertThrows(IllegalArgumentException.class, () -> new BestEstimates(0));
  }
}
