package dev.quarry.engine;

import dev.quarry.engine.index.LuceneCorpusIndex;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;

/**
 * One corpus: a Lucene index on disk with exact, durable revisions.
 *
 * <p>Thread safety: every method may be called from any thread. Mutations are queued to the
 * corpus's single writer thread, which applies them in order, one revision each, and commits them
 * in groups. Searches and reads never block on mutations.
 *
 * <p>Lifecycle: {@link #open} starts the writer thread; {@link #close} completes queued mutations,
 * commits and releases the index. The corpus registry owns open instances (one per corpus).
 *
 * @quarry.stable
 */
public interface CorpusIndex extends Closeable {

  /** Opens (creating when absent) the index of corpus {@code info} in {@code dir}. */
  static CorpusIndex open(Path dir, CorpusInfo info, EngineConfig config) throws IOException {
    return LuceneCorpusIndex.open(dir, info, config);
  }

  CorpusInfo info();

  /** The latest committed and visible revision. */
  long revision();

  /** The oldest revision a pinned search can still reach. */
  long oldestRetainedRevision();

  /**
   * Queues a mutation. The future completes once the mutation is durable and visible, or fails with
   * a {@link QuarryException} (CAPACITY when the queue is full; REVISION_CONFLICT;
   * IDEMPOTENCY_KEY_REUSED; UNAVAILABLE, possibly {@link QuarryException#uncertain()}).
   */
  CompletableFuture<MutationResult> submit(Mutation mutation);

  /** {@link #submit} and wait. */
  default MutationResult apply(Mutation mutation) {
    try {
      return submit(mutation).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof QuarryException q) {
        throw q;
      }
      throw new QuarryException(ErrorCode.INTERNAL, "mutation failed", e.getCause());
    }
  }

  /** Searches at the latest revision or the one the request names. */
  SearchResult search(SearchRequest request);

  /**
   * Embeds {@code query} with the corpus's model ahead of a semantic or hybrid search, which then
   * finds its vector cached: a caller that reports progress can tell the model call from the
   * search. Does nothing, and answers false, on a lexical corpus.
   *
   * @throws QuarryException INVALID_REQUEST on {@code query} when it is blank or does not fit the
   *     model's window, as the search would
   */
  default boolean embedQuery(String query) {
    return false;
  }

  /** The source's state at the latest revision. */
  Optional<SourceState> readSource(String source);

  /**
   * A page of the source's chunks as the corpus held them at {@code revision} (null: the latest),
   * numbered above {@code after} (-1: from the first), at most {@code limit} of them; empty when
   * the source did not exist at that revision.
   *
   * <p>A store that cannot read chunks back answers UNAVAILABLE (the default).
   *
   * @throws QuarryException INVALID_REQUEST for a revision above the current one, REVISION_EXPIRED
   *     for one older than {@link #oldestRetainedRevision()}
   */
  default Optional<SourceChunks> readChunks(String source, Long revision, int after, int limit) {
    throw new QuarryException(
        ErrorCode.UNAVAILABLE, "this corpus store cannot read a source's chunks back");
  }

  /**
   * Sources at the latest revision in name order, starting after {@code cursor} (null for the first
   * page), skipping those {@code visible} rejects.
   */
  SourcePage listSources(String prefix, String cursor, int limit, Predicate<String> visible);

  /** The number of sources at the latest revision that {@code visible} accepts. */
  long countSources(Predicate<String> visible);

  /**
   * History entries with revision greater than {@code after}, in revision order, at least {@code
   * limit} of them unless fewer exist (a revision's entries are never split), skipping sources
   * {@code visible} rejects. CURSOR_EXPIRED when {@code after} predates retention.
   */
  HistoryPage history(long after, int limit, Predicate<String> visible);

  /** Looks up a completed idempotent mutation by subject and key, without applying anything. */
  Optional<StoredOutcome> findIdempotent(String subject, String key);

  /** A recorded idempotent outcome: the request fingerprint and its result. */
  record StoredOutcome(String fingerprint, MutationResult result) {}

  /**
   * Copies the index as of its last commit into {@code target} (absent or empty), durably, while
   * mutations go on, and returns the revision the copy holds: at least every revision acknowledged
   * before the call. Opening the copy as corpus {@link #info()} gives exactly that revision, its
   * retained past revisions, history and idempotency records included; a source purged before the
   * call leaves no trace in it.
   *
   * @throws QuarryException UNAVAILABLE when this store cannot back up, or the copy fails
   */
  default long backup(Path target) throws IOException {
    throw new QuarryException(ErrorCode.UNAVAILABLE, "this corpus store does not support backups");
  }

  /**
   * Expert: the segments of the published revision and their size on disk, for metrics; empty when
   * this store cannot tell cheaply. Cheap where it answers: no folder is listed, and each segment's
   * size is measured (a few file sizes) when it appears or a write changed it (its deletions or doc
   * values), and otherwise remembered.
   *
   * @throws QuarryException UNAVAILABLE when the index is closed
   */
  default Optional<IndexFootprint> footprint() {
    return Optional.empty();
  }

  /** Commits and closes the index; later calls fail with UNAVAILABLE. */
  @Override
  void close() throws IOException;

  /** Closes the index and deletes its files (corpus deletion). */
  void closeAndDelete() throws IOException;
}
