package dev.quarry.engine.embed;

/** {@link VectorCodec#dot}'s order written out in plain Java: its definition, and the fallback. */
final class ScalarLaneDot implements LaneDot {
  static final ScalarLaneDot INSTANCE = new ScalarLaneDot();

  private ScalarLaneDot() {}

  @Override
  public float sum(float[] query, byte[] b, int off) {
    int n = query.length;
    int whole = n - n % VectorCodec.LANES;
    float s0 = 0f;
    float s1 = 0f;
    float s2 = 0f;
    float s3 = 0f;
    float s4 = 0f;
    float s5 = 0f;
    float s6 = 0f;
    float s7 = 0f;
    for (int i = 0; i < whole; i += VectorCodec.LANES) {
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
    return sum;
  }
}
