package dev.quarry.engine;

import java.util.List;

/**
 * A text embedding model, run in process. The engine stores what {@link #embedPassages} returns
 * with each chunk of an embedding corpus and scores a query's {@link #embedQuery} vector against
 * them; it never loads a model itself (the {@code embeddings} module does).
 *
 * <p>Every vector has {@link #dimensions()} components and unit length, so a dot product is the
 * cosine. Implementations are thread-safe.
 *
 * @quarry.stable
 */
public interface Embedder {

  /** The model's name as corpus settings name it, e.g. {@code bge-small-en-v1.5}. */
  String model();

  /** Lowercase hex SHA-256 of the model's weights: what a corpus's vectors were computed with. */
  String sha256();

  /** Components per vector. */
  int dimensions();

  /** The most word pieces (special tokens included) the model reads; longer text is truncated. */
  int maxTokens();

  /**
   * How many word pieces the model reads for {@code text} as a passage (its passage prefix and
   * special tokens included), counted past {@link #maxTokens()}: what the engine sizes chunks by,
   * so that a chunk fits the window instead of being cut.
   */
  int passageTokens(String text);

  /**
   * Embeds passages for storage, each with the model's passage prefix (if any).
   *
   * @return one result per text, in order
   */
  List<Embedding> embedPassages(List<String> texts);

  /**
   * Embeds a search query with the model's query instruction.
   *
   * @throws QuarryException INVALID_REQUEST on {@code query} when the query does not fit the
   *     model's window (a query is never silently cut)
   */
  float[] embedQuery(String query);

  /**
   * One passage's vector.
   *
   * @param truncated whether the passage was longer than {@link #maxTokens()} and only its start
   *     was embedded
   */
  record Embedding(float[] vector, boolean truncated) {}
}
