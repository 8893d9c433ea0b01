package dev.quarry.engine.embed;

/**
 * One way of computing {@link VectorCodec#dot}'s sum: a float query against stored bytes, in the
 * order {@link VectorCodec#dot} documents. Every implementation gives the same bits for the same
 * input; they differ only in speed. {@link #FASTEST} is the one this JVM runs best.
 */
interface LaneDot {
  /**
   * The sum over {@code query.length} components, before {@link VectorCodec#SCALE} is divided out.
   */
  float sum(float[] query, byte[] stored, int offset);

  /** The Vector API's when this JVM has it and wide enough registers, the scalar loop otherwise. */
  LaneDot FASTEST = choose();

  /**
   * Loads the Vector API implementation by name, so that a JVM without the incubator module {@code
   * jdk.incubator.vector} (an embedder that does not add it) never links against it. A species of 8
   * floats on hardware with narrower registers would be emulated, slower than the scalar loop;
   * there the scalar loop is chosen.
   */
  private static LaneDot choose() {
    if (Boolean.getBoolean("quarry.scalarDot")
        || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return ScalarLaneDot.INSTANCE;
    }
    try {
      Class<?> type = Class.forName("dev.quarry.engine.embed.VectorApiLaneDot");
      return (LaneDot) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      // Including the constructor's refusal (an InvocationTargetException) on narrow hardware.
      return ScalarLaneDot.INSTANCE;
    }
  }
}
