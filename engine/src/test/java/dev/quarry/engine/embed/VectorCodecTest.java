package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.testing.TestSeed;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeed.class)
class VectorCodecTest {
  @Test
  void dot_addsInTheDocumentedOrder() {
    // Twenty components: two rounds through the eight lanes, then four added after the lanes' sum.
    float[] query = {
      0.1f, -0.2f, 0.3f, 0.05f, -0.7f, 0.11f, 0.013f, 0.9f, 0.4f, -0.25f, 0.37f, -0.011f, 0.29f,
      0.6f, -0.33f, 0.07f, 0.19f, -0.41f, 0.023f, 0.5f
    };
    byte[] stored = {
      12, -7, 100, 127, -127, 3, 55, -1, 64, 9, -88, 41, 17, -5, 99, -64, 33, 2, -120, 71
    };
    float[] lanes = new float[VectorCodec.LANES];
    int whole = query.length - query.length % VectorCodec.LANES;
    for (int i = 0; i < whole; i++) {
      lanes[i % VectorCodec.LANES] += query[i] * stored[i];
    }
    float documented =
        ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
            + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
    float running = 0f;
    for (int i = 0; i < query.length; i++) {
      running += query[i] * stored[i];
      if (i >= whole) {
        documented += query[i] * stored[i];
      }
    }
    // The input tells the documented order from one running sum, so the check below can fail.
    assertNotEquals(Float.floatToIntBits(running), Float.floatToIntBits(documented));
    assertEquals(
        Float.floatToIntBits(documented / VectorCodec.SCALE),
        Float.floatToIntBits(VectorCodec.dot(query, new BytesRef(stored))));
  }

  @Test
  void dot_isTheCosineUpToRounding_andDependsOnlyOnTheBytes(Random random) {
    for (int round = 0; round < 200; round++) {
      int dims = 1 + random.nextInt(400);
      float[] query = unit(random, dims);
      byte[] stored = VectorCodec.encode(unit(random, dims));
      double exact = 0;
      for (int i = 0; i < dims; i++) {
        exact += (double) query[i] * stored[i];
      }
      exact /= VectorCodec.SCALE;
      float dot = VectorCodec.dot(query, new BytesRef(stored));
      assertEquals(exact, dot, 1e-4, "dims " + dims);
      // The same bytes elsewhere in a larger array (as doc values hand them out) give the same
      // bits.
      int offset = random.nextInt(50);
      byte[] shifted = new byte[offset + dims + random.nextInt(50)];
      random.nextBytes(shifted);
      System.arraycopy(stored, 0, shifted, offset, dims);
      assertEquals(
          Float.floatToIntBits(dot),
          Float.floatToIntBits(VectorCodec.dot(query, new BytesRef(shifted, offset, dims))));
    }
  }

  @Test
  void vectorApiAndScalarLoop_giveTheSameBits(Random random) {
    assumeTrue(
        FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 256,
        "this processor has no 8-float registers");
    LaneDot vectorApi = new VectorApiLaneDot();
    // Where the JVM has the module and the registers (as these tests' JVM has), searches use it.
    assertSame(VectorApiLaneDot.class, LaneDot.FASTEST.getClass());
    for (int round = 0; round < 2_000; round++) {
      int dims = 1 + random.nextInt(800);
      float[] query = new float[dims];
      for (int i = 0; i < dims; i++) {
        // Magnitudes spread over many binades, so that every rounding of the scalar loop is
        // exercised.
        query[i] = (float) (random.nextGaussian() * Math.pow(2, random.nextInt(40) - 30));
      }
      int offset = random.nextInt(40);
      byte[] stored = new byte[offset + dims + random.nextInt(40)];
      random.nextBytes(stored);
      assertEquals(
          Float.floatToIntBits(ScalarLaneDot.INSTANCE.sum(query, stored, offset)),
          Float.floatToIntBits(vectorApi.sum(query, stored, offset)),
          "round " + round + ", dims " + dims);
    }
  }

  @Test
  void dot_refusesAStoredVectorOfAnotherLength() {
    assertThrows(
        IllegalStateException.class,
        () -> VectorCodec.dot(new float[4], new BytesRef(new byte[3])));
  }

  private static float[] unit(Random random, int dims) {
    float[] v = new float[dims];
    double norm = 0;
    for (int i = 0; i < dims; i++) {
      v[i] = (float) random.nextGaussian();
      norm += (double) v[i] * v[i];
    }
    for (int i = 0; i < dims; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }
}
