package dev.quarry.corpora;

import dev.quarry.corpora.access.Access;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import java.io.Closeable;
import java.util.List;

/**
 * The embeddable face of Quarry: every operation of the retrieval contract, with grants enforced
 * and idempotency honoured. A host authenticates the caller, builds an {@link Access}, and calls
 * these methods; failures are {@link dev.quarry.engine.QuarryException}s with stable codes.
 *
 * <p>Order of checks, as the contract requires: request validation, grants (FORBIDDEN, whether or
 * not the corpus exists), existence (CORPUS_NOT_FOUND), then conflicts.
 *
 * <p>Thread-safe. Create one per data folder with {@link #builder()}; {@link #close()} commits and
 * closes every open corpus.
 */
public interface Corpora extends Closeable {

  static CorporaBuilder builder() {
    return new CorporaBuilder();
  }

  CorpusDescription createCorpus(Access access, String corpus, CorpusSettings settings);

  void deleteCorpus(Access access, String corpus);

  CorpusDescription readCorpus(Access access, String corpus);

  /** Corpora the caller has any grant on, in name order, after {@code cursor} (null: from the start). */
  CorpusListPage listCorpora(Access access, String cursor, int limit);

  /**
   * Applies one or more source operations atomically at one revision.
   *
   * @param expectedCorpusId when non-null, the corpus must still have this id (CORPUS_REPLACED)
   * @param idempotency the request's idempotency key and fingerprint, or null
   */
  MutationResult mutate(Access access, String corpus, List<SourceOperation> operations, String expectedCorpusId,
      Mutation.Idempotency idempotency);

  /**
   * Searches, with the request's scope checked against the grants (FORBIDDEN if any entry reaches
   * outside them) and narrowed to them when absent.
   */
  SearchResult search(Access access, String corpus, SearchRequest request, String expectedCorpusId);

  /**
   * The number of sources a search with {@code requested} scope would reach for this caller (the
   * scope checked against the grants as {@link #search} does).
   */
  long countSources(Access access, String corpus, dev.quarry.engine.SourceScope requested);

  SourceRead readSource(Access access, String corpus, String source);

  SourcePage listSources(Access access, String corpus, String prefix, String cursor, int limit);

  HistoryPage history(Access access, String corpus, long after, int limit);
}
