package dev.quarry.corpora.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusSettings;

/**
 * A corpus's settings as the JSON object every store keeps with the corpus (the {@code settings} of
 * {@code corpus.json}, of the cluster store's registry document), and read back from it.
 */
public final class CorpusSettingsJson {
  private CorpusSettingsJson() {}

  /** Puts the settings' fields into {@code target}. */
  public static void write(ObjectNode target, CorpusSettings s) {
    target.put("language", s.language().wireName());
    target
        .putObject("chunking")
        .put("maxWords", s.chunking().maxWords())
        .put("overlapWords", s.chunking().overlapWords());
    target
        .putObject("ranking")
        .put("k1", s.ranking().k1())
        .put("b", s.ranking().b())
        .put("titleWeight", s.ranking().titleWeight());
    if (s.hasEmbedding()) {
      target
          .putObject("embedding")
          .put("model", s.embedding().model())
          .put("sha256", s.embedding().sha256())
          .put("semanticWeight", s.embedding().semanticWeight())
          .put("index", s.embedding().index().wireName())
          .put("normalization", s.embedding().normalization().wireName());
      if (s.embedding().firstPass() != null) {
        CorpusSettings.FirstPass pass = s.embedding().firstPass();
        ObjectNode p =
            ((ObjectNode) target.get("embedding"))
                .putObject("firstPass")
                .put("bits", pass.bits())
                .put("candidates", pass.candidates())
                .put("code", pass.code().wireName());
        if (pass.code() == CorpusSettings.FirstPass.Code.CENTRED) {
          p.put("centre", pass.centre()).put("seed", pass.seed());
        }
        if (pass.hasLists()) {
          p.put("lists", pass.lists()).put("probes", pass.probes());
        }
      }
    }
  }

  /** The settings {@link #write} put into {@code s}. */
  public static CorpusSettings read(JsonNode s) {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.fromWireName(s.path("language").asText()),
            new CorpusSettings.Chunking(
                s.path("chunking").path("maxWords").asInt(),
                s.path("chunking").path("overlapWords").asInt()),
            new CorpusSettings.Ranking(
                s.path("ranking").path("k1").asDouble(),
                s.path("ranking").path("b").asDouble(),
                s.path("ranking").path("titleWeight").asDouble()));
    JsonNode e = s.path("embedding");
    if (e.isObject()) {
      settings =
          settings.withEmbedding(
              new CorpusSettings.Embedding(
                  e.path("model").asText(),
                  e.path("sha256").asText(),
                  e.path("semanticWeight").asDouble(),
                  // Corpora written before the approximate index existed are exact.
                  CorpusSettings.VectorIndex.fromWireName(e.path("index").asText("exact"), "index"),
                  // Corpora written before the normalization was a setting fused with min-max; they
                  // keep it.
                  CorpusSettings.Normalization.fromWireName(
                      e.path("normalization").asText("minmax"), "normalization"),
                  e.path("firstPass").isObject() ? firstPass(e.path("firstPass")) : null));
    }
    return settings;
  }

  private static CorpusSettings.FirstPass firstPass(JsonNode p) {
    // Corpora written before centred codes have sign codes.
    CorpusSettings.FirstPass.Code code =
        CorpusSettings.FirstPass.Code.fromWire(p.path("code").asText("sign"), "code");
    return new CorpusSettings.FirstPass(
        p.path("bits").asInt(),
        p.path("candidates").asInt(),
        code,
        p.path("centre").isTextual() ? p.path("centre").asText() : null,
        p.path("seed").asLong(),
        p.path("lists").isTextual() ? p.path("lists").asText() : null,
        p.path("probes").asInt(0));
  }
}
