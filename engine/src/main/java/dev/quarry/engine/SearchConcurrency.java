package dev.quarry.engine;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * The threads one search may split its work across: the semantic scan (exact, or the coded first
 * pass), which reads every chunk in scope and so grows with the corpus, and the lexical side of a
 * hybrid search, which runs beside its semantic side when {@link #parallelism()} is above 1. A scan
 * over at least twice {@link #minPartitionDocs()} documents is cut into at most {@link
 * #parallelism()} parts of about equal size, none smaller than that; the searching thread takes
 * parts itself, so a busy executor delays a search but never blocks it. The answer does not depend
 * on the split: each chunk's score is a function of its own bytes and the query, and the parts'
 * best chunks are merged in result order.
 *
 * <p>Splitting shortens one search on an idle machine; it adds no capacity, so under a full load of
 * concurrent searches it changes little.
 *
 * @param executor runs the parts other than the one the searching thread takes
 * @param parallelism the most parts a scan is cut into; 1 scans on the searching thread alone
 * @param minPartitionDocs the fewest documents in a part
 * @quarry.experimental
 */
public record SearchConcurrency(Executor executor, int parallelism, int minPartitionDocs) {
  /**
   * The default fewest documents in a part: below about this many, handing a part to another thread
   * costs a good share of what it saves (an exact scan reads about ten thousand chunks a
   * millisecond).
   */
  public static final int DEFAULT_MIN_PARTITION_DOCS = 16_384;

  /** Every search on its own thread, nothing split. */
  public static final SearchConcurrency SEARCHING_THREAD_ONLY =
      new SearchConcurrency(Runnable::run, 1, DEFAULT_MIN_PARTITION_DOCS);

  public SearchConcurrency {
    Objects.requireNonNull(executor, "executor");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
    }
    if (minPartitionDocs < 1) {
      throw new IllegalArgumentException(
          "minPartitionDocs must be at least 1, got " + minPartitionDocs);
    }
  }

  /**
   * The default: the JVM's common fork-join pool (its workers are shared with the rest of the
   * process and start no thread of Quarry's own) and as many parts as this machine has processors.
   */
  public static SearchConcurrency commonPool() {
    return new SearchConcurrency(
        ForkJoinPool.commonPool(),
        Runtime.getRuntime().availableProcessors(),
        DEFAULT_MIN_PARTITION_DOCS);
  }

  /**
   * How many parts a scan of {@code docs} documents is cut into: at least 1, at most {@link
   * #parallelism()}.
   */
  public int partsFor(int docs) {
    return Math.max(1, Math.min(parallelism, docs / minPartitionDocs));
  }
}
