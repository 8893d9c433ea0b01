package dev.quarry.engine.embed;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Codes of stored vectors for the coded first pass, from parameters frozen when a corpus is
 * created: a centre (the mean vector of the model's passages over a fixed public sample, shipped
 * with the engine and named by its SHA-256) and a random orthogonal rotation drawn from a recorded
 * seed. A chunk's code is {@code bits} bits a component of its rotated, centred, normalised
 * residual {@code u = R (x - c) / |x - c|}, plus one correction factor (RaBitQ's estimator, Gao and
 * Long, SIGMOD 2024, widened to several bits a component): the query's estimate against a code is
 * {@code |x - c| <v, R q> / <v, u>}, where {@code v} is the code's levels taken as a vector, which
 * estimates {@code <x - c, q>} and so ranks as {@code <x, q>} does ({@code <c, q>} is the same for
 * every chunk).
 *
 * <p>Everything here is a pure function of the stored bytes ({@link VectorCodec}) and the frozen
 * parameters: the rotation is drawn from a SplitMix64 stream and {@link StrictMath}, made
 * orthogonal by Gram-Schmidt in one fixed order, and every estimate is integer popcounts followed
 * by one fixed floating-point expression. A code does not depend on a segment, a merge or the other
 * chunks of the corpus. Pure Java on purpose (no Lucene): a store that keeps vectors elsewhere
 * computes the same codes and estimates with this class.
 *
 * <p>A code of {@code d} components and {@code b} bits is {@link #bytes} long: for each 64
 * components, {@code b} little-endian longs (bit plane 0, the least significant bit of each
 * component's level, first), the last group padded with zeros; then the factor as a little-endian
 * float.
 */
public final class CentredCodes {
  /** The seed of every corpus created so far; a corpus records its own. */
  public static final long DEFAULT_SEED = 20_261_205L;

  /** Levels of a quantized query: 2^4 (RaBitQ's choice: its error is small beside the code's). */
  public static final int QUERY_BITS = 4;

  /**
   * Half the range multi-bit levels span, in standard deviations of a component ({@code
   * 1/sqrt(d)}).
   */
  static final double RANGE_SIGMAS = 2.5;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final Map<String, CentredCodes> CACHE = new ConcurrentHashMap<>();

  /** Where the shipped centres are: one file a model, named by the SHA-256 of its weights. */
  static final String CENTRES_FOLDER = "centres/";

  private final float[] centre;
  private final double[] rotation; // row-major, d x d
  private final int dimensions;
  private final int bits;
  private final int words;

  private CentredCodes(float[] centre, long seed, int bits) {
    this.centre = centre.clone();
    this.dimensions = centre.length;
    this.bits = bits;
    this.words = (dimensions + 63) / 64;
    this.rotation = rotation(dimensions, seed);
  }

  /**
   * The codes of {@code bits} bits a component (1 to 4) around the centre shipped for the model of
   * weights {@code modelSha256}, which must be the one named {@code centre} (its SHA-256, as {@link
   * #centreFor} gave it when the corpus was created), rotated by the rotation of {@code seed}.
   *
   * @throws QuarryException EMBEDDING_UNAVAILABLE when that centre no longer ships with the model
   */
  public static CentredCodes of(String modelSha256, String centre, long seed, int bits) {
    if (bits < 1 || bits > 4) {
      throw new IllegalArgumentException("bits must be 1 to 4; got " + bits);
    }
    return CACHE.computeIfAbsent(
        modelSha256 + "/" + centre + "/" + seed + "/" + bits,
        k -> new CentredCodes(shipped(modelSha256, centre), seed, bits));
  }

  /**
   * The centre shipped for the model whose weights have SHA-256 {@code modelSha256}, named by its
   * own SHA-256 (of the resource's bytes), or null when none ships for that model. A corpus created
   * with centred codes records this name.
   */
  public static String centreFor(String modelSha256) {
    byte[] text = modelSha256 == null ? null : resource(CENTRES_FOLDER + modelSha256 + ".txt");
    return text == null ? null : sha256(text);
  }

  /**
   * The centre {@link #of} reads: the one shipped for the model, which must be the one named {@code
   * centre}.
   */
  static float[] centre(String modelSha256, String centre) {
    return shipped(modelSha256, centre);
  }

  private static float[] shipped(String modelSha256, String centre) {
    byte[] text = resource(CENTRES_FOLDER + modelSha256 + ".txt");
    if (text == null || !sha256(text).equals(centre)) {
      // As for a model whose weights changed: the corpus's codes cannot be read by this release.
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "the centre this corpus's coded first pass was created with (SHA-256 "
              + centre
              + ") does not ship with this server for its model (SHA-256 "
              + modelSha256
              + "); search it with exact: true, or recreate it");
    }
    return parse(text);
  }

  static byte[] resource(String name) {
    try (InputStream in = CentredCodes.class.getResourceAsStream(name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }

  private static float[] parse(byte[] text) {
    String[] lines = new String(text, StandardCharsets.UTF_8).trim().split("\n");
    float[] out = new float[lines.length];
    for (int i = 0; i < lines.length; i++) {
      out[i] = Float.parseFloat(lines[i].trim());
    }
    return out;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A random orthogonal matrix: Gaussian entries from a SplitMix64 stream seeded with {@code seed}
   * (Box-Muller with {@link StrictMath}), rows made orthonormal by modified Gram-Schmidt in row
   * order. The same bits on every JVM.
   */
  static double[] rotation(int d, long seed) {
    double[] m = new double[d * d];
    long state = seed;
    for (int i = 0; i < m.length; i += 2) {
      state += 0x9E3779B97F4A7C15L;
      double u1 = ((mix(state) >>> 11) + 1) * 0x1.0p-53;
      state += 0x9E3779B97F4A7C15L;
      double u2 = (mix(state) >>> 11) * 0x1.0p-53;
      double r = StrictMath.sqrt(-2 * StrictMath.log(u1));
      m[i] = r * StrictMath.cos(2 * StrictMath.PI * u2);
      if (i + 1 < m.length) {
        m[i + 1] = r * StrictMath.sin(2 * StrictMath.PI * u2);
      }
    }
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < i; j++) {
        double dot = 0;
        for (int k = 0; k < d; k++) {
          dot += m[i * d + k] * m[j * d + k];
        }
        for (int k = 0; k < d; k++) {
          m[i * d + k] -= dot * m[j * d + k];
        }
      }
      double norm = 0;
      for (int k = 0; k < d; k++) {
        norm += m[i * d + k] * m[i * d + k];
      }
      double inverse = 1 / StrictMath.sqrt(norm);
      for (int k = 0; k < d; k++) {
        m[i * d + k] *= inverse;
      }
    }
    return m;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * {@code R x}. Each component is its row's sum in component order (the same bits as one row at a
   * time); four rows are summed side by side so that their additions do not wait on one another.
   */
  double[] rotate(double[] x) {
    double[] out = new double[dimensions];
    int d = dimensions;
    int i = 0;
    for (; i + 4 <= d; i += 4) {
      double s0 = 0;
      double s1 = 0;
      double s2 = 0;
      double s3 = 0;
      int r0 = i * d;
      int r1 = r0 + d;
      int r2 = r1 + d;
      int r3 = r2 + d;
      for (int k = 0; k < d; k++) {
        double xk = x[k];
        s0 += rotation[r0 + k] * xk;
        s1 += rotation[r1 + k] * xk;
        s2 += rotation[r2 + k] * xk;
        s3 += rotation[r3 + k] * xk;
      }
      out[i] = s0;
      out[i + 1] = s1;
      out[i + 2] = s2;
      out[i + 3] = s3;
    }
    for (; i < dimensions; i++) {
      double s = 0;
      int row = i * dimensions;
      for (int k = 0; k < dimensions; k++) {
        s += rotation[row + k] * x[k];
      }
      out[i] = s;
    }
    return out;
  }

  /** The length of a code, in bytes. */
  public int bytes() {
    return words * bits * Long.BYTES + Float.BYTES;
  }

  public int bits() {
    return bits;
  }

  /** The code of a stored vector (the bytes {@link VectorCodec#encode} gives). */
  public byte[] encode(byte[] stored) {
    if (stored.length != dimensions) {
      throw new IllegalArgumentException(
          "vector has " + stored.length + " components; codes have " + dimensions);
    }
    double[] residual = new double[dimensions];
    double norm = 0;
    for (int i = 0; i < dimensions; i++) {
      residual[i] = stored[i] / (double) VectorCodec.SCALE - centre[i];
      norm += residual[i] * residual[i];
    }
    norm = StrictMath.sqrt(norm);
    double[] u = rotate(residual);
    int top = (1 << bits) - 1;
    double half = (1 << (bits - 1)) - 0.5;
    double range = RANGE_SIGMAS / StrictMath.sqrt(dimensions);
    long[] planes = new long[words * bits];
    double vu = 0;
    for (int i = 0; i < dimensions; i++) {
      double unit = norm == 0 ? 0 : u[i] / norm;
      int level =
          bits == 1
              ? (unit >= 0 ? 1 : 0)
              : (int)
                  Math.max(0, Math.min(top, Math.floor((unit + range) / (2 * range) * (top + 1))));
      vu += (level - half) * unit;
      for (int b = 0; b < bits; b++) {
        if ((level >>> b & 1) != 0) {
          planes[(i >>> 6) * bits + b] |= 1L << (i & 63);
        }
      }
    }
    float factor = vu == 0 ? 0f : (float) (norm / vu);
    byte[] out = new byte[bytes()];
    for (int w = 0; w < planes.length; w++) {
      LONGS.set(out, w * Long.BYTES, planes[w]);
    }
    FLOATS.set(out, planes.length * Long.BYTES, factor);
    return out;
  }

  /** A query prepared for estimates: its rotated components as bit planes of 4-bit levels. */
  public Query query(float[] query) {
    return new Query(this, query);
  }

  /** A query prepared for estimates against one corpus's codes. */
  public static final class Query {
    private final long[] planes; // word w, query bit q at w * QUERY_BITS + q
    private final double low;
    private final double step;
    private final double constant; // (0.5 - 2^(bits-1)) * (low * d + step * sum of levels)
    private final int words;
    private final int bits;
    private final int codeBytes;

    /** The count of {@link #estimate(long[], int, float, long)}: the fastest this JVM has. */
    private final CodeCross cross;

    private Query(CentredCodes codes, float[] query) {
      double[] x = new double[codes.dimensions];
      for (int i = 0; i < x.length; i++) {
        x[i] = query[i];
      }
      double[] y = codes.rotate(x);
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (double v : y) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      int top = (1 << QUERY_BITS) - 1;
      this.low = min;
      this.step = max == min ? 0 : (max - min) / top;
      this.words = codes.words;
      this.bits = codes.bits;
      this.codeBytes = codes.bytes();
      this.planes = new long[words * QUERY_BITS];
      long levels = 0;
      for (int i = 0; i < y.length; i++) {
        int level = step == 0 ? 0 : (int) Math.min(top, Math.round((y[i] - low) / step));
        levels += level;
        for (int b = 0; b < QUERY_BITS; b++) {
          if ((level >>> b & 1) != 0) {
            planes[(i >>> 6) * QUERY_BITS + b] |= 1L << (i & 63);
          }
        }
      }
      double offset = 0.5 - (1 << (bits - 1));
      this.constant = offset * (low * codes.dimensions + step * levels);
      this.cross = CodeCross.FASTEST.forQuery(planes, words, bits);
    }

    /** The code length this query reads, in bytes. */
    public int codeBytes() {
      return codeBytes;
    }

    /**
     * The query's bit planes: word {@code w} of the code's components, query bit {@code q}, at
     * {@code w * QUERY_BITS + q}. A copy.
     */
    public long[] planes() {
      return planes.clone();
    }

    /** The level 0 of the quantized query: the least rotated component. */
    public double low() {
      return low;
    }

    /** One level of the quantized query. */
    public double step() {
      return step;
    }

    /** The part of every estimate that depends on the query alone (before the code's factor). */
    public double constant() {
      return constant;
    }

    /**
     * The estimate against the code at {@code offset} of {@code codes}: the code's factor times
     * {@code <v, y>}, with {@code v} the code's centred levels and {@code y} the quantized rotated
     * query, from integer counts (the same in any order) and one expression.
     */
    public float estimate(byte[] codes, int offset) {
      long levelSum = 0; // sum of the code's levels
      long cross = 0; // sum of code level times query level
      long[] q = planes;
      if (bits == 1) {
        for (int w = 0, at = offset, qa = 0; w < words; w++, at += Long.BYTES, qa += QUERY_BITS) {
          long c = (long) LONGS.get(codes, at);
          levelSum += Long.bitCount(c);
          cross +=
              Long.bitCount(q[qa] & c)
                  + ((long) Long.bitCount(q[qa + 1] & c) << 1)
                  + ((long) Long.bitCount(q[qa + 2] & c) << 2)
                  + ((long) Long.bitCount(q[qa + 3] & c) << 3);
        }
      } else if (bits == 2) {
        for (int w = 0, at = offset, qa = 0;
            w < words;
            w++, at += 2 * Long.BYTES, qa += QUERY_BITS) {
          long c0 = (long) LONGS.get(codes, at);
          long c1 = (long) LONGS.get(codes, at + Long.BYTES);
          levelSum += Long.bitCount(c0) + ((long) Long.bitCount(c1) << 1);
          cross +=
              Long.bitCount(q[qa] & c0)
                  + ((long) Long.bitCount(q[qa + 1] & c0) << 1)
                  + ((long) Long.bitCount(q[qa + 2] & c0) << 2)
                  + ((long) Long.bitCount(q[qa + 3] & c0) << 3)
                  + ((long) Long.bitCount(q[qa] & c1) << 1)
                  + ((long) Long.bitCount(q[qa + 1] & c1) << 2)
                  + ((long) Long.bitCount(q[qa + 2] & c1) << 3)
                  + ((long) Long.bitCount(q[qa + 3] & c1) << 4);
        }
      } else {
        for (int w = 0, at = offset, qa = 0; w < words; w++, qa += QUERY_BITS) {
          long q0 = q[qa];
          long q1 = q[qa + 1];
          long q2 = q[qa + 2];
          long q3 = q[qa + 3];
          for (int b = 0; b < bits; b++, at += Long.BYTES) {
            long c = (long) LONGS.get(codes, at);
            long part =
                Long.bitCount(q0 & c)
                    + ((long) Long.bitCount(q1 & c) << 1)
                    + ((long) Long.bitCount(q2 & c) << 2)
                    + ((long) Long.bitCount(q3 & c) << 3);
            levelSum += (long) Long.bitCount(c) << b;
            cross += part << b;
          }
        }
      }
      float factor = (float) FLOATS.get(codes, offset + codeBytes - Float.BYTES);
      return (float) (factor * (low * levelSum + step * cross + constant));
    }

    /**
     * Words an array of codes should hold past its last code for {@link #estimate(long[], int,
     * float, long)} to read every code at full speed (any array gives the same estimates).
     */
    public static final int SLACK_WORDS = CodeCross.SLACK_WORDS;

    /** The code length this query reads, in whole 64-bit words (the planes before the factor). */
    public int codeWords() {
      return words * bits;
    }

    /**
     * The sum of the levels of the code of {@code codeWords} words at {@code at} of {@code planes},
     * with {@code bits} planes a word (word {@code k} is plane {@code k % bits}).
     */
    public static long levelSum(long[] planes, int at, int codeWords, int bits) {
      long sum = 0;
      for (int k = 0; k < codeWords; k++) {
        sum += (long) Long.bitCount(planes[at + k]) << (k % bits);
      }
      return sum;
    }

    /**
     * The same estimate as {@link #estimate(byte[], int)}, to the bit, of a code laid out as words:
     * its planes at {@code at} of {@code planes} (the code's bytes read as little-endian longs),
     * its {@code factor}, and its {@code levelSum} ({@link #levelSum}, a function of the code
     * computed once with it). The integer counts are the same whatever the layout, and the final
     * expression is the same one.
     */
    public float estimate(long[] planes, int at, float factor, long levelSum) {
      long cross = this.cross.of(planes, at);
      return (float) (factor * (low * levelSum + step * cross + constant));
    }
  }
}
