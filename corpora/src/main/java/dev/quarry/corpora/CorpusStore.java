package dev.quarry.corpora;

import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where corpora live: creates, deletes and lists them, and lends out their {@link CorpusIndex}.
 * Everything above this interface (grants, idempotency, the HTTP contract) is the same whichever
 * store answers: the embedded Lucene store, or the OpenSearch cluster store of {@code
 * quarry-cluster-store}, which a host hands to {@code CorporaBuilder.store}.
 *
 * @quarry.experimental
 */
public interface CorpusStore extends Closeable {

  /** Creates a corpus with a new corpusId; CORPUS_EXISTS when the name is taken. */
  CorpusInfo create(String name, CorpusSettings settings);

  /** Deletes a corpus with its history; CORPUS_NOT_FOUND when absent. */
  void delete(String name);

  Optional<CorpusInfo> info(String name);

  /**
   * Corpus names in order, after {@code after} (exclusive; null for the start), at most {@code
   * limit}.
   */
  List<String> names(String after, int limit);

  /**
   * Runs {@code work} with the open index of corpus {@code name} (CORPUS_NOT_FOUND when absent);
   * the index stays open at least until {@code work} returns.
   */
  <T> T withCorpus(String name, Function<CorpusIndex, T> work);

  /**
   * Expert: the corpora this store holds open now and what they occupy, for metrics; empty when the
   * store cannot tell cheaply. Opens nothing.
   */
  default Optional<OpenCorporaFootprint> openCorpora() {
    return Optional.empty();
  }

  /**
   * Expert: each corpus this store holds open now, by name, with its published revision and what it
   * occupies, for metrics; empty when the store cannot tell cheaply. Opens nothing.
   */
  default Optional<List<OpenCorpusFootprint>> openCorpusFootprints() {
    return Optional.empty();
  }

  /**
   * Expert: the counts of the cache that keeps corpora open, for metrics; empty when the store
   * keeps none (corpora on a cluster).
   */
  default Optional<CacheCounts> openCorporaCache() {
    return Optional.empty();
  }

  /**
   * Copies corpus {@code name}, consistent at one revision while writes go on, into the data folder
   * {@code targetDataDir} (in this store's layout, so that a store opened there holds it with the
   * same corpusId). CORPUS_NOT_FOUND when absent; UNAVAILABLE when the copy fails;
   * BACKUP_UNAVAILABLE (not retryable) when this store cannot back up ({@link #backsUp}).
   */
  default CorpusBackup backup(String name, Path targetDataDir) {
    throw new QuarryException(
        ErrorCode.BACKUP_UNAVAILABLE, "this server's corpus store does not support backups");
  }

  /**
   * Whether {@link #backup} copies corpora (a store that keeps them elsewhere, such as a cluster,
   * does not): asked before a backup does any work, so that one is refused before it writes
   * anything, even with no corpus to copy.
   */
  default boolean backsUp() {
    return false;
  }

  /**
   * Whether searches answer with the embedded store's exact scores ({@link
   * dev.quarry.corpora.Corpora#scoresExactly}).
   */
  default boolean scoresExactly() {
    return true;
  }
}
