package dev.quarry.engine.spi;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.embed.VectorCodec;
import dev.quarry.engine.search.RevisionSearcher;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.lucene.util.BytesRef;

/**
 * What a store outside this engine needs to score a semantic search exactly as the embedded store
 * does: the stored form of a chunk's vector ({@link #encode}) and the exact score of a query
 * against it ({@link #dot}: a float query against the stored bytes, summed in the one fixed order
 * {@code embed.VectorCodec} documents, so the same query and bytes give the same float bits on
 * every store and every run). Another store that sums elsewhere (the cluster's scoring plugin)
 * writes the same arithmetic again and is held to this one bit for bit by its tests.
 */
public final class PortableDense {
  /**
   * Stored units per 1.0 of a component: a stored byte is {@code round(x * SCALE)} clamped to ±127.
   */
  public static final float SCALE = VectorCodec.SCALE;

  private PortableDense() {}

  /** A unit vector's stored form, one signed byte per component. */
  public static byte[] encode(float[] vector) {
    return VectorCodec.encode(vector);
  }

  /**
   * The exact semantic score of {@code stored} for {@code query}, as the embedded store computes
   * it.
   */
  public static float dot(float[] query, byte[] stored) {
    return VectorCodec.dot(query, new BytesRef(stored));
  }

  /**
   * Embeds passages with {@code embedder} on the process's one embedding pool (with its cache), as
   * the embedded store embeds the chunks it writes.
   */
  public static CompletableFuture<List<Embedder.Embedding>> embedPassages(
      EmbeddingModels models, Embedder embedder, List<String> texts) {
    return models.passages().embed(embedder, texts);
  }

  /**
   * How many candidates each side of a hybrid search takes for a search of {@code topK}: every
   * candidate then gets both sides' exact scores before the fused ranking keeps {@code topK}.
   */
  public static int candidates(int topK) {
    return RevisionSearcher.candidates(topK);
  }
}
