package dev.quarry.engine.embed;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One-bit codes of stored vectors for a fast first pass, and a query's estimate against them.
 *
 * <p>A chunk's code holds one bit per component: set when the component's stored byte ({@link
 * VectorCodec}) is positive. Its parameters are fixed for every corpus and every release (the
 * threshold 0, no centering, no rotation), so the code is a pure function of the stored bytes: it
 * does not depend on a segment, a merge or the other chunks of the corpus. A code is {@link #bytes}
 * long: the bits in component order, 64 to a little-endian long, the last long padded with zeros.
 *
 * <p>A query is quantized once to {@link #QUERY_BITS}-bit levels between its least and greatest
 * component ({@link Query}); its estimate against a code is the sum of the query's components where
 * the code's bit is set, computed from those levels with integer popcounts (so in any order the
 * same) and one final float expression. Ranking by it ranks by the query's dot product with the
 * code's signs (±1), which differs from it by a constant of the query. The estimate only chooses
 * candidates: every candidate is scored again with {@link VectorCodec#dot}.
 *
 * <p>Pure Java on purpose (no Lucene): a store that keeps vectors elsewhere computes the same codes
 * and estimates with this class.
 */
public final class SignCodes {
  /**
   * Levels of a quantized query: 2^8, so that quantizing the query costs little of the estimate.
   */
  public static final int QUERY_BITS = 8;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private SignCodes() {}

  /** The length of a code of {@code dimensions} components, in bytes: whole longs. */
  public static int bytes(int dimensions) {
    return words(dimensions) * Long.BYTES;
  }

  private static int words(int dimensions) {
    return (dimensions + 63) / 64;
  }

  /** The code of a stored vector (the bytes {@link VectorCodec#encode} gives). */
  public static byte[] encode(byte[] stored) {
    long[] words = new long[words(stored.length)];
    for (int i = 0; i < stored.length; i++) {
      if (stored[i] > 0) {
        words[i >>> 6] |= 1L << (i & 63);
      }
    }
    byte[] out = new byte[words.length * Long.BYTES];
    for (int w = 0; w < words.length; w++) {
      LONGS.set(out, w * Long.BYTES, words[w]);
    }
    return out;
  }

  /** The code of a unit vector: the same as {@code encode(VectorCodec.encode(vector))}. */
  public static byte[] encode(float[] vector) {
    return encode(VectorCodec.encode(vector));
  }

  /** A query prepared for estimates: its components as bit planes of their levels. */
  public static final class Query {
    /** Bit {@code b} of every component's level, word {@code w} at {@code w * QUERY_BITS + b}. */
    private final long[] planes;

    private final float low;
    private final float step;
    private final int words;

    /**
     * Quantizes {@code query}: level {@code round((x - min) / step)}, step {@code (max - min) /
     * 255}.
     */
    public Query(float[] query) {
      float min = Float.POSITIVE_INFINITY;
      float max = Float.NEGATIVE_INFINITY;
      for (float x : query) {
        min = Math.min(min, x);
        max = Math.max(max, x);
      }
      int top = (1 << QUERY_BITS) - 1;
      this.low = query.length == 0 ? 0f : min;
      this.step = query.length == 0 || max == min ? 0f : (max - min) / top;
      this.words = words(query.length);
      this.planes = new long[QUERY_BITS * words];
      for (int i = 0; i < query.length; i++) {
        int level = step == 0f ? 0 : Math.min(top, Math.round((query[i] - low) / step));
        for (int b = 0; b < QUERY_BITS; b++) {
          if ((level >>> b & 1) != 0) {
            planes[(i >>> 6) * QUERY_BITS + b] |= 1L << (i & 63);
          }
        }
      }
    }

    /**
     * The estimate of the sum of the query's components where the code's bit is set: {@code low}
     * times the set bits plus {@code step} times the sum of their levels. Both counts are integers
     * added in any order to the same value, so the estimate depends on the code and query only.
     */
    public float estimate(byte[] code, int offset) {
      long levels = 0;
      int set = 0;
      long[] p = planes;
      for (int w = 0, at = 0; w < words; w++, at += QUERY_BITS) {
        long c = (long) LONGS.get(code, offset + w * Long.BYTES);
        set += Long.bitCount(c);
        // QUERY_BITS is 8: unrolled, so the bit counts are independent of one another.
        levels +=
            Long.bitCount(p[at] & c)
                + ((long) Long.bitCount(p[at + 1] & c) << 1)
                + ((long) Long.bitCount(p[at + 2] & c) << 2)
                + ((long) Long.bitCount(p[at + 3] & c) << 3)
                + ((long) Long.bitCount(p[at + 4] & c) << 4)
                + ((long) Long.bitCount(p[at + 5] & c) << 5)
                + ((long) Long.bitCount(p[at + 6] & c) << 6)
                + ((long) Long.bitCount(p[at + 7] & c) << 7);
      }
      return (float) ((double) step * levels + (double) low * set);
    }

    /**
     * The same estimate as {@link #estimate(byte[], int)}, to the bit, of a code read as
     * little-endian words at {@code at} of {@code code}.
     */
    public float estimate(long[] code, int at) {
      long levels = 0;
      int set = 0;
      long[] p = planes;
      for (int w = 0, pa = 0; w < words; w++, pa += QUERY_BITS) {
        long c = code[at + w];
        set += Long.bitCount(c);
        levels +=
            Long.bitCount(p[pa] & c)
                + ((long) Long.bitCount(p[pa + 1] & c) << 1)
                + ((long) Long.bitCount(p[pa + 2] & c) << 2)
                + ((long) Long.bitCount(p[pa + 3] & c) << 3)
                + ((long) Long.bitCount(p[pa + 4] & c) << 4)
                + ((long) Long.bitCount(p[pa + 5] & c) << 5)
                + ((long) Long.bitCount(p[pa + 6] & c) << 6)
                + ((long) Long.bitCount(p[pa + 7] & c) << 7);
      }
      return (float) ((double) step * levels + (double) low * set);
    }

    /** The code length this query reads, in bytes. */
    public int codeBytes() {
      return words * Long.BYTES;
    }
  }
}
