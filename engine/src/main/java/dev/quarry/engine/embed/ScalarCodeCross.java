package dev.quarry.engine.embed;

/** {@link CodeCross} in plain Java: a popcount a pair of planes, word after word. */
final class ScalarCodeCross implements CodeCross {
  private final long[] q;
  private final int words;
  private final int bits;

  ScalarCodeCross(long[] queryPlanes, int words, int bits) {
    this.q = queryPlanes;
    this.words = words;
    this.bits = bits;
  }

  @Override
  public long of(long[] planes, int at) {
    long cross = 0;
    int qb = CentredCodes.QUERY_BITS;
    if (bits == 2) {
      for (int w = 0, qa = 0; w < words; w++, at += 2, qa += qb) {
        long c0 = planes[at];
        long c1 = planes[at + 1];
        long q0 = q[qa];
        long q1 = q[qa + 1];
        long q2 = q[qa + 2];
        long q3 = q[qa + 3];
        cross +=
            Long.bitCount(q0 & c0)
                + ((long) (Long.bitCount(q1 & c0) + Long.bitCount(q0 & c1)) << 1)
                + ((long) (Long.bitCount(q2 & c0) + Long.bitCount(q1 & c1)) << 2)
                + ((long) (Long.bitCount(q3 & c0) + Long.bitCount(q2 & c1)) << 3)
                + ((long) Long.bitCount(q3 & c1) << 4);
      }
      return cross;
    }
    for (int w = 0, qa = 0; w < words; w++, qa += qb) {
      long q0 = q[qa];
      long q1 = q[qa + 1];
      long q2 = q[qa + 2];
      long q3 = q[qa + 3];
      for (int b = 0; b < bits; b++, at++) {
        long c = planes[at];
        long part =
            Long.bitCount(q0 & c)
                + ((long) Long.bitCount(q1 & c) << 1)
                + ((long) Long.bitCount(q2 & c) << 2)
                + ((long) Long.bitCount(q3 & c) << 3);
        cross += part << b;
      }
    }
    return cross;
  }
}
