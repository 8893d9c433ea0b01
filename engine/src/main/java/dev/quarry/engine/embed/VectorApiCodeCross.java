package dev.quarry.engine.embed;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CodeCross} in the Vector API, eight 64-bit words of a code at a time: lane {@code l} of
 * the {@code k}-th load holds the code's word {@code 8k + l}, plane {@code (8k + l) % bits} of word
 * {@code (8k + l) / bits}, and is ANDed with each query plane laid out the same way (the query
 * plane's word repeated for each of the code's planes), its bits counted, shifted by the query
 * plane and added; each lane's sum is then shifted by its code plane and the lanes added. Integer
 * counts, so the same count as {@link ScalarCodeCross}; {@code CodeWordsTest} checks them against
 * each other. Loaded by name only when the JVM has the incubator module (see {@link
 * CodeCross#FASTEST}).
 */
final class VectorApiCodeCross implements CodeCross {
  static final int LANES = 8;

  static {
    assert SLACK_WORDS >= LANES;
  }

  private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_512;

  /**
   * The query's planes laid out as the code's words: plane {@code q} of load {@code k} at {@code (k
   * * QUERY_BITS + q) * LANES}.
   */
  private final long[] query;

  /** Each lane's code plane, as a shift. */
  private final LongVector planeShift;

  private final int loads;

  /** The lanes of the last load that hold the code's words. */
  private final VectorMask<Long> lastLoad;

  VectorApiCodeCross(long[] queryPlanes, int words, int bits) {
    int codeWords = words * bits;
    this.loads = (codeWords + LANES - 1) / LANES;
    int qb = CentredCodes.QUERY_BITS;
    this.query = new long[loads * qb * LANES];
    for (int i = 0; i < codeWords; i++) {
      int k = i / LANES;
      int lane = i % LANES;
      int word = i / bits;
      for (int q = 0; q < qb; q++) {
        query[(k * qb + q) * LANES + lane] = queryPlanes[word * qb + q];
      }
    }
    long[] shifts = new long[LANES];
    for (int lane = 0; lane < LANES; lane++) {
      shifts[lane] = lane % bits;
    }
    this.planeShift = LongVector.fromArray(SPECIES, shifts, 0);
    int inLast = codeWords - (loads - 1) * LANES;
    this.lastLoad = VectorMask.fromLong(SPECIES, (1L << inLast) - 1);
  }

  @Override
  public long of(long[] planes, int at) {
    // One sum a query plane, shifted by its plane once at the end.
    LongVector s0 = LongVector.zero(SPECIES);
    LongVector s1 = s0;
    LongVector s2 = s0;
    LongVector s3 = s0;
    for (int k = 0, base = 0; k < loads; k++, base += CentredCodes.QUERY_BITS * LANES) {
      LongVector code =
          k < loads - 1
              ? LongVector.fromArray(SPECIES, planes, at + k * LANES)
              : LongVector.fromArray(SPECIES, planes, at + k * LANES, lastLoad);
      s0 = s0.add(count(base, code));
      s1 = s1.add(count(base + LANES, code));
      s2 = s2.add(count(base + 2 * LANES, code));
      s3 = s3.add(count(base + 3 * LANES, code));
    }
    LongVector byQueryPlane =
        s0.add(s1.lanewise(VectorOperators.LSHL, 1))
            .add(s2.lanewise(VectorOperators.LSHL, 2))
            .add(s3.lanewise(VectorOperators.LSHL, 3));
    return byQueryPlane.lanewise(VectorOperators.LSHL, planeShift).reduceLanes(VectorOperators.ADD);
  }

  /**
   * The set bits of each lane of the query plane at {@code offset} of {@link #query} and {@code
   * code}.
   */
  private LongVector count(int offset, LongVector code) {
    return LongVector.fromArray(SPECIES, query, offset)
        .and(code)
        .lanewise(VectorOperators.BIT_COUNT);
  }

  /** Makes the count for a query; refuses registers narrower than eight 64-bit lanes. */
  static final class Maker implements CodeCross.Factory {
    Maker() {
      if (LongVector.SPECIES_PREFERRED.vectorBitSize() < SPECIES.vectorBitSize()) {
        throw new UnsupportedOperationException(
            "registers of " + LongVector.SPECIES_PREFERRED.vectorBitSize() + " bits");
      }
    }

    @Override
    public CodeCross forQuery(long[] queryPlanes, int words, int bits) {
      return new VectorApiCodeCross(queryPlanes, words, bits);
    }
  }
}
