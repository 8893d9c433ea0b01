package dev.quarry.client;

import java.util.List;

/**
 * A retrieval run: the query ({@code input}, unless {@code query} is set) searched in one corpus,
 * reported as events. {@code idleTimeoutMs} bounds the time between two pieces of real work; null
 * means no deadline at all.
 *
 * @quarry.experimental
 */
public record RunRequest(
    String input,
    String corpus,
    List<String> sources,
    String query,
    Integer topK,
    Long revision,
    String corpusId,
    Long idleTimeoutMs) {
  public static RunRequest of(String corpus, String input) {
    return new RunRequest(input, corpus, null, null, null, null, null, null);
  }

  public RunRequest withSources(List<String> s) {
    return new RunRequest(
        input, corpus, List.copyOf(s), query, topK, revision, corpusId, idleTimeoutMs);
  }

  public RunRequest withTopK(int k) {
    return new RunRequest(input, corpus, sources, query, k, revision, corpusId, idleTimeoutMs);
  }

  public RunRequest withRevision(long r) {
    return new RunRequest(input, corpus, sources, query, topK, r, corpusId, idleTimeoutMs);
  }

  public RunRequest withIdleTimeoutMs(long ms) {
    return new RunRequest(input, corpus, sources, query, topK, revision, corpusId, ms);
  }
}
