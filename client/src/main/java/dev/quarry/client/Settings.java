package dev.quarry.client;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A corpus's settings. In a request every part is optional (null: the server's default); in an
 * answer every part is filled in.
 *
 * @param embedding null: a lexical corpus; else the model that embeds every chunk (hybrid search)
 */
public record Settings(String language, Chunking chunking, Ranking ranking, Embedding embedding) {
  /** Settings of a lexical corpus. */
  public Settings(String language, Chunking chunking, Ranking ranking) {
    this(language, chunking, ranking, null);
  }

  public record Chunking(Integer maxWords, Integer overlapWords) {}

  public record Ranking(Double k1, Double b, Double titleWeight) {}

  /**
   * An embedding corpus's model ({@code bge-small-en-v1.5}, {@code all-minilm-l6-v2},
   * {@code e5-small-v2}), its default semantic weight in hybrid search, its vector index ({@code exact} or {@code hnsw})
   * and its default {@link Normalization} in convex fusion. {@code sha256}, the model's weights the corpus is bound to,
   * is the server's to fill in: leave it null in a request ({@link #of}).
   */
  public record Embedding(String model, String sha256, Double semanticWeight, String index, Normalization normalization) {
    /** An embedding with the server's default normalization. */
    public Embedding(String model, String sha256, Double semanticWeight, String index) {
      this(model, sha256, semanticWeight, index, null);
    }

    public static Embedding of(String model) {
      return new Embedding(model, null, null, null, null);
    }

    /** This embedding with {@code n} as its normalization (null: the server's default, minmax). */
    public Embedding withNormalization(Normalization n) {
      return new Embedding(model, sha256, semanticWeight, index, n);
    }
  }

  /**
   * How convex fusion brings each side's scores to [0, 1]: {@code MINMAX} over each side's
   * candidates, or {@code THEORETICAL} from the scoring function's least score (0 for BM25, -1 for a
   * cosine) to the side's best (docs/hybrid.md).
   */
  public enum Normalization {
    MINMAX, THEORETICAL;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** These settings with {@code e} as the embedding. */
  public Settings withEmbedding(Embedding e) {
    return new Settings(language, chunking, ranking, e);
  }
}
