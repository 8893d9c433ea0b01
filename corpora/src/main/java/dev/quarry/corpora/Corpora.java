package dev.quarry.corpora;

import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceScope;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

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
 *
 * @quarry.stable
 */
public interface Corpora extends Closeable {

  static CorporaBuilder builder() {
    return new CorporaBuilder();
  }

  CorpusDescription createCorpus(Access access, String corpus, CorpusSettings settings);

  void deleteCorpus(Access access, String corpus);

  CorpusDescription readCorpus(Access access, String corpus);

  /**
   * Corpora the caller has any grant on, in name order, after {@code cursor} (null: from the
   * start).
   */
  CorpusListPage listCorpora(Access access, String cursor, int limit);

  /**
   * Applies one or more source operations atomically at one revision.
   *
   * @param expectedCorpusId when non-null, the corpus must still have this id (CORPUS_REPLACED)
   * @param idempotency the request's idempotency key and fingerprint, or null
   */
  MutationResult mutate(
      Access access,
      String corpus,
      List<SourceOperation> operations,
      String expectedCorpusId,
      Mutation.Idempotency idempotency);

  /**
   * Searches, with the request's scope checked against the grants (FORBIDDEN if any entry reaches
   * outside them) and narrowed to them when absent.
   */
  SearchResult search(Access access, String corpus, SearchRequest request, String expectedCorpusId);

  /**
   * Embeds {@code query} with the corpus's model ahead of its search (which then reuses the
   * vector), under the same grants a search of {@code requested} needs; false, doing nothing, on a
   * lexical corpus or a store that cannot embed separately.
   */
  default boolean embedQuery(Access access, String corpus, SourceScope requested, String query) {
    return false;
  }

  /**
   * The number of sources a search with {@code requested} scope would reach for this caller (the
   * scope checked against the grants as {@link #search} does).
   */
  long countSources(Access access, String corpus, SourceScope requested);

  SourceRead readSource(Access access, String corpus, String source);

  SourcePage listSources(Access access, String corpus, String prefix, String cursor, int limit);

  /**
   * A page of a source's chunks (its text as it was split, with pages and offsets) at {@code
   * revision} (null: the latest), numbered above {@code after} (null: from the first). Order:
   * validation; grants (SEARCH or INDEX on the corpus and the source); CORPUS_NOT_FOUND;
   * CORPUS_REPLACED when {@code expectedCorpusId} is given and differs; the revision
   * (INVALID_REQUEST above the current one, REVISION_EXPIRED past retention); SOURCE_NOT_FOUND when
   * the source did not exist at that revision.
   */
  SourceText readChunks(
      Access access,
      String corpus,
      String source,
      Long revision,
      Integer after,
      int limit,
      String expectedCorpusId);

  HistoryPage history(Access access, String corpus, long after, int limit);

  /**
   * Ingests a document file as source {@code request.source()}: its text is extracted (media type
   * from the bytes, within the extraction limits, in the extractors' worker pool) and indexed at
   * one new revision, or {@code unchanged} when the source already holds the same bytes, title and
   * metadata. A failed ingestion changes nothing.
   *
   * <p>Order: INGESTION_UNAVAILABLE when built without extractors; validation; grants (INDEX on the
   * corpus and the source); CORPUS_NOT_FOUND; CORPUS_REPLACED; an idempotent replay returns the
   * stored outcome without extracting (IDEMPOTENCY_KEY_REUSED for another fingerprint,
   * IDEMPOTENCY_IN_PROGRESS while the first request runs); then extraction, whose failures carry
   * the same-named codes (UNSUPPORTED_MEDIA_TYPE, DOCUMENT_TOO_LARGE, EXTRACTION_FAILED,
   * DOCUMENT_ENCRYPTED, NO_TEXT_EXTRACTED, PDF_INGESTION_UNAVAILABLE, CAPACITY); then conflicts.
   *
   * @param file the document's bytes; read, never moved or deleted
   * @param idempotency the request's idempotency key and fingerprint (the caller's fingerprint must
   *     cover the file's bytes), or null
   */
  default MutationResult ingest(
      Access access,
      String corpus,
      IngestRequest request,
      Path file,
      Mutation.Idempotency idempotency) {
    return ingest(access, corpus, request, file, idempotency, () -> {});
  }

