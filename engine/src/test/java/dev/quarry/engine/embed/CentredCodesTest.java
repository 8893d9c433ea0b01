package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.TestSeed;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link CentredCodes}: the rotation is orthogonal and the same for a seed; the shipped centres are
 * the ones corpora recorded (pinned by SHA-256, so a change of one is seen here before it changes
 * an answer); and a query's estimate is the code's factor times the dot product of the code's
 * centred levels with the quantized rotated query, computed here directly.
 */
class CentredCodesTest {
  /** The SHA-256 of each shipped model's weights, and of its centre as corpora record it. */
  private static final Map<String, String> SHIPPED =
      Map.of(
          // bge-small-zh-v1.5
          "15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc",
          "8a400a77c41fb90b13c3e4d67dd37cb6e399762695c5f62462504df380198151",
          // bge-small-en-v1.5
          "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
          "706e82fa891b8792ea9bbbe24ad722697c45ac93f16dea4dac68589adcadedae",
          // e5-small-v2
          "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
          "496103bbc73c4992ee93ca4bddb1c5a76ea8de74d288beef69fd12f03a33af87",
          // all-minilm-l6-v2
          "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
          "8c5869296080947d11cf8b9c1351c86b804cf342ede42a81ba82bb7830e0c450");

  /** The test model's made-up centre (HashingEmbedder, 384 dimensions). */
  private static final String TEST_MODEL =
      "838d08fab96b64501d6b71eace37a8a3b064d9f75c432060ba8cece0bb48a4a9";

  @Test
  void theShippedCentres_areTheRecordedOnes() {
    SHIPPED.forEach((model, centre) -> assertEquals(centre, CentredCodes.centreFor(model), model));
    assertNull(CentredCodes.centreFor("0".repeat(64)), "no centre ships for an unknown model");
    QuarryException refused =
        assertThrows(
            QuarryException.class,
            () -> CentredCodes.of(TEST_MODEL, "0".repeat(64), 1, 1),
            "a recorded centre that does not ship is refused, not replaced");
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, refused.code());
  }

  @Test
  void theRotation_isOrthogonal_andAFunctionOfItsSeed() {
    int d = 96;
    double[] r = CentredCodes.rotation(d, 42);
    assertArrayEquals(r, CentredCodes.rotation(d, 42));
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        double dot = 0;
        for (int k = 0; k < d; k++) {
          dot += r[i * d + k] * r[j * d + k];
        }
        assertEquals(i == j ? 1 : 0, dot, 1e-9, i + "," + j);
      }
    }
    assertTrue(CentredCodes.rotation(d, 43)[0] != r[0], "another seed, another rotation");
  }

  @Test
  @ExtendWith(TestSeed.class)
  void theEstimate_isTheFactorTimesLevelsDotQuantizedQuery(Random random) {
    String centre = CentredCodes.centreFor(TEST_MODEL);
    for (int bits = 1; bits <= 4; bits++) {
      CentredCodes codes = CentredCodes.of(TEST_MODEL, centre, CentredCodes.DEFAULT_SEED, bits);
      double[] rotation = CentredCodes.rotation(384, CentredCodes.DEFAULT_SEED);
      for (int trial = 0; trial < 20; trial++) {
        byte[] stored = VectorCodec.encode(unit(random, 384));
        float[] query = unit(random, 384);
        byte[] code = codes.encode(stored);
        assertEquals(codes.bytes(), code.length);
        assertArrayEquals(code, codes.encode(stored.clone()), "a function of the stored bytes");
        int words = 6;
        int[] levels = new int[384];
        for (int i = 0; i < 384; i++) {
          for (int b = 0; b < bits; b++) {
            int bit = (i >>> 6) * bits + b;
            long word = 0;
            for (int k = 0; k < 8; k++) {
              word |= (code[bit * 8 + k] & 0xffL) << (8 * k);
            }
            levels[i] |= (int) ((word >>> (i & 63)) & 1) << b;
          }
        }
        assertEquals(words * bits * 8 + 4, code.length);
        // The rotated query, quantized to 16 levels between its least and greatest component.
        double[] y = new double[384];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 384; i++) {
          for (int k = 0; k < 384; k++) {
            y[i] += rotation[i * 384 + k] * query[k];
          }
          min = Math.min(min, y[i]);
          max = Math.max(max, y[i]);
        }
        double step = (max - min) / 15;
        double dot = 0;
        double half = (1 << (bits - 1)) - 0.5;
        for (int i = 0; i < 384; i++) {
          double quantized = min + step * Math.round((y[i] - min) / step);
          dot += (levels[i] - half) * quantized;
        }
        float factor =
            Float.intBitsToFloat(
                (code[code.length - 4] & 0xff)
                    | (code[code.length - 3] & 0xff) << 8
                    | (code[code.length - 2] & 0xff) << 16
                    | (code[code.length - 1] & 0xff) << 24);
        float estimate = codes.query(query).estimate(code, 0);
        assertEquals(
            factor * dot, estimate, 1e-4 * Math.max(1, Math.abs(factor * dot)), "bits " + bits);
      }
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void moreBits_estimateCloser(Random random) {
    String centre = CentredCodes.centreFor(TEST_MODEL);
    double[] error = new double[5];
    for (int trial = 0; trial < 200; trial++) {
      float[] vector = unit(random, 384);
      float[] query = unit(random, 384);
      byte[] stored = VectorCodec.encode(vector);
      float[] c = CentredCodes.centre(TEST_MODEL, centre);
      double exact = 0; // <x - c, q> over the stored vector
      for (int i = 0; i < 384; i++) {
        exact += (stored[i] / (double) VectorCodec.SCALE - c[i]) * query[i];
      }
      for (int bits = 1; bits <= 4; bits++) {
        CentredCodes codes = CentredCodes.of(TEST_MODEL, centre, CentredCodes.DEFAULT_SEED, bits);
        error[bits] += Math.abs(codes.query(query).estimate(codes.encode(stored), 0) - exact);
      }
    }
    assertTrue(
        error[2] < error[1] && error[4] < error[2],
        "mean errors by bits: "
            + error[1] / 200
            + ", "
            + error[2] / 200
            + ", "
            + error[3] / 200
            + ", "
            + error[4] / 200);
  }

  private static float[] unit(Random random, int d) {
    float[] v = new float[d];
    double norm = 0;
    for (int i = 0; i < d; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < d; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }
}
