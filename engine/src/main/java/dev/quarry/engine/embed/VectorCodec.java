package dev.quarry.engine.embed;

import org.apache.lucene.util.BytesRef;

/**
 * The stored form of a unit vector: each component as a signed byte at one scale for every vector,
 * {@code round(x * SCALE)} clamped to [-127, 127].
 *
 * <p>One fixed scale makes the stored form a pure function of the vector (no per-corpus or
 * per-segment calibration that a merge could change), and a query's score against a chunk is {@link
 * #dot}: a float query against the bytes, summed in one fixed order. The same query against the
 * same bytes therefore gives the same float on every search, whatever the segment layout.
 * Components of a unit vector of a few hundred dimensions rarely exceed 0.3 in magnitude, so the
 * scale spends the byte's range there; the rare larger component is clamped.
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

  /**
   * Whether {@link #dot} runs on the Vector API in this JVM (else on the scalar loop, with the same
   * bits).
   */
  public static boolean usesVectorApi() {
    return !(LaneDot.FASTEST instanceof ScalarLaneDot);
  }

  /** Partial sums of {@link #dot}: component {@code i} goes to lane {@code i % LANES}. */
  static final int LANES = 8;

  /**
   * The dot product of a query vector with a stored vector, divided back by {@link #SCALE}: the
   * cosine up to quantization. The order of the float additions is fixed, so the result is
   * reproducible bit for bit: component {@code i} of the first {@code n - n % 8} is added, in
   * component order, to partial sum {@code i % 8}; the eight partial sums are added pairwise
   * ({@code ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))}); the components left over are then
   * added in order. Eight independent sums let the processor overlap the additions, which one
   * running sum (each addition waiting for the one before) does not; an exact scan computes this
   * for every chunk in scope. With the incubator module {@code jdk.incubator.vector} (which {@code
   * quarry serve} adds) the eight sums are the lanes of one vector register; without it a scalar
   * loop computes the same bits.
   */
  public static float dot(float[] query, BytesRef stored) {
    if (stored.length != query.length) {
      throw new IllegalStateException(
          "stored vector has " + stored.length + " components; the query has " + query.length);
    }
    return LaneDot.FASTEST.sum(query, stored.bytes, stored.offset) / SCALE;
  }
}
