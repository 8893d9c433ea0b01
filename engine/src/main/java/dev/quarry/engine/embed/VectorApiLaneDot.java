package dev.quarry.engine.embed;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link VectorCodec#dot}'s order in the Vector API: lane {@code j} of one 8-float vector is
 * partial sum {@code j}, eight components at a time are converted from bytes, multiplied and then
 * added (two roundings, as in the scalar loop: never a fused multiply-add), and the lanes are added
 * in the documented pairwise order, not by {@code reduceLanes}, whose order is unspecified. So the
 * bits are those of {@link ScalarLaneDot}; {@code VectorCodecTest} checks them against each other.
 * Loaded by name only when the JVM has the incubator module (see {@link LaneDot#FASTEST}).
 */
final class VectorApiLaneDot implements LaneDot {
  private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_256;
  private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_64;

  static {
    assert FLOATS.length() == VectorCodec.LANES && BYTES.length() == VectorCodec.LANES;
  }

  /**
   * Refuses hardware that does not hold eight floats in a register, where the species is emulated.
   */
  VectorApiLaneDot() {
    if (FloatVector.SPECIES_PREFERRED.vectorBitSize() < FLOATS.vectorBitSize()) {
      throw new UnsupportedOperationException(
          "registers of " + FloatVector.SPECIES_PREFERRED.vectorBitSize() + " bits");
    }
  }

  @Override
  public float sum(float[] query, byte[] b, int off) {
    int n = query.length;
    int whole = n - n % VectorCodec.LANES;
    FloatVector lanes = FloatVector.zero(FLOATS);
    for (int i = 0; i < whole; i += VectorCodec.LANES) {
      FloatVector stored =
          (FloatVector)
              ByteVector.fromArray(BYTES, b, off + i).convertShape(VectorOperators.B2F, FLOATS, 0);
      lanes = lanes.add(FloatVector.fromArray(FLOATS, query, i).mul(stored));
    }
    float sum =
        ((lanes.lane(0) + lanes.lane(1)) + (lanes.lane(2) + lanes.lane(3)))
            + ((lanes.lane(4) + lanes.lane(5)) + (lanes.lane(6) + lanes.lane(7)));
    for (int i = whole; i < n; i++) {
      sum += query[i] * b[off + i];
    }
    return sum;
  }
}
