package dev.quarry.opensearch.scoring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The coded first pass's estimate of a Quarry chunk: a query's bit planes against the chunk's code
 * (centred codes, {@code engine.embed.CentredCodes} in Quarry's engine), the embedded store's
 * arithmetic written again. A code is {@code words} groups of {@code codeBits} little-endian longs
 * (bit plane {@code b} of the levels of 64 components) and then its factor, a little-endian float.
 * Two integer counts, the same in any order: {@code levelSum}, the sum of {@code bitCount(word) <<
 * b}, and {@code cross}, the sum of {@code bitCount(queryPlane & word) << (b + q)} over the query's
 * bits {@code q}; then one expression in Java's arithmetic, {@code (float) (factor * (low *
 * levelSum + step * cross + constant))}. The same code and query give the same float bits here and
 * in the engine; the cluster store's tests hold the two to it on random codes.
 */
public final class CodedEstimate {
  /** More groups of 64 components than any embedding model Quarry runs has. */
  static final int MAX_WORDS = RevisionDenseQueryBuilder.MAX_DIMENSIONS / 64;

  static final int MAX_QUERY_BITS = 8;
  static final int MAX_CODE_BITS = 4;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  private final long[] planes;
  private final int queryBits;
  private final int codeBits;
  private final int words;
  private final double low;
  private final double step;
  private final double constant;

  /**
   * @param planes the query's bit planes: group {@code w}, query bit {@code q} at {@code w *
   *     queryBits + q}
   */
  public CodedEstimate(
      long[] planes, int queryBits, int codeBits, int words, double low, double step, double constant) {
    Objects.requireNonNull(planes, "planes");
    if (queryBits < 1 || queryBits > MAX_QUERY_BITS) {
      throw new IllegalArgumentException("[query_bits] must be between 1 and " + MAX_QUERY_BITS);
    }
    if (codeBits < 1 || codeBits > MAX_CODE_BITS) {
      throw new IllegalArgumentException("[code_bits] must be between 1 and " + MAX_CODE_BITS);
    }
    if (words < 1 || words > MAX_WORDS) {
      throw new IllegalArgumentException("[words] must be between 1 and " + MAX_WORDS);
    }
    if (planes.length != words * queryBits) {
      throw new IllegalArgumentException(
          "[planes] must hold words x query_bits = " + words * queryBits + " longs; got " + planes.length);
    }
    if (!Double.isFinite(low) || !Double.isFinite(step) || !Double.isFinite(constant)) {
      throw new IllegalArgumentException("[low], [step] and [constant] must be finite");
    }
    this.planes = planes.clone();
    this.queryBits = queryBits;
    this.codeBits = codeBits;
    this.words = words;
    this.low = low;
    this.step = step;
    this.constant = constant;
  }

  /** The length of a code these estimates read, in bytes. */
  public int codeBytes() {
    return words * codeBits * Long.BYTES + Float.BYTES;
  }

  /** The estimate against the code of {@link #codeBytes} bytes at {@code offset} of {@code bytes}. */
  public float of(byte[] bytes, int offset) {
    if (queryBits == 4) {
      return codeBits == 2 ? ofTwoBitCodes(bytes, offset) : ofFourQueryBits(bytes, offset);
    }
    long levelSum = 0;
    long cross = 0;
    int at = offset;
    for (int w = 0; w < words; w++) {
      int qa = w * queryBits;
      for (int b = 0; b < codeBits; b++, at += Long.BYTES) {
        long c = (long) LONGS.get(bytes, at);
        levelSum += (long) Long.bitCount(c) << b;
        long part = 0;
        for (int q = 0; q < queryBits; q++) {
          part += (long) Long.bitCount(planes[qa + q] & c) << q;
        }
        cross += part << b;
      }
    }
    float factor = (float) FLOATS.get(bytes, at);
    return (float) (factor * (low * levelSum + step * cross + constant));
  }

  /**
   * {@link #of} for a query of four bits, the front's (its loops unrolled: the JIT does not unroll
   * loops whose counts are fields, and the estimate is most of what a coded pass costs a node). The
   * same integer counts, added in another order, so the same float.
   */
  private float ofFourQueryBits(byte[] bytes, int offset) {
    long levelSum = 0;
    long cross = 0;
    int at = offset;
    for (int w = 0, qa = 0; w < words; w++, qa += 4) {
      long q0 = planes[qa];
      long q1 = planes[qa + 1];
      long q2 = planes[qa + 2];
      long q3 = planes[qa + 3];
      for (int b = 0; b < codeBits; b++, at += Long.BYTES) {
        long c = (long) LONGS.get(bytes, at);
        levelSum += (long) Long.bitCount(c) << b;
        long part =
            Long.bitCount(q0 & c)
                + ((long) Long.bitCount(q1 & c) << 1)
                + ((long) Long.bitCount(q2 & c) << 2)
                + ((long) Long.bitCount(q3 & c) << 3);
        cross += part << b;
      }
    }
    float factor = (float) FLOATS.get(bytes, at);
    return (float) (factor * (low * levelSum + step * cross + constant));
  }

  /** {@link #ofFourQueryBits} for codes of two bits (the default): a group's two planes at once. */
  private float ofTwoBitCodes(byte[] bytes, int offset) {
    long levelSum = 0;
    long cross = 0;
    int at = offset;
    for (int w = 0, qa = 0; w < words; w++, qa += 4, at += 2 * Long.BYTES) {
      long q0 = planes[qa];
      long q1 = planes[qa + 1];
      long q2 = planes[qa + 2];
      long q3 = planes[qa + 3];
      long c0 = (long) LONGS.get(bytes, at);
      long c1 = (long) LONGS.get(bytes, at + Long.BYTES);
      levelSum += Long.bitCount(c0) + ((long) Long.bitCount(c1) << 1);
      cross +=
          Long.bitCount(q0 & c0)
              + ((long) (Long.bitCount(q1 & c0) + Long.bitCount(q0 & c1)) << 1)
              + ((long) (Long.bitCount(q2 & c0) + Long.bitCount(q1 & c1)) << 2)
              + ((long) (Long.bitCount(q3 & c0) + Long.bitCount(q2 & c1)) << 3)
              + ((long) Long.bitCount(q3 & c1) << 4);
    }
    float factor = (float) FLOATS.get(bytes, at);
    return (float) (factor * (low * levelSum + step * cross + constant));
  }

  long[] planes() {
    return planes.clone();
  }

  int queryBits() {
    return queryBits;
  }

  int codeBits() {
    return codeBits;
  }

  int words() {
    return words;
  }

  double low() {
    return low;
  }

  double step() {
    return step;
  }

  double constant() {
    return constant;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodedEstimate e
        && Arrays.equals(planes, e.planes)
        && queryBits == e.queryBits
        && codeBits == e.codeBits
        && words == e.words
        && Double.doubleToLongBits(low) == Double.doubleToLongBits(e.low)
        && Double.doubleToLongBits(step) == Double.doubleToLongBits(e.step)
        && Double.doubleToLongBits(constant) == Double.doubleToLongBits(e.constant);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(planes), queryBits, codeBits, words, low, step, constant);
  }
}
