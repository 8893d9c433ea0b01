package dev.quarry.benchmarks.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.embeddings.Models;
import org.junit.jupiter.api.Test;

/**
 * The hybrid benchmark embeds its English corpora with the English models only, the default first.
 */
class HybridModelsTest {
  @Test
  void measuresTheEnglishModels_notTheChineseOne() {
    assertEquals(Models.DEFAULT_MODEL, HybridBenchmark.MEASURED.get(0).name());
    assertTrue(Models.SHIPPED.containsAll(HybridBenchmark.MEASURED));
    assertFalse(HybridBenchmark.MEASURED.contains(Models.BGE_SMALL_ZH_V15));
  }

  @Test
  void aModelItDoesNotMeasure_isRefusedBeforeAnythingRuns() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HybridBenchmark.main(new String[] {"--model", Models.BGE_SMALL_ZH_V15.name()}));
    assertTrue(e.getMessage().contains("--model"), e.getMessage());
  }
}
