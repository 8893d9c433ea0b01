package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * A search over one corpus.
 *
 * @param query plain text; no operator syntax, and no character is ever an error
 * @param scope the sources that may be returned (the caller's grants intersected with the request)
 * @param filters metadata conditions, combined with AND
 * @param topK 1 to {@link #MAX_TOP_K} results
 * @param revision the revision to answer at, or null for the latest
 * @param maxChunksPerSource the most chunks of one source in the results, or null for no limit
 * @param highlight whether to compute highlight ranges
 */
public record SearchRequest(
    String query,
    SourceScope scope,
    List<Filter> filters,
    int topK,
    Long revision,
    Integer maxChunksPerSource,
    boolean highlight) {
  public static final int MAX_TOP_K = 100;
  public static final int DEFAULT_TOP_K = 10;
  public static final int MAX_QUERY_CHARS = 1000;

  /** This request searching {@code newScope} instead, such as the caller's scope narrowed to its grants. */
  public SearchRequest withScope(SourceScope newScope) {
    return new SearchRequest(query, newScope, filters, topK, revision, maxChunksPerSource, highlight);
  }

  public SearchRequest {
    Objects.requireNonNull(query, "query");
    if (query.length() > MAX_QUERY_CHARS) {
      throw QuarryException.invalid("query",
          "query may have at most " + MAX_QUERY_CHARS + " characters; got " + query.length());
    }
    scope = scope == null ? SourceScope.ALL : scope;
    filters = List.copyOf(filters == null ? List.of() : filters);
    if (topK < 1 || topK > MAX_TOP_K) {
      throw QuarryException.invalid("topK", "topK must be between 1 and " + MAX_TOP_K + "; got " + topK);
    }
    if (revision != null && revision < 0) {
      throw QuarryException.invalid("revision", "revision must be 0 or more; got " + revision);
    }
    if (maxChunksPerSource != null && maxChunksPerSource < 1) {
      throw QuarryException.invalid("maxChunksPerSource",
          "maxChunksPerSource must be at least 1; got " + maxChunksPerSource);
    }
  }

  /** A latest-revision search of everything with default options. */
  public static SearchRequest of(String query) {
    return new SearchRequest(query, SourceScope.ALL, List.of(), DEFAULT_TOP_K, null, null, true);
  }
}
