package dev.quarry.corpora;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.registry.LuceneCorpusStore;
import dev.quarry.engine.EngineConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorporaBuilderTest {
  @TempDir Path data;

  LuceneCorpusStore store() {
    return new LuceneCorpusStore(
        data.resolve("store"), EngineConfig.defaults(), 4, Duration.ofMinutes(1));
  }

  /**
   * Settings the embedded store reads would be silently dropped beside a store: each is refused
   * instead.
   */
  @Test
  void settingsOfTheEmbeddedStore_besideAStore_areRefused() throws Exception {
    List<UnaryOperator<CorporaBuilder>> embeddedOnly =
        List.of(
            b -> b.dataDir(data.resolve("ignored")),
            b -> b.engineConfig(EngineConfig.defaults()),
            b -> b.maxOpenCorpora(8),
            b -> b.idleTimeout(Duration.ofMinutes(5)),
            b -> b.writeAdmission(WriteAdmission.ALWAYS));
    for (UnaryOperator<CorporaBuilder> setting : embeddedOnly) {
      try (LuceneCorpusStore store = store()) {
        IllegalStateException e =
            assertThrows(
                IllegalStateException.class,
                () -> setting.apply(Corpora.builder().store(store)).build());
        assertTrue(e.getMessage().contains("store(...) does not read"), e.getMessage());
      }
    }
  }

  @Test
  void storeAlone_buildsCorporaOverIt() throws Exception {
    try (Corpora corpora = Corpora.builder().store(store()).build()) {
      assertEquals(0, corpora.createCorpus(LocalCorporaTest.ADMIN, "handbook", null).revision());
    }
  }
}
