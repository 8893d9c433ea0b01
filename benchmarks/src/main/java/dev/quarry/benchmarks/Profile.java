package dev.quarry.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The sizes and durations of one run of the suite. {@link #SMOKE} proves the harness works in
 * seconds; {@link #QUICK} gives indicative figures in minutes; {@link #FULL} is the run to quote;
 * {@link #GROWTH_1M} adds the million-chunk point of the growth curve.
 *
 * @param forks JMH forks per trial; 0 runs in the harness's own JVM
 * @param heap the maximum heap of forked JVMs ({@code -Xmx}), and what the footprint probe assumes
 * @param warmupIterations warm-up iterations of an indexing trial: the engine's indexing path takes
 *     tens of seconds of batches to compile (a batch of 500 documents: 0.9 batches/s after 10 s,
 *     2.1 after 40 s) where raw Lucene's is compiled within the first seconds, and a server indexes
 *     warm
 * @param searchWarmupIterations warm-up iterations of a search trial: the JIT compiles the search
 *     path (and, over HTTP, the server's and the client's code) over many thousand calls
 * @param threads the thread counts every benchmark runs with
 * @param batchSizes documents per indexing batch
 * @param poolDocuments distinct documents whose text the indexing batches cycle through
 * @param initialChunks sizes of the index that indexing batches are added to
 * @param searchChunks sizes of the index searched
 * @param queries distinct queries per search trial
 * @param searchIndexingDocsPerSecond documents per second indexed beside the searches of the
 *     search-under-indexing trials, run over the smallest of {@code searchChunks} only (the load is
 *     the same at every size, so one size shows what it does); 0 runs none
 * @param extractionIterationTime the length of each iteration of the extraction trials (PDFs, other
 *     documents; {@link #EXTRACTION_WARMUP_ITERATIONS} warm-up iterations, then {@code
 *     measurementIterations}), and of pdftotext's run over the same PDFs; zero runs none
 */
public record Profile(
    String name,
    int forks,
    String heap,
    int warmupIterations,
    int searchWarmupIterations,
    Duration warmupTime,
    int measurementIterations,
    Duration measurementTime,
    List<Integer> threads,
    List<Integer> batchSizes,
    int poolDocuments,
    List<Long> initialChunks,
    List<Long> searchChunks,
    int queries,
    int searchIndexingDocsPerSecond,
    Duration extractionIterationTime) {

  /**
   * The concurrent indexing of the search-under-indexing trials: a steady stream of live updates, a
   * batch of 10 every half second (each batch is a commit). At 100 docs/s, trials over 1,000 chunks
   * on a shared 2-core machine got only 17-27 in; at 20 they kept the pace, so every contender is
   * measured under the same load. Over a quick trial (21 s) it adds about a fifth to a 10k-chunk
   * index.
   */
  static final int INDEXING_LOAD_DOCS_PER_SECOND = 20;

  /**
   * Warm-up iterations of an extraction trial. The workers are JVMs of their own that start cold:
   * on an idle machine the first 30 s extracted 11 PDFs/s and the minutes after 37 to 44.
   */
  public static final int EXTRACTION_WARMUP_ITERATIONS = 2;

  /** Tiny and in-process: the JUnit smoke test; its figures mean nothing. */
  public static final Profile SMOKE =
      new Profile(
          "smoke",
          0,
          "1g",
          0,
          0,
          Duration.ZERO,
          1,
          Duration.ofMillis(100),
          List.of(1, 2),
          List.of(10),
          20,
          List.of(0L),
          List.of(100L),
          50,
          50,
          Duration.ofMillis(200));

  /** Minutes on two cores: every comparison at small sizes (search at 10k and 100k chunks). */
  public static final Profile QUICK =
      new Profile(
          "quick",
          1,
          "2g",
          3,
          4,
          Duration.ofSeconds(3),
          3,
          Duration.ofSeconds(3),
          List.of(1, 2),
          List.of(100),
          2_000,
          List.of(0L, 10_000L),
          List.of(10_000L, 100_000L),
          1_000,
          INDEXING_LOAD_DOCS_PER_SECOND,
          Duration.ofSeconds(10));

  /**
   * Quick's iterations at the smallest sizes only (indexing into an empty index, search over 10k
   * chunks): a few minutes for the four contenders side by side, HTTP ones included.
   */
  public static final Profile COMPARE =
      new Profile(
          "compare",
          1,
          "2g",
          3,
          4,
          Duration.ofSeconds(3),
          3,
          Duration.ofSeconds(3),
          List.of(1, 2),
          List.of(100),
          2_000,
          List.of(0L),
          List.of(10_000L),
          1_000,
          INDEXING_LOAD_DOCS_PER_SECOND,
          Duration.ZERO);

  /** The run to quote: longer iterations, batches of 100 and 500, search up to 200k chunks. */
  public static final Profile FULL =
      new Profile(
          "full",
          1,
          "4g",
          6,
          4,
          Duration.ofSeconds(5),
          5,
          Duration.ofSeconds(5),
          List.of(1, 2),
          List.of(100, 500),
          4_000,
          List.of(0L, 10_000L, 100_000L),
          List.of(10_000L, 100_000L, 200_000L),
          2_000,
          INDEXING_LOAD_DOCS_PER_SECOND,
          Duration.ofSeconds(30));

  /**
   * The growth curve's million-chunk point, for indexing and search; about 25 minutes on 2 cores.
   */
  public static final Profile GROWTH_1M =
      new Profile(
          "growth-1m",
          1,
          "8g",
          4,
          4,
          Duration.ofSeconds(5),
          3,
          Duration.ofSeconds(5),
          List.of(1, 2),
          List.of(100),
          4_000,
          List.of(1_000_000L),
          List.of(1_000_000L),
          2_000,
          0,
          Duration.ZERO);

  public Profile {
    threads = List.copyOf(threads);
    batchSizes = List.copyOf(batchSizes);
    initialChunks = List.copyOf(initialChunks);
    searchChunks = List.copyOf(searchChunks);
    if (forks < 0) {
      throw new IllegalArgumentException("forks must be 0 or more; got " + forks);
    }
    if (warmupIterations < 0 || searchWarmupIterations < 0) {
      throw new IllegalArgumentException(
          "warm-up iterations must be 0 or more; got "
              + warmupIterations
              + " and "
              + searchWarmupIterations);
    }
    if (searchIndexingDocsPerSecond < 0) {
      throw new IllegalArgumentException(
          "searchIndexingDocsPerSecond must be 0 or more; got " + searchIndexingDocsPerSecond);
    }
    if (extractionIterationTime.isNegative()) {
      throw new IllegalArgumentException(
          "extractionIterationTime must be zero or more; got " + extractionIterationTime);
    }
    if (measurementIterations < 1) {
      throw new IllegalArgumentException(
          "measurementIterations must be at least 1; got " + measurementIterations);
    }
  }

  /**
   * @throws IllegalArgumentException naming the profiles there are
   */
  public static Profile named(String name) {
    for (Profile p : List.of(SMOKE, QUICK, COMPARE, FULL, GROWTH_1M)) {
      if (p.name.equals(name.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "profile must be smoke, quick, compare, full or growth-1m; got '" + name + "'");
  }
}
