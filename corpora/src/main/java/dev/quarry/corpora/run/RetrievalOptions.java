package dev.quarry.corpora.run;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceScope;
import java.util.Objects;

/**
 * The {@code retrieval} run option: which corpus and sources to search, with what query, how many
 * passages, at which revision.
 *
 * @param sources the requested scope; {@link SourceScope#ALL} when the option names no sources
 * @param query the query, or null to use the run's prompt
 * @param topK 1 to {@link SearchRequest#MAX_TOP_K} passages
 * @param revision the revision to pin, or null for the latest
 * @param expectedCorpusId when non-null, the corpus must still have this id
 */
public record RetrievalOptions(
    String corpus,
    SourceScope sources,
    String query,
    int topK,
    Long revision,
    String expectedCorpusId) {
  /**
   * Passages a run receives when it does not say: enough context for a model, few enough to read.
   */
  public static final int DEFAULT_TOP_K = 5;

  public RetrievalOptions {
    CorpusInfo.checkName(corpus, "retrieval.corpus");
    sources = sources == null ? SourceScope.ALL : sources;
    Objects.requireNonNull(sources, "sources");
    if (topK < 1 || topK > SearchRequest.MAX_TOP_K) {
      throw QuarryException.invalid(
          "retrieval.topK",
          "topK must be between 1 and " + SearchRequest.MAX_TOP_K + "; got " + topK);
    }
    if (revision != null && revision < 0) {
      throw QuarryException.invalid(
          "retrieval.revision", "revision must be 0 or more; got " + revision);
    }
  }
}
