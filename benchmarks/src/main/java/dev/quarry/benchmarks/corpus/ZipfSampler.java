package dev.quarry.benchmarks.corpus;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Draws ranks {@code 0..n-1} with probability proportional to {@code 1 / (rank + 1)^exponent}: the
 * shape of word frequencies in natural language (Zipf's law). Immutable and thread-safe; the caller
 * supplies the randomness.
 */
final class ZipfSampler {
  private final double[] cumulative;

  ZipfSampler(int n, double exponent) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1; got " + n);
    }
    if (!(exponent > 0)) {
      throw new IllegalArgumentException("exponent must be positive; got " + exponent);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int rank = 0; rank < n; rank++) {
      sum += 1.0 / Math.pow(rank + 1, exponent);
      cumulative[rank] = sum;
    }
    for (int rank = 0; rank < n; rank++) {
      cumulative[rank] /= sum;
    }
  }

  int size() {
    return cumulative.length;
  }

  int sample(RandomGenerator random) {
    int i = Arrays.binarySearch(cumulative, random.nextDouble());
    int rank = i >= 0 ? i : -i - 1;
    return Math.min(rank, cumulative.length - 1);
  }
}
