package dev.quarry.engine;

import java.util.List;

/**
 * The answer to a search: the revision it answers at, hits by score, ties by source then chunk, and
 * the facet counts the request asked for (in its order; empty when it asked for none).
 *
 * @quarry.stable
 */
public record SearchResult(
    String corpus,
    String corpusId,
    long revision,
    long tookMs,
    List<Hit> hits,
    List<FacetCounts> facets) {
  public SearchResult {
    hits = List.copyOf(hits);
    facets = List.copyOf(facets == null ? List.of() : facets);
  }

  /** An answer without facets. */
  public SearchResult(String corpus, String corpusId, long revision, long tookMs, List<Hit> hits) {
    this(corpus, corpusId, revision, tookMs, hits, List.of());
  }
}
