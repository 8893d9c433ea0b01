package dev.quarry.engine.embed;

import org.apache.lucene.util.BytesRef;

/**
 * The stored form of a unit vector: each component as a signed byte at one scale for every
 * vector, {@code round(x * SCALE)} clamped to [-127, 127].
 *
 * <p>One fixed scale makes the stored form a pure function of the vector (no per-corpus or
 * per-segment calibration that a merge could change), and a query's score against a chunk is
 * {@link #dot}: a float query against the bytes, summed in component order. The same query
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

  /**
   * The dot product of a query vector with a stored vector, divided back by {@link #SCALE}: the
   * cosine up to quantization. Summed strictly in component order (Java never reassociates float
   * additions), so the result is reproducible bit for bit.
   */
  public static float dot(float[] query, BytesRef stored) {
    if (stored.length != query.length) {
      throw new IllegalStateException("stored vector has " + stored.length + " components; the query has "
          + query.length);
    }
    byte[] b = stored.bytes;
    int off = stored.offset;
    float sum = 0f;
    for (int i = 0; i < query.length; i++) {
      sum += query[i] * b[off + i];
    }
    return sum / SCALE;
  }
}
