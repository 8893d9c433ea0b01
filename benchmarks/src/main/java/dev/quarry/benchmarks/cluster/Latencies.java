package dev.quarry.benchmarks.cluster;

import java.util.Arrays;

/**
 * Latencies of timed calls, in nanoseconds, and their percentiles in milliseconds (also used for
 * the CPU time per search of {@link dev.quarry.benchmarks.interleaved.InterleavedSearch}). Not
 * thread-safe.
 */
public final class Latencies {
  private final long[] nanos;
  private int count;

  public Latencies(int capacity) {
    nanos = new long[capacity];
  }

  public void add(long elapsedNanos) {
    nanos[count++] = elapsedNanos;
  }

  /**
   * The {@code percentile} (0 to 100, nearest rank) in milliseconds; NaN when nothing was timed.
   */
  public double percentileMillis(double percentile) {
    if (count == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percentile / 100 * count);
    return sorted[Math.clamp(rank - 1, 0, count - 1)] / 1e6;
  }
}
