package dev.quarry.client;

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
   * {@code e5-small-v2}), its default semantic weight in hybrid search and its vector index ({@code exact} or {@code hnsw}). {@code
   * sha256}, the model's weights the corpus is bound to, is the server's to fill in: leave it null
   * in a request ({@link #of}).
   */
  public record Embedding(String model, String sha256, Double semanticWeight, String index) {
    public static Embedding of(String model) {
      return new Embedding(model, null, null, null);
    }
  }

  /** These settings with {@code e} as the embedding. */
  public Settings withEmbedding(Embedding e) {
    return new Settings(language, chunking, ranking, e);
  }
}
