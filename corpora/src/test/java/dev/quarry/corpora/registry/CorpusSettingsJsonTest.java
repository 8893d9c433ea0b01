package dev.quarry.corpora.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusSettings;
import org.junit.jupiter.api.Test;

/**
 * A corpus's stored settings read back as written, and settings stored by earlier versions read as
 * they meant.
 */
class CorpusSettingsJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everyEmbeddingSettingRoundTrips() {
    CorpusSettings settings =
        CorpusSettings.DEFAULT.withEmbedding(
            new CorpusSettings.Embedding(
                "bge-small-en-v1.5",
                "ab".repeat(32),
                0.3,
                CorpusSettings.VectorIndex.HNSW,
                CorpusSettings.Normalization.THEORETICAL));
    ObjectNode stored = JSON.createObjectNode();
    CorpusSettingsJson.write(stored, settings);
    assertEquals("theoretical", stored.path("embedding").path("normalization").asText());
    assertEquals(settings, CorpusSettingsJson.read(stored));
  }

  @Test
  void aCorpusStoredBeforeNormalizationWasASettingKeepsMinMax() throws Exception {
    CorpusSettings read =
        CorpusSettingsJson.read(
            JSON.readTree(
                """
        {"language": "english", "chunking": {"maxWords": 250, "overlapWords": 50},
         "ranking": {"k1": 0.9, "b": 0.4, "titleWeight": 2.0},
         "embedding": {"model": "bge-small-en-v1.5", "sha256": "%s", "semanticWeight": 0.5, "index": "exact"}}"""
                    .formatted("ab".repeat(32))));
    assertEquals(CorpusSettings.Normalization.MINMAX, read.embedding().normalization());
  }

  @Test
  void aCodedFirstPass_roundTripsWithItsFrozenParameters() {
    for (CorpusSettings.FirstPass pass :
        new CorpusSettings.FirstPass[] {
          new CorpusSettings.FirstPass(1, 700),
          new CorpusSettings.FirstPass(
              3, 400, CorpusSettings.FirstPass.Code.CENTRED, "cd".repeat(32), 99),
          new CorpusSettings.FirstPass(
              2,
              1000,
              CorpusSettings.FirstPass.Code.CENTRED,
              "cd".repeat(32),
              99,
              "ef".repeat(32),
              24)
        }) {
      CorpusSettings settings =
          CorpusSettings.DEFAULT.withEmbedding(
              new CorpusSettings.Embedding(
                  "bge-small-en-v1.5",
                  "ab".repeat(32),
                  0.5,
                  CorpusSettings.VectorIndex.CODES,
                  CorpusSettings.Normalization.MINMAX,
                  pass));
      ObjectNode stored = JSON.createObjectNode();
      CorpusSettingsJson.write(stored, settings);
      assertEquals(settings, CorpusSettingsJson.read(stored), pass.toString());
    }
  }

  @Test
  void aCodedCorpusStoredBeforeCentredCodes_hasSignCodes() throws Exception {
    CorpusSettings read =
        CorpusSettingsJson.read(
            JSON.readTree(
                """
        {"language": "english", "chunking": {"maxWords": 250, "overlapWords": 50},
         "ranking": {"k1": 0.9, "b": 0.4, "titleWeight": 2.0},
         "embedding": {"model": "bge-small-en-v1.5", "sha256": "%s", "semanticWeight": 0.5, "index": "codes",
          "normalization": "minmax", "firstPass": {"bits": 1, "candidates": 1000}}}"""
                    .formatted("ab".repeat(32))));
    assertEquals(new CorpusSettings.FirstPass(1, 1000), read.embedding().firstPass());
    assertEquals(CorpusSettings.FirstPass.Code.SIGN, read.embedding().firstPass().code());
  }
}
