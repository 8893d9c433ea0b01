package dev.quarry.api.wire;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.QuarryException;
import java.util.Set;

/** The request bodies of the corpora endpoints: create, read, delete, list. */
public final class CorpusRequests {
  private CorpusRequests() {}

  /**
   * {@code corpora/create}: a name and optional settings, every setting filled in with its default.
   */
  public record Create(String corpus, CorpusSettings settings) {
    public static Create read(WireObject body) {
      body.allowOnly(Set.of("corpus", "settings"));
      String corpus = WireValues.corpus(body);
      WireObject s = body.optionalObject("settings");
      return new Create(corpus, s == null ? CorpusSettings.DEFAULT : settings(s));
    }

    private static CorpusSettings settings(WireObject s) {
      s.allowOnly(Set.of("language", "chunking", "ranking", "embedding"));
      String language = s.optionalString("language", 32);
      CorpusSettings.Language lang =
          language == null
              ? CorpusSettings.DEFAULT.language()
              : CorpusSettings.Language.fromWireName(language);
      return new CorpusSettings(
          lang,
          chunking(s.optionalObject("chunking")),
          ranking(s.optionalObject("ranking")),
          embedding(s.optionalObject("embedding")));
    }

    /**
     * Null (a lexical corpus) when absent; the model's SHA-256 is bound when the corpus is created.
     */
    private static CorpusSettings.Embedding embedding(WireObject e) {
      if (e == null) {
        return null;
      }
      e.allowOnly(Set.of("model", "semanticWeight", "index", "normalization", "firstPass"));
      String model = e.requireString("model");
      Double weight = e.optionalNumber("semanticWeight");
      String index = e.optionalString("index", 16);
      String normalization = e.optionalString("normalization", 16);
      // Null when unnamed: the model's resolution chooses (CorpusSettings.Embedding#withSha256).
      CorpusSettings.VectorIndex vectorIndex =
          index == null
              ? null
              : CorpusSettings.VectorIndex.fromWireName(index, "settings.embedding.index");
      WireObject pass = e.optionalObject("firstPass");
      if (pass != null && vectorIndex != CorpusSettings.VectorIndex.CODES) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass",
            vectorIndex == null
                ? "firstPass applies to index 'codes' only; name index 'codes' beside it"
                : "firstPass applies to index 'codes' only; index is '"
                    + vectorIndex.wireName()
                    + "'");
      }
      return new CorpusSettings.Embedding(
          model,
          null,
          weight == null ? CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT : weight,
          vectorIndex,
          normalization == null
              ? CorpusSettings.Embedding.DEFAULT_NORMALIZATION
              : CorpusSettings.Normalization.fromWireName(
                  normalization, "settings.embedding.normalization"),
          vectorIndex != CorpusSettings.VectorIndex.CODES ? null : firstPass(pass));
    }

    /** The coded first pass's parameters: the defaults for each one absent. */
    private static CorpusSettings.FirstPass firstPass(WireObject p) {
      if (p == null) {
        return CorpusSettings.FirstPass.DEFAULT;
      }
      p.allowOnly(Set.of("bits", "candidates", "code", "probes"));
      String codeName = p.optionalString("code", 16);
      CorpusSettings.FirstPass.Code code =
          codeName == null
              ? CorpusSettings.FirstPass.DEFAULT_CODE
              : CorpusSettings.FirstPass.Code.fromWire(
                  codeName, "settings.embedding.firstPass.code");
      Integer bits = p.optionalInt("bits", 1, code == CorpusSettings.FirstPass.Code.SIGN ? 1 : 4);
      Integer candidates =
          p.optionalInt(
              "candidates",
              CorpusSettings.FirstPass.MIN_CANDIDATES,
              CorpusSettings.FirstPass.MAX_CANDIDATES);
      // Checked against the lists the model ships for when the model is resolved.
      Integer probes = p.optionalInt("probes", 1, CorpusSettings.FirstPass.MAX_PROBES);
      return new CorpusSettings.FirstPass(
          bits != null
              ? bits
              : code == CorpusSettings.FirstPass.Code.SIGN
                  ? 1
                  : CorpusSettings.FirstPass.DEFAULT_CENTRED_BITS,
          candidates == null ? CorpusSettings.FirstPass.DEFAULT_CANDIDATES : candidates,
          code,
          null,
          code == CorpusSettings.FirstPass.Code.SIGN ? 0 : CorpusSettings.FirstPass.DEFAULT.seed(),
          null,
          probes == null ? 0 : probes);
    }

    private static CorpusSettings.Chunking chunking(WireObject c) {
      if (c == null) {
        return CorpusSettings.Chunking.DEFAULT;
      }
      c.allowOnly(Set.of("maxWords", "overlapWords"));
      Integer maxWords = c.optionalInt("maxWords", 0, Integer.MAX_VALUE);
      Integer overlap = c.optionalInt("overlapWords", 0, Integer.MAX_VALUE);
      int words = maxWords == null ? CorpusSettings.Chunking.DEFAULT_MAX_WORDS : maxWords;
      // Without an explicit overlap, keep the default's ratio (50 of 250 words), so a small
      // maxWords alone is still a valid setting.
      int overlapWords =
          overlap != null
              ? overlap
              : Math.min(CorpusSettings.Chunking.DEFAULT_OVERLAP_WORDS, words / 5);
      return new CorpusSettings.Chunking(words, overlapWords);
    }

    private static CorpusSettings.Ranking ranking(WireObject r) {
      if (r == null) {
        return CorpusSettings.Ranking.DEFAULT;
      }
      r.allowOnly(Set.of("k1", "b", "titleWeight"));
      Double k1 = r.optionalNumber("k1");
      Double b = r.optionalNumber("b");
      Double titleWeight = r.optionalNumber("titleWeight");
      return new CorpusSettings.Ranking(
          k1 == null ? CorpusSettings.Ranking.DEFAULT_K1 : k1,
          b == null ? CorpusSettings.Ranking.DEFAULT_B : b,
          titleWeight == null ? CorpusSettings.Ranking.DEFAULT_TITLE_WEIGHT : titleWeight);
    }
  }

  /** {@code corpora/read} and {@code corpora/delete}: just the corpus name. */
  public record Named(String corpus) {
    public static Named read(WireObject body) {
      body.allowOnly(Set.of("corpus"));
      return new Named(WireValues.corpus(body));
    }
  }

  /** {@code corpora/list}: a page after {@code cursor} (null: from the start). */
  public record Page(String cursor, int limit) {
    public static Page read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("cursor", "limit"));
      return new Page(WireValues.cursor(body), WireValues.listLimit(body, limits));
    }
  }
}
