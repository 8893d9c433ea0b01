package dev.quarry.corpora.run;

import java.util.Map;

/**
 * Receives a retrieval's progress as it happens: the host turns each call into a {@code
 * run.progress} event and resets its idle timer. Called on the retrieval's thread, in phase order;
 * a listener that blocks holds the retrieval up (and so may let the host's idle timeout fire).
 */
@FunctionalInterface
public interface RetrievalProgress {
  String RESOLVING_SOURCES = "retrieval.resolving-sources";

  /**
   * Only on a corpus with an embedding model: the query goes through the model before the search.
   */
  String EMBEDDING_QUERY = "retrieval.embedding-query";

  String SEARCHING = "retrieval.searching";
  String COMPLETED = "retrieval.completed";

  /** One phase reached; {@code context} holds the keys the contract names for it. */
  void phase(String phase, Map<String, Object> context);
}
