package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestSeed;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SignCodes}: a code holds the stored bytes' signs in component order, and a query's
 * estimate is the sum of its components where the code's bit is set, up to the query's quantization
 * (half a level a component at most).
 */
class SignCodesTest {
  @Test
  @ExtendWith(TestSeed.class)
  void theEstimate_isTheSumOverSetBits_withinTheQuerysQuantization(Random random) {
    for (int trial = 0; trial < 200; trial++) {
      int dimensions = 1 + random.nextInt(trial % 2 == 0 ? 384 : 1100);
      float[] vector = unit(random, dimensions);
      float[] query = unit(random, dimensions);
      byte[] stored = VectorCodec.encode(vector);
      byte[] code = SignCodes.encode(stored);
      assertEquals(SignCodes.bytes(dimensions), code.length);
      assertArrayEquals(
          code, SignCodes.encode(vector), "the code of a vector is the code of its stored bytes");
      double sum = 0;
      float min = Float.POSITIVE_INFINITY;
      float max = Float.NEGATIVE_INFINITY;
      for (int i = 0; i < dimensions; i++) {
        boolean set = (code[i >>> 3] >>> (i & 7) & 1) != 0;
        assertEquals(stored[i] > 0, set, "bit " + i);
        sum += set ? query[i] : 0;
        min = Math.min(min, query[i]);
        max = Math.max(max, query[i]);
      }
      for (int i = dimensions; i < code.length * 8; i++) {
        assertEquals(0, code[i >>> 3] >>> (i & 7) & 1, "padding bit " + i);
      }
      SignCodes.Query q = new SignCodes.Query(query);
      double halfLevel = (max - min) / ((1 << SignCodes.QUERY_BITS) - 1) / 2.0;
      float estimate = q.estimate(code, 0);
      assertTrue(
          Math.abs(estimate - sum) <= dimensions * halfLevel + 1e-5,
          "estimate " + estimate + " against " + sum);
      byte[] shifted = new byte[code.length + 5];
      System.arraycopy(code, 0, shifted, 5, code.length);
      assertEquals(
          estimate, q.estimate(shifted, 5), "the estimate depends on the code's bytes alone");
    }
  }

  private static float[] unit(Random random, int dimensions) {
    float[] v = new float[dimensions];
    double norm = 0;
    for (int i = 0; i < dimensions; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < dimensions; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }
}
