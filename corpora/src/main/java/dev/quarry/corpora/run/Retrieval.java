package dev.quarry.corpora.run;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Retrieval inside a host's run. The host calls {@link #prepare} before it opens its event stream
 * (validation and grants fail there, as plain errors), then {@link #run} on its run's thread with a
 * progress listener and a {@link Cancellation}.
 *
 * <pre>{@code
 * Retrieval retrieval = new Retrieval(corpora);
 * Retrieval.Prepared prepared = retrieval.prepare(caller, options, prompt);   // 403 etc. here
 * RetrievalResult result = retrieval.run(prepared, (phase, context) -> emitProgress(phase, context), cancellation);
 * }</pre>
 *
 * <p>Progress is reported only as real work happens; nothing here imposes a deadline: idle timeouts
 * are the host's, and reach the retrieval through the cancellation.
 */
public final class Retrieval {
  private final Corpora corpora;

  public Retrieval(Corpora corpora) {
    this.corpora = Objects.requireNonNull(corpora, "corpora");
  }

  /** A retrieval checked and ready to run: its caller, options and the query it will use. */
  public record Prepared(Access access, RetrievalOptions options, String query) {}

  /**
   * Checks the options and the caller's grants (FORBIDDEN whether or not the corpus exists),
   * without searching. {@code prompt} is the query when the options name none.
   */
  public Prepared prepare(Access access, RetrievalOptions options, String prompt) {
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(options, "options");
    String query = options.query() != null ? options.query() : prompt;
    if (query == null) {
      throw QuarryException.invalid(
          "retrieval.query", "a query is required when the run has no input");
    }
    if (query.length() > SearchRequest.MAX_QUERY_CHARS) {
      throw options.query() != null
          ? QuarryException.invalid(
              "retrieval.query",
              "query may have at most "
                  + SearchRequest.MAX_QUERY_CHARS
                  + " characters; got "
                  + query.length())
          : QuarryException.invalid(
              "input",
              "the prompt used as the query may have at most "
                  + SearchRequest.MAX_QUERY_CHARS
                  + " characters");
    }
    AccessPolicy.searchScope(access, options.corpus(), options.sources());
    return new Prepared(access, options, query);
  }

  /**
   * Runs a prepared retrieval, reporting {@code retrieval.resolving-sources}, {@code
   * retrieval.embedding-query} (on a corpus with an embedding model: the query's model call, often
   * the longest step), {@code retrieval.searching} and {@code retrieval.completed} to {@code
   * progress}. Throws the cancellation's reason (CANCELLED, IDLE_TIMEOUT) when cancelled in flight.
   */
  public RetrievalResult run(
      Prepared prepared, RetrievalProgress progress, Cancellation cancellation) {
    RetrievalOptions o = prepared.options();
    SearchResult r =
        search(
            prepared.access(),
            o.corpus(),
            o.expectedCorpusId(),
            new SearchRequest(
                prepared.query(), o.sources(), List.of(), o.topK(), o.revision(), null, true),
            progress,
            cancellation);
    return new RetrievalResult(r.corpus(), r.corpusId(), r.revision(), r.hits());
  }

  /**
   * Runs {@code request} (with its own filters, mode and snippets) in the phases of {@link #run},
   * for a host whose callers send whole search requests: validation and grants are {@link
   * Corpora#search}'s, in the contract's order. A request without a revision is pinned to the
   * revision the {@code retrieval.searching} phase reports, so the phase and the answer agree.
   *
   * @param expectedCorpusId when non-null, the corpus must still have this id (CORPUS_REPLACED)
   */
  public SearchResult search(
      Access access,
      String corpus,
      String expectedCorpusId,
      SearchRequest request,
      RetrievalProgress progress,
      Cancellation cancellation) {
    Objects.requireNonNull(access, "access");
    cancellation.check();
    progress.phase(RetrievalProgress.RESOLVING_SOURCES, Map.of("corpus", corpus));
    cancellation.check();
    // Grants before existence: readCorpus alone answers any caller with a grant on the corpus.
    AccessPolicy.searchScope(access, corpus, request.scope());
    CorpusDescription description = corpora.readCorpus(access, corpus);
    description.info().requireCorpusId(expectedCorpusId);
    long revision = request.revision() != null ? request.revision() : description.revision();
    long sources = corpora.countSources(access, corpus, request.scope());
    cancellation.check();
    if (description.info().settings().hasEmbedding()
        && request.mode() != SearchRequest.Mode.LEXICAL) {
      progress.phase(
          RetrievalProgress.EMBEDDING_QUERY,
          Map.of("corpus", corpus, "model", description.info().settings().embedding().model()));
      cancellation.check();
      corpora.embedQuery(access, corpus, request.scope(), request.query());
      cancellation.check();
    }
    progress.phase(
        RetrievalProgress.SEARCHING,
        Map.of("corpus", corpus, "revision", revision, "sources", sources));
    cancellation.check();
    SearchRequest pinned =
        new SearchRequest(
            request.query(),
            request.scope(),
            request.filters(),
            request.topK(),
            revision,
            request.maxChunksPerSource(),
            request.highlight(),
            request.mode(),
            request.fusion(),
            request.facets(),
            request.snippets(),
            request.syntax(),
            request.statistics(),
            request.language(),
            request.exact());
    SearchResult r = corpora.search(access, corpus, pinned, description.info().corpusId());
    cancellation.check();
    progress.phase(
        RetrievalProgress.COMPLETED,
        Map.of("corpus", corpus, "revision", r.revision(), "results", r.hits().size()));
    return r;
  }
}