  /**
   * {@link #ingest(Access, String, IngestRequest, Path, Mutation.Idempotency)}, calling {@code
   * beforeWrite} once the document is extracted, just before its revision is written: an exception
   * from it ends the ingestion with nothing written. Ingestion jobs use it so that a cancel that
   * arrives while a document is being extracted keeps that document out.
   */
  MutationResult ingest(
      Access access,
      String corpus,
      IngestRequest request,
      Path file,
      Mutation.Idempotency idempotency,
      Runnable beforeWrite);

  /** Whether {@link #ingest} works: the corpora were built with extractors. */
  boolean ingestsDocuments();

  /** Whether {@link #ingest} extracts PDFs; without it, PDFs are PDF_INGESTION_UNAVAILABLE. */
  boolean ingestsPdf();

  /**
   * Copies corpus {@code corpus}, consistent at one revision while writes go on, into the data
   * folder {@code targetDataDir}: a server started on that folder holds the corpus with the same
   * corpusId, at the revision returned (at least every revision acknowledged before this call),
   * with its retained past revisions, history and idempotency records. Needs the {@code manage}
   * scope on the corpus (FORBIDDEN otherwise, whether or not it exists); CORPUS_NOT_FOUND when
   * absent.
   */
  CorpusBackup backupCorpus(Access access, String corpus, Path targetDataDir);

  /**
   * Whether {@link #backupCorpus} copies corpora: true for corpora in the data folder, false for a
   * store that keeps them elsewhere (a cluster, backed up by its own snapshots), whose backups are
   * refused before any work (BACKUP_UNAVAILABLE).
   */
  default boolean backsUp() {
    return false;
  }

  /**
   * Expert: the corpora open in memory now and what their published revisions occupy, for a
   * server's metrics (no grant is asked: nothing names a corpus); empty when the store cannot tell
   * cheaply (corpora on a cluster). Opens no corpus and lists no folder.
   */
  default Optional<OpenCorporaFootprint> openCorpora() {
    return Optional.empty();
  }

  /**
   * Expert: each corpus open in memory now, by name, with its published revision and what that
   * revision occupies, for a server's metrics when its operator asks for series per corpus. No
   * grant is asked, and this names corpora: only a caller that decided to reveal the names may use
   * it. Empty when the store cannot tell cheaply (corpora on a cluster). Opens no corpus and lists
   * no folder.
   */
  default Optional<List<OpenCorpusFootprint>> openCorpusFootprints() {
    return Optional.empty();
  }

  /**
   * Expert: the counts of the cache that keeps corpora open (uses that found a corpus open, uses
   * that opened it, corpora closed for the bound or for being idle), for a server's metrics; names
   * no corpus. Empty when the store keeps no such cache (corpora on a cluster).
   */
  default Optional<CacheCounts> openCorporaCache() {
    return Optional.empty();
  }

  /**
   * Whether {@link #ingest} recognises images and PDF pages without a text layer (OCR switched on
   * and Tesseract found); without it, images are UNSUPPORTED_MEDIA_TYPE.
   */
  default boolean ingestsWithOcr() {
    return false;
  }

  /**
   * The names in {@code languages} (Tesseract language data such as {@code deu}) that {@link
   * #ingest} cannot recognise with, their data not installed; all of them without OCR.
   */
  default List<String> missingOcrLanguages(List<String> languages) {
    return List.copyOf(languages);
  }

  /**
   * Whether searches answer with the embedded store's exact scores, each revision scored with its
   * own statistics (docs/scale-out.md): always on the embedded store; on a cluster only when every
   * node has Quarry's scoring plugin.
   */
  default boolean scoresExactly() {
    return true;
  }
}
