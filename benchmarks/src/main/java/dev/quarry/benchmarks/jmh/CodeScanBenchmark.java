package dev.quarry.benchmarks.jmh;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.SignCodes;
import dev.quarry.engine.embed.VectorCodec;
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
 * codes of {@code codes} chunks laid out one after another in one array, as the first pass reads a
 * segment's ({@code SegmentCodes}), and every one estimated against a query: sign codes ({@link
 * #sign}) or centred codes of {@code bits} bits ({@link #centred}). An operation is one pass over
 * every code: divide by {@code codes} for the time per chunk, and compare with {@link
 * VectorScanBenchmark#dot} for the exact scan's.
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

  private byte[] signCodes;
  private int signBytes;
  private SignCodes.Query signQuery;
  private byte[] centredCodes;
  private int centredBytes;
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

  /** Estimates every sign code (the same for every {@code bits}). */
  @Benchmark
  public float sign() {
    float sum = 0;
    for (int v = 0; v < codes; v++) {
      sum += signQuery.estimate(signCodes, v * signBytes);
    }
    return sum;
  }

  /** Estimates every centred code. */
  @Benchmark
  public float centred() {
    float sum = 0;
    for (int v = 0; v < codes; v++) {
      sum += centredQuery.estimate(centredCodes, v * centredBytes);
    }
    return sum;
  }
}
