package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The first pass's fast paths give the same bits as the plain ones: a code's estimate read as words
 * (and a trailing factor) is the estimate read from its bytes, for sign codes and centred codes of
 * every width (the count of planes in the Vector API is the scalar loop's); and the rotation, four
 * rows at a time, is each row's sum in component order. An answer depends on these bits (the
 * candidates are the best estimates, ties included), so equal within a tolerance would not do.
 */
class CodeWordsTest {
  /** The test model's made-up centre (HashingEmbedder, 384 dimensions). */
  private static final String TEST_MODEL =
      "838d08fab96b64501d6b71eace37a8a3b064d9f75c432060ba8cece0bb48a4a9";

  @Test
  @ExtendWith(TestSeed.class)
  void centredEstimates_fromWords_areTheEstimatesFromBytes(Random random) {
    String centre = CentredCodes.centreFor(TEST_MODEL);
    for (int bits = 1; bits <= 4; bits++) {
      CentredCodes codes = CentredCodes.of(TEST_MODEL, centre, CentredCodes.DEFAULT_SEED, bits);
      for (int trial = 0; trial < 50; trial++) {
        byte[] code = codes.encode(VectorCodec.encode(unit(random)));
        CentredCodes.Query query = codes.query(unit(random));
        assertEquals(code.length, query.codeWords() * Long.BYTES + Float.BYTES);
        ByteBuffer b = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
        long[] words = new long[query.codeWords() + 3];
        for (int w = 0; w < query.codeWords(); w++) {
          words[3 + w] = b.getLong(w * Long.BYTES);
        }
        float factor = b.getFloat(query.codeWords() * Long.BYTES);
        assertEquals(
            Float.floatToRawIntBits(query.estimate(code, 0)),
            Float.floatToRawIntBits(
                query.estimate(
                    words,
                    3,
                    factor,
                    CentredCodes.Query.levelSum(words, 3, query.codeWords(), bits))),
            "bits " + bits);
      }
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void signEstimates_fromWords_areTheEstimatesFromBytes(Random random) {
    for (int trial = 0; trial < 50; trial++) {
      byte[] code = SignCodes.encode(unit(random));
      SignCodes.Query query = new SignCodes.Query(unit(random));
      ByteBuffer b = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
      long[] words = new long[code.length / Long.BYTES + 1];
      for (int w = 0; w + 1 < words.length; w++) {
        words[1 + w] = b.getLong(w * Long.BYTES);
      }
      assertEquals(
          Float.floatToRawIntBits(query.estimate(code, 0)),
          Float.floatToRawIntBits(query.estimate(words, 1)));
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void theRotation_isEachRowsSumInComponentOrder(Random random) {
    CentredCodes codes = CentredCodes.of(TEST_MODEL, CentredCodes.centreFor(TEST_MODEL), 7, 2);
    double[] rotation = CentredCodes.rotation(384, 7);
    for (int trial = 0; trial < 5; trial++) {
      double[] x = new double[384];
      for (int i = 0; i < x.length; i++) {
        x[i] = random.nextGaussian();
      }
      double[] want = new double[384];
      for (int i = 0; i < 384; i++) {
        double s = 0;
        for (int k = 0; k < 384; k++) {
          s += rotation[i * 384 + k] * x[k];
        }
        want[i] = s;
      }
      assertArrayEquals(want, codes.rotate(x), "the same bits");
    }
  }

  private static float[] unit(Random random) {
    float[] v = new float[384];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }

  @Test
  @ExtendWith(TestSeed.class)
  void vectorApiCount_isTheScalarCount(Random random) {
    // Constructed directly: correct on any processor (emulated where it has no vector popcount),
    // which decides only whether searches use it.
    for (int round = 0; round < 3_000; round++) {
      int words = 1 + random.nextInt(10);
      int bits = new int[] {1, 2, 4}[random.nextInt(3)];
      long[] query = new long[words * CentredCodes.QUERY_BITS];
      for (int i = 0; i < query.length; i++) {
        query[i] = random.nextLong();
      }
      int at = random.nextInt(20);
      // The code ends the array (the last load is masked) or has words after it.
      long[] planes = new long[at + words * bits + (random.nextBoolean() ? 0 : random.nextInt(9))];
      for (int i = 0; i < planes.length; i++) {
        planes[i] = random.nextLong();
      }
      assertEquals(
          new ScalarCodeCross(query, words, bits).of(planes, at),
          new VectorApiCodeCross(query, words, bits).of(planes, at),
          "round " + round + ", " + words + " words, " + bits + " bits");
    }
  }
}
