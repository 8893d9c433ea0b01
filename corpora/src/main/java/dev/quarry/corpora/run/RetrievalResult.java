package dev.quarry.corpora.run;

import dev.quarry.engine.Hit;
import java.util.List;

/** What a retrieval hands its run: the exact corpus and revision, and passages with provenance. */
public record RetrievalResult(String corpus, String corpusId, long revision, List<Hit> passages) {
  public RetrievalResult {
    passages = List.copyOf(passages);
  }
}
