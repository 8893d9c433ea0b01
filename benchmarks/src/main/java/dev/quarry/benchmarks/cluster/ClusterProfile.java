package dev.quarry.benchmarks.cluster;

import java.util.List;
import java.util.Locale;

/**
 * The sizes of one run of the cluster benchmark. {@link #SMOKE} proves the code runs; {@link
 * #QUICK} gives indicative figures in a few minutes; {@link #FULL} is the run to quote.
 *
 * @param name the profile's name on the command line
 * @param documents documents each ingest round writes (the same ones every round), and so the
 *     documents the searches run over
 * @param batchSize documents per batch: one mutation through the store, one {@code _bulk} request
 * @param rounds ingest rounds, each into a new corpus and a new plain index, the two contenders
 *     taking turns to go first
 * @param warmupBatches batches each contender writes into a throwaway index before anything is
 *     timed
 * @param queries distinct queries, each asked of both contenders once
 * @param warmupQueries queries asked of each contender before the timed ones
 * @param frontBatches batches each front writes in the one-front and two-front runs
 */
public record ClusterProfile(
    String name,
    int documents,
    int batchSize,
    int rounds,
    int warmupBatches,
    int queries,
    int warmupQueries,
    int frontBatches) {
  /**
   * Tiny: the JUnit smoke test; its figures mean nothing. Batches of 100 still, so its rows are the
   * ones the results page's targets read.
   */
  public static final ClusterProfile SMOKE = new ClusterProfile("smoke", 100, 100, 1, 0, 20, 5, 1);

  /** Batches of 100 as the harness's quick profile; search over about 10k chunks. */
  public static final ClusterProfile QUICK =
      new ClusterProfile("quick", 2_000, 100, 2, 5, 1_000, 300, 10);

  /** Three rounds, more queries and longer front runs. */
  public static final ClusterProfile FULL =
      new ClusterProfile("full", 4_000, 100, 3, 10, 2_000, 500, 30);

  public ClusterProfile {
    if (documents < 1
        || batchSize < 1
        || rounds < 1
        || warmupBatches < 0
        || queries < 1
        || warmupQueries < 0
        || frontBatches < 1) {
      throw new IllegalArgumentException(
          "profile sizes must be positive (warm-ups 0 or more): " + this);
    }
  }

  /**
   * @throws IllegalArgumentException naming the profiles there are
   */
  public static ClusterProfile named(String name) {
    for (ClusterProfile p : List.of(SMOKE, QUICK, FULL)) {
      if (p.name.equals(name.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "cluster profile must be smoke, quick or full; got '" + name + "'");
  }
}
