package dev.quarry.engine;

import java.util.List;

/** The answer to a search: the revision it answers at, and hits by score, ties by source then chunk. */
public record SearchResult(String corpus, String corpusId, long revision, long tookMs, List<Hit> hits) {
  public SearchResult {
    hits = List.copyOf(hits);
  }
}
