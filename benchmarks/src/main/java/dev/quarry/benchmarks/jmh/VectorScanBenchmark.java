package dev.quarry.benchmarks.jmh;

import dev.quarry.engine.embed.VectorCodec;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.util.BytesRef;
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
 * What an exact semantic scan costs per chunk before any of the engine's own work: the stored int8
 * vectors of {@code vectors} chunks laid out one after another, as a segment's doc values hold
 * them, and either every one scored against a query with {@link VectorCodec#dot} ({@link #dot}) or
 * only its bytes read ({@link #read}, the floor that reading the memory sets). At 2,000 vectors
 * (768 KB) they stay in the processor's caches; at 100,000 (38 MB, what a search of 100,000 chunks
 * reads) they stream from memory on every pass. An operation is one pass over every vector: divide
 * by {@code vectors} for the time per chunk. The forks run with {@code jdk.incubator.vector}, so
 * {@link VectorCodec#dot} takes the Vector API path where the hardware has it, as in {@code quarry
 * serve}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class VectorScanBenchmark {
  /** Chunks scanned per operation: a cached few, or a search of 100,000 chunks. */
  @Param({"2000", "100000"})
  public int vectors;

  /** Components per vector: every shipped model's. */
  @Param("384")
  public int dimensions;

  private byte[] stored;
  private float[] query;
  private final BytesRef slice = new BytesRef();

  @Setup(Level.Trial)
  public void vectors() {
    SplittableRandom random = new SplittableRandom(42);
    stored = new byte[vectors * dimensions];
    for (int i = 0; i < stored.length; i++) {
      stored[i] =
          (byte) random.nextInt(-40, 41); // components of a unit vector, at 254 units per 1.0
    }
    query = new float[dimensions];
    for (int i = 0; i < dimensions; i++) {
      query[i] = (float) (random.nextGaussian() / Math.sqrt(dimensions));
    }
    slice.bytes = stored;
    slice.length = dimensions;
  }

  /** Scores every vector; the sum keeps the loop from being removed. */
  @Benchmark
  public float dot() {
    float sum = 0;
    for (int v = 0; v < vectors; v++) {
      slice.offset = v * dimensions;
      sum += VectorCodec.dot(query, slice);
    }
    return sum / vectors;
  }

  /** Reads every byte of every vector and nothing more. */
  @Benchmark
  public long read() {
    long sum = 0;
    byte[] b = stored;
    for (int i = 0; i < b.length; i++) {
      sum += b[i];
    }
    return sum;
  }
}
