package dev.quarry.benchmarks.jmh;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.SignCodes;
import dev.quarry.engine.embed.VectorCodec;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the coded first pass's estimate costs per chunk before any of the engine's own work: the
 * codes of {@code codes} chunks laid out as the first pass reads a segment's ({@code SegmentCodes}:
 * each code's bytes as little-endian 64-bit words, one code after another in one {@code long[]}, a
 * centred code's factor and level sum in arrays of their own), and every one estimated against a
 * query: sign codes ({@link #sign}) or centred codes of {@code bits} bits ({@link #centred}).
 * {@link #centredFromBytes} estimates the same codes from their stored bytes, the layout the first
 * pass read before: the baseline, in the same run. An operation is one pass over every code: divide
 * by {@code codes} for the time per chunk, and compare with {@link VectorScanBenchmark#dot} for the
 * exact scan's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class CodeScanBenchmark {
  /** The shipped centre of bge-small-en-v1.5 (the SHA-256 of its weights). */
  private static final String MODEL =
      "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4";

  /** Chunks estimated per operation. */
  @Param({"100000"})
  public int codes;

  /** Bits a component of the centred codes. */
  @Param({"1", "2", "4"})
  public int bits;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] signCodes;
  private int signBytes;
  private long[] signWords;
  private int signWordsPerCode;
  private SignCodes.Query signQuery;
  private byte[] centredCodes;
  private int centredBytes;
  private long[] centredWords;
  private int centredWordsPerCode;
  private float[] centredFactors;
  private long[] centredLevelSums;
  private CentredCodes.Query centredQuery;

  @Setup(Level.Trial)
  public void codes() {
    SplittableRandom random = new SplittableRandom(42);
    CentredCodes centred =
        CentredCodes.of(MODEL, CentredCodes.centreFor(MODEL), CentredCodes.DEFAULT_SEED, bits);
    signBytes = SignCodes.bytes(384);
    centredBytes = centred.bytes();
    signCodes = new byte[codes * signBytes];
    centredCodes = new byte[codes * centredBytes];
    // Distinct vectors would take minutes to encode; 1,000 of them repeated give the same work per
    // code.
    int distinct = Math.min(codes, 1000);
    for (int v = 0; v < distinct; v++) {
      byte[] stored = VectorCodec.encode(unit(random));
      System.arraycopy(SignCodes.encode(stored), 0, signCodes, v * signBytes, signBytes);
      System.arraycopy(centred.encode(stored), 0, centredCodes, v * centredBytes, centredBytes);
    }
    for (int v = distinct; v < codes; v++) {
      System.arraycopy(signCodes, (v % distinct) * signBytes, signCodes, v * signBytes, signBytes);
      System.arraycopy(
          centredCodes,
          (v % distinct) * centredBytes,
          centredCodes,
          v * centredBytes,
          centredBytes);
    }
    float[] query = unit(random);
    signQuery = new SignCodes.Query(query);
    centredQuery = centred.query(query);

    signWordsPerCode = signBytes / Long.BYTES;
    signWords = words(signCodes, signBytes, signWordsPerCode);
    centredWordsPerCode = centredQuery.codeWords();
    centredWords = words(centredCodes, centredBytes, centredWordsPerCode);
    centredFactors = new float[codes];
    centredLevelSums = new long[codes];
    for (int v = 0; v < codes; v++) {
      int end = (v + 1) * centredBytes;
      centredFactors[v] = (float) FLOATS.get(centredCodes, end - Float.BYTES);
      centredLevelSums[v] =
          CentredCodes.Query.levelSum(
              centredWords, v * centredWordsPerCode, centredWordsPerCode, bits);
    }
    // The two layouts must give the same estimates, or the benchmark compares different work.
    for (int v = 0; v < distinct; v++) {
      float fromBytes = centredQuery.estimate(centredCodes, v * centredBytes);
      float fromWords =
          centredQuery.estimate(
              centredWords, v * centredWordsPerCode, centredFactors[v], centredLevelSums[v]);
      if (Float.compare(fromBytes, fromWords) != 0
          || Float.compare(
                  signQuery.estimate(signCodes, v * signBytes),
                  signQuery.estimate(signWords, v * signWordsPerCode))
              != 0) {
        throw new IllegalStateException("code " + v + ": the layouts disagree");
      }
    }
  }

  /** The first {@code wordsPerCode} words of every code of {@code bytesPerCode} bytes. */
  private long[] words(byte[] laidOut, int bytesPerCode, int wordsPerCode) {
    long[] words = new long[codes * wordsPerCode];
    for (int v = 0; v < codes; v++) {
      for (int w = 0; w < wordsPerCode; w++) {
        words[v * wordsPerCode + w] = (long) LONGS.get(laidOut, v * bytesPerCode + w * Long.BYTES);
      }
    }
    return words;
  }

  private static float[] unit(SplittableRandom random) {
    float[] v = new float[384];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < v.length; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }

  /** Estimates every sign code from its words (the same for every {@code bits}). */
  @Benchmark
  public float sign() {
    float sum = 0;
    for (int v = 0; v < codes; v++) {
      sum += signQuery.estimate(signWords, v * signWordsPerCode);
    }
    return sum;
  }

  /** Estimates every centred code from its words, factor and level sum, as the first pass does. */
  @Benchmark
  public float centred() {
    float sum = 0;
    for (int v = 0; v < codes; v++) {
      sum +=
          centredQuery.estimate(
              centredWords, v * centredWordsPerCode, centredFactors[v], centredLevelSums[v]);
    }
    return sum;
  }

  /** Estimates every centred code from its stored bytes: the baseline for {@link #centred}. */
  @Benchmark
  public float centredFromBytes() {
    float sum = 0;
    for (int v = 0; v < codes; v++) {
      sum += centredQuery.estimate(centredCodes, v * centredBytes);
    }
    return sum;
  }
}
