package dev.quarry.opensearch.scoring;

/**
 * The exact semantic score of a Quarry chunk: a float query vector against the chunk's stored
 * vector (one signed byte per component, {@code round(x * SCALE)} clamped to ±127), summed in one
 * fixed order and divided back by {@link #SCALE}. It is the arithmetic of Quarry's embedded store
 * ({@code engine.embed.VectorCodec#dot}) written again, float for float: component {@code i} of the
 * first {@code n - n % 8} is added, in component order, to partial sum {@code i % 8}; the eight
 * partial sums are added pairwise ({@code ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))}); the
 * components left over are then added in order. The same query and bytes give the same float bits
 * here and there; the cluster store's tests hold the two to it on random vectors.
 *
 * <p>Pure and small on purpose: a first pass over quantized codes (a cheaper bound that picks the
 * chunks worth this exact score) would sit beside it, and this stays the reference.
 */
public final class DenseDot {
  /** Stored units per 1.0 (the embedded store's {@code VectorCodec.SCALE}). */
  public static final float SCALE = 254f;
  /** Partial sums: component {@code i} goes to lane {@code i % LANES}. */
  static final int LANES = 8;

  private DenseDot() {}

  /**
   * The score of the {@code query.length} stored bytes of {@code stored} from {@code offset} for
   * {@code query}.
   */
  public static float dot(float[] query, byte[] stored, int offset) {
    int n = query.length;
    int whole = n - n % LANES;
    float s0 = 0f;
    float s1 = 0f;
    float s2 = 0f;
    float s3 = 0f;
    float s4 = 0f;
    float s5 = 0f;
    float s6 = 0f;
    float s7 = 0f;
    for (int i = 0; i < whole; i += LANES) {
      int at = offset + i;
      s0 += query[i] * stored[at];
      s1 += query[i + 1] * stored[at + 1];
      s2 += query[i + 2] * stored[at + 2];
      s3 += query[i + 3] * stored[at + 3];
      s4 += query[i + 4] * stored[at + 4];
      s5 += query[i + 5] * stored[at + 5];
      s6 += query[i + 6] * stored[at + 6];
      s7 += query[i + 7] * stored[at + 7];
    }
    float sum = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    for (int i = whole; i < n; i++) {
      sum += query[i] * stored[offset + i];
    }
    return sum / SCALE;
  }
}
