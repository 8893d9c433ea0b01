package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.CorpusSettings.FirstPass;
import dev.quarry.engine.CorpusSettings.VectorIndex;
import dev.quarry.engine.EmbeddingModels;
import org.junit.jupiter.api.Test;

/** Which index an embedding corpus created without one gets, for each shipped model. */
class DefaultIndexTest {

  private static CorpusSettings.Embedding resolved(String model, VectorIndex index) {
    EmbeddingModels models = Models.all();
    return models
        .resolve(
            CorpusSettings.DEFAULT.withEmbedding(
                new CorpusSettings.Embedding(
                    model,
                    null,
                    CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT,
                    index,
                    CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                    index == VectorIndex.CODES ? FirstPass.DEFAULT : null)))
        .embedding();
  }

  @Test
  void everyShippedModel_getsTheCodedFirstPassWithLists_boundToItsCentreAndLists() {
    for (ModelSpec spec : Models.SHIPPED) {
      CorpusSettings.Embedding e = resolved(spec.name(), null);
      assertEquals(VectorIndex.CODES, e.index(), spec.name());
      FirstPass pass = e.firstPass();
      assertEquals(FirstPass.Code.CENTRED, pass.code(), spec.name());
      assertEquals(FirstPass.DEFAULT_INDEX.bits(), pass.bits());
      assertEquals(1000, pass.candidates());
      assertEquals(96, pass.probes());
      assertEquals(FirstPass.DEFAULT_INDEX.seed(), pass.seed());
      assertNotNull(pass.centre(), spec.name() + " ships a centre");
      assertNotNull(pass.lists(), spec.name() + " ships lists");
      assertNotNull(e.sha256());
    }
  }

  @Test
  void aNamedIndex_isKept() {
    String model = Models.DEFAULT_MODEL;
    CorpusSettings.Embedding exact = resolved(model, VectorIndex.EXACT);
    assertEquals(VectorIndex.EXACT, exact.index());
    assertNull(exact.firstPass());
    CorpusSettings.Embedding codes = resolved(model, VectorIndex.CODES);
    assertEquals(VectorIndex.CODES, codes.index());
    assertEquals(FirstPass.DEFAULT.candidates(), codes.firstPass().candidates());
    assertEquals(0, codes.firstPass().probes(), "a named codes index reads every code unless told");
  }
}
