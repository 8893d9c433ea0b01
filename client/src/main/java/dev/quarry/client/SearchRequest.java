package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * A search. Only {@code corpus} and {@code query} are required; every other part is null (omitted
 * on the wire, the server's default) until set with the {@code with} methods.
 *
 * @param filter field to value (equality), or to a condition map such as {@code Map.of("gte", 2020)}
 *     or {@code Map.of("in", List.of("hr", "legal"))}
 */
public record SearchRequest(String corpus, String query, String corpusId, List<String> sources,
    Map<String, Object> filter, Integer topK, Long revision, Integer maxChunksPerSource, Boolean highlight) {
  public static SearchRequest of(String corpus, String query) {
    return new SearchRequest(corpus, query, null, null, null, null, null, null, null);
  }

  public SearchRequest withCorpusId(String id) {
    return new SearchRequest(corpus, query, id, sources, filter, topK, revision, maxChunksPerSource, highlight);
  }

  public SearchRequest withSources(List<String> s) {
    return new SearchRequest(corpus, query, corpusId, List.copyOf(s), filter, topK, revision, maxChunksPerSource, highlight);
  }

  public SearchRequest withFilter(Map<String, Object> f) {
    return new SearchRequest(corpus, query, corpusId, sources, Map.copyOf(f), topK, revision, maxChunksPerSource, highlight);
  }

  public SearchRequest withTopK(int k) {
    return new SearchRequest(corpus, query, corpusId, sources, filter, k, revision, maxChunksPerSource, highlight);
  }

  public SearchRequest withRevision(long r) {
    return new SearchRequest(corpus, query, corpusId, sources, filter, topK, r, maxChunksPerSource, highlight);
  }

  public SearchRequest withMaxChunksPerSource(int n) {
    return new SearchRequest(corpus, query, corpusId, sources, filter, topK, revision, n, highlight);
  }

  public SearchRequest withHighlight(boolean h) {
    return new SearchRequest(corpus, query, corpusId, sources, filter, topK, revision, maxChunksPerSource, h);
  }
}
