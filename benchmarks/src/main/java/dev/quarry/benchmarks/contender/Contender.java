package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.SearchRequest;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * One system under measurement, holding one index on disk. Both implementations do the same work
 * per call, so their figures can be divided: see {@link ContenderKind}.
 *
 * <p>Thread safety: every method may be called from several threads at once. Lifecycle: opened by
 * {@link ContenderKind#open}, closed by its opener.
 */
public interface Contender extends Closeable {
  /** Results per search, as Quarry's default request asks. */
  int TOP_K = SearchRequest.DEFAULT_TOP_K;

  /**
   * Indexes {@code documents} as new sources in one step: chunked, analyzed, committed (fsync) and
   * visible to search when this returns.
   */
  void indexBatch(List<SourceDocument> documents) throws IOException;

  /**
   * The top {@link #TOP_K} chunks for {@code query} with their stored provenance and the offsets of
   * every match in each chunk's text, best first.
   */
  List<?> search(String query) throws IOException;

  /**
   * {@link #search} by a caller granted only {@code sources} (ids, prefixes ending in {@code *}):
   * only those are searched, and scored with their own statistics, as the server searches for such
   * a token. Only Quarry's engine has grants.
   *
   * @param grantStatistics false scores with every source's statistics instead, as searches by such
   *     a token did before scores counted only what it may see: the cost of that, apart
   * @throws IllegalArgumentException for a contender without grants
   */
  default List<?> search(String query, List<String> sources, boolean grantStatistics)
      throws IOException {
    throw new IllegalArgumentException(
        getClass().getSimpleName() + " has no grants; grant=all only");
  }

  /**
   * Makes everything indexed so far visible to search. A no-op for contenders whose batches are
   * visible when {@link #indexBatch} returns; OpenSearch's become visible at its next refresh.
   */
  default void awaitVisible() throws IOException {}
}
