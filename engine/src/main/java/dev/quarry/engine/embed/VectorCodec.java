package dev.quarry.engine.embed;

import org.apache.lucene.util.BytesRef;

/**
 * The stored form of a unit vector: each component as a signed byte at one scale for every
 * vector, {@code round(x * SCALE)} clamped to [-127, 127].
 *
 * <p>One fixed scale makes the stored form a pure function of the vector (no per-corpus or
 * per-segment calibration that a merge could change), and a query's score against a chunk is
 * {@link #dot}: a float query against the bytes, summed in one fixed order. The same query
 * against the same bytes therefore gives the same float on every search, whatever the segment
 * layout. Components of a unit vector of a few hundred dimensions rarely exceed 0.3 in magnitude,
 * so the scale spends the byte's range there; the rare larger component is clamped.
 */
public final class VectorCodec {
  /** Stored units per 1.0; components beyond ±127/SCALE (±0.5) are clamped. */
  public static final float SCALE = 254f;

  private VectorCodec() {}

  public static byte[] encode(float[] vector) {
    byte[] out = new byte[vector.length];
    for (int i = 0; i < vector.length; i++) {
      int q = Math.round(vector[i] * SCALE);
      out[i] = (byte) Math.max(-127, Math.min(127, q));
    }
    return out;
  }

  /** Partial sums of {@link #dot}: component {@code i} goes to lane {@code i % LANES}. */
  static final int LANES = 8;

  /**
   * The dot product of a query vector with a stored vector, divided back by {@link #SCALE}: the
   * cosine up to quantization. The order of the float additions is fixed, so the result is
   * reproducible bit for bit: component {@code i} of the first {@code n - n % 8} is added, in
   * component order, to partial sum {@code i % 8}; the eight partial sums are added pairwise
   * ({@code ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))}); the components left over are
   * then added in order. Eight independent sums let the processor overlap the additions, which one
   * running sum (each addition waiting for the one before) does not; an exact scan computes this
   * for every chunk in scope.
   */
  public static float dot(float[] query, BytesRef stored) {
    if (stored.length != query.length) {
      throw new IllegalStateException("stored vector has " + stored.length + " components; the query has "
          + query.length);
    }
    byte[] b = stored.bytes;
    int off = stored.offset;
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
      int at = off + i;
      s0 += query[i] * b[at];
      s1 += query[i + 1] * b[at + 1];
      s2 += query[i + 2] * b[at + 2];
      s3 += query[i + 3] * b[at + 3];
      s4 += query[i + 4] * b[at + 4];
      s5 += query[i + 5] * b[at + 5];
      s6 += query[i + 6] * b[at + 6];
      s7 += query[i + 7] * b[at + 7];
    }
    float sum = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    for (int i = whole; i < n; i++) {
      sum += query[i] * b[off + i];
    }
    return sum / SCALE;
  }
}
