package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * An {@link Embedder} that hands every call to another, as Lucene's {@code Filter*} classes do: a
 * subclass overrides only what it changes (a cache of query vectors, a count of calls, vectors of
 * its own) and keeps the rest of the model it wraps.
 *
 * @quarry.stable
 */
public abstract class FilterEmbedder implements Embedder {
  /** The model every call not overridden goes to. */
  protected final Embedder in;

  protected FilterEmbedder(Embedder in) {
    this.in = Objects.requireNonNull(in, "in");
  }

  @Override
  public String model() {
    return in.model();
  }

  @Override
  public String sha256() {
    return in.sha256();
  }

  @Override
  public int dimensions() {
    return in.dimensions();
  }

  @Override
  public int maxTokens() {
    return in.maxTokens();
  }

  @Override
  public int passageTokens(String text) {
    return in.passageTokens(text);
  }

  @Override
  public List<Embedding> embedPassages(List<String> texts) {
    return in.embedPassages(texts);
  }

  @Override
  public float[] embedQuery(String query) {
    return in.embedQuery(query);
  }
}
