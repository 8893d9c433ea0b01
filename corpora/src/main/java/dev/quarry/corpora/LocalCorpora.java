package dev.quarry.corpora;

import static dev.quarry.corpora.access.AccessPolicy.requireCorpus;

import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.IngestPipeline;
import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceIds;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.SourceState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@link Corpora} over a {@link CorpusStore}: checks grants in the contract's order (validation,
 * grants, existence, conflicts) and delegates the work to the store's corpus indexes.
 */
final class LocalCorpora implements Corpora {
  static final int MAX_LIST_LIMIT = 1000;
  private static final Set<Scope> MANAGE = EnumSet.of(Scope.MANAGE);
  private static final Set<Scope> INDEX = EnumSet.of(Scope.INDEX);
  private static final Set<Scope> SEARCH = EnumSet.of(Scope.SEARCH);
  private static final Set<Scope> READ = EnumSet.of(Scope.SEARCH, Scope.INDEX);
  private static final Set<Scope> ANY = EnumSet.allOf(Scope.class);

  private final CorpusStore store;

  /** Null when built without extractors: ingestion is then unavailable. */
  private final IngestPipeline ingestion;

  private final WriteAdmission writes;

  LocalCorpora(CorpusStore store, IngestPipeline ingestion, WriteAdmission writes) {
    this.store = store;
    this.ingestion = ingestion;
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  @Override
  public CorpusDescription createCorpus(Access access, String corpus, CorpusSettings settings) {
    CorpusInfo.checkName(corpus, "corpus");
    requireCorpus(access, corpus, MANAGE);
    writes.admit();
    CorpusInfo info = store.create(corpus, settings == null ? CorpusSettings.DEFAULT : settings);
    return new CorpusDescription(info, 0, 0);
  }

  @Override
  public void deleteCorpus(Access access, String corpus) {
    CorpusInfo.checkName(corpus, "corpus");
    requireCorpus(access, corpus, MANAGE);
    store.delete(corpus);
  }

  @Override
  public CorpusBackup backupCorpus(Access access, String corpus, Path targetDataDir) {
    CorpusInfo.checkName(corpus, "corpus");
    requireCorpus(access, corpus, MANAGE);
    return store.backup(corpus, targetDataDir);
  }

  @Override
  public Optional<OpenCorporaFootprint> openCorpora() {
    return store.openCorpora();
  }

  @Override
  public boolean backsUp() {
    return store.backsUp();
  }

  @Override
  public boolean scoresExactly() {
    return store.scoresExactly();
  }

  @Override
  public Optional<List<OpenCorpusFootprint>> openCorpusFootprints() {
    return store.openCorpusFootprints();
  }

  @Override
  public Optional<CacheCounts> openCorporaCache() {
    return store.openCorporaCache();
  }

  @Override
  public CorpusDescription readCorpus(Access access, String corpus) {
    CorpusInfo.checkName(corpus, "corpus");
    requireCorpus(access, corpus, ANY);
    return describe(access, corpus);
  }

  private CorpusDescription describe(Access access, String corpus) {
    return store.withCorpus(
        corpus,
        index -> {
          long revision = index.revision();
          long sources =
              AccessPolicy.seesAllSources(access, corpus, ANY)
                  ? index.countSources(null)
                  : index.countSources(AccessPolicy.visibleSources(access, corpus, ANY));
          return new CorpusDescription(index.info(), revision, sources);
        });
  }

  @Override
  public CorpusListPage listCorpora(Access access, String cursor, int limit) {
    checkLimit(limit);
    String after = decodeCursor(cursor);
    List<CorpusDescription> out = new ArrayList<>();
    String last = after;
    while (out.size() < limit) {
      List<String> names = store.names(last, limit);
      if (names.isEmpty()) {
        return new CorpusListPage(out, null);
      }
      for (String name : names) {
        last = name;
        if (!AccessPolicy.anyGrant(access, name)) {
          continue;
        }
        try {
          out.add(describe(access, name));
        } catch (QuarryException e) {
          if (e.code() != ErrorCode.CORPUS_NOT_FOUND) {
            throw e;
          }
        }
        if (out.size() == limit) {
          break;
        }
      }
    }
    return new CorpusListPage(out, hasGrantedAfter(access, last) ? encodeCursor(last) : null);
  }

  private boolean hasGrantedAfter(Access access, String after) {
    String last = after;
    while (true) {
      List<String> names = store.names(last, 256);
      if (names.isEmpty()) {
        return false;
      }
      for (String n : names) {
        if (AccessPolicy.anyGrant(access, n)) {
          return true;
        }
        last = n;
      }
    }
  }

  @Override
  public MutationResult mutate(
      Access access,
      String corpus,
      List<SourceOperation> operations,
      String expectedCorpusId,
      Mutation.Idempotency idempotency) {
    CorpusInfo.checkName(corpus, "corpus");
    Mutation mutation = new Mutation(operations, access.subject(), idempotency, expectedCorpusId);
    requireCorpus(access, corpus, INDEX);
    for (SourceOperation op : mutation.operations()) {
      AccessPolicy.requireSource(access, corpus, op.source(), INDEX);
    }
    boolean adds =
        mutation.operations().stream().anyMatch(op -> op instanceof SourceOperation.Index);
    return store.withCorpus(
        corpus,
        index -> {
          if (adds) {
            writes.admit();
          }
          return index.apply(mutation);
        });
  }

  @Override
  public SearchResult search(
      Access access, String corpus, SearchRequest request, String expectedCorpusId) {
    CorpusInfo.checkName(corpus, "corpus");
    SourceScope granted = AccessPolicy.searchGrants(access, corpus);
    SearchRequest scoped =
        request
            .withScope(AccessPolicy.searchScope(granted, request.scope()))
            .withStatistics(granted);
    return store.withCorpus(
        corpus,
        index -> {
          index.info().requireCorpusId(expectedCorpusId);
          return index.search(scoped);
        });
  }

  @Override
  public boolean embedQuery(Access access, String corpus, SourceScope requested, String query) {
    CorpusInfo.checkName(corpus, "corpus");
    AccessPolicy.searchScope(access, corpus, requested);
    return store.withCorpus(corpus, index -> index.embedQuery(query));
  }

  @Override
  public long countSources(Access access, String corpus, SourceScope requested) {
    CorpusInfo.checkName(corpus, "corpus");
    SourceScope scope = AccessPolicy.searchScope(access, corpus, requested);
    return store.withCorpus(
        corpus, index -> index.countSources(scope.isAll() ? null : scope::contains));
  }

  @Override
  public SourceRead readSource(Access access, String corpus, String source) {
    CorpusInfo.checkName(corpus, "corpus");
    SourceIds.check(source, "source");
    requireCorpus(access, corpus, READ);
    AccessPolicy.requireSource(access, corpus, source, READ);
    return store.withCorpus(
        corpus,
        index -> {
          long revision = index.revision();
          SourceState state =
              index
                  .readSource(source)
                  .orElseThrow(
                      () ->
                          new QuarryException(
                              ErrorCode.SOURCE_NOT_FOUND,
                              "source '" + source + "' does not exist"));
          return new SourceRead(corpus, index.info().corpusId(), revision, state);
        });
  }

  @Override
  public SourceText readChunks(
      Access access,
      String corpus,
      String source,
      Long revision,
      Integer after,
      int limit,
      String expectedCorpusId) {
    CorpusInfo.checkName(corpus, "corpus");
    SourceIds.check(source, "source");
    checkLimit(limit);
    if (revision != null && revision < 0) {
      throw QuarryException.invalid("revision", "revision must be 0 or more; got " + revision);
    }
    if (after != null && after < 0) {
      throw QuarryException.invalid("after", "after must be 0 or more; got " + after);
    }
    requireCorpus(access, corpus, READ);
    AccessPolicy.requireSource(access, corpus, source, READ);
    return store.withCorpus(
        corpus,
        index -> {
          index.info().requireCorpusId(expectedCorpusId);
          SourceChunks chunks =
              index
                  .readChunks(source, revision, after == null ? -1 : after, limit)
                  .orElseThrow(
                      () ->
                          new QuarryException(
                              ErrorCode.SOURCE_NOT_FOUND,
                              "source '"
                                  + source
                                  + "' does not exist"
                                  + (revision == null ? "" : " at revision " + revision)));
          return new SourceText(corpus, index.info().corpusId(), chunks);
        });
  }

  @Override
  public SourcePage listSources(
      Access access, String corpus, String prefix, String cursor, int limit) {
    CorpusInfo.checkName(corpus, "corpus");
    checkLimit(limit);
    String after = decodeCursor(cursor);
    requireCorpus(access, corpus, READ);
    Predicate<String> visible = AccessPolicy.visibleSources(access, corpus, READ);
    SourcePage page =
        store.withCorpus(corpus, index -> index.listSources(prefix, after, limit, visible));
    return new SourcePage(
        page.sources(), page.nextCursor() == null ? null : encodeCursor(page.nextCursor()));
  }

  @Override
  public HistoryPage history(Access access, String corpus, long after, int limit) {
    CorpusInfo.checkName(corpus, "corpus");
    checkLimit(limit);
    if (after < 0) {
      throw QuarryException.invalid("after", "after must be 0 or more; got " + after);
    }
    requireCorpus(access, corpus, INDEX);
    Predicate<String> visible = AccessPolicy.visibleSources(access, corpus, INDEX);
    return store.withCorpus(corpus, index -> index.history(after, limit, visible));
  }

  @Override
  public MutationResult ingest(
      Access access,
      String corpus,
      IngestRequest request,
      Path file,
      Mutation.Idempotency idempotency,
      Runnable beforeWrite) {
    if (ingestion == null) {
      throw new QuarryException(
          ErrorCode.INGESTION_UNAVAILABLE, "document ingestion is not configured");
    }
    CorpusInfo.checkName(corpus, "corpus");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(file, "file");
    requireCorpus(access, corpus, INDEX);
    AccessPolicy.requireSource(access, corpus, request.source(), INDEX);
    // Existence, identity and replay are decided before the costly extraction.
    Optional<MutationResult> replay =
        store.withCorpus(
            corpus,
            index -> {
              index.info().requireCorpusId(request.expectedCorpusId());
              return idempotency == null
                  ? Optional.<MutationResult>empty()
                  : storedOutcome(index, access, idempotency);
            });
    if (replay.isPresent()) {
      return replay.get();
    }
    writes.admit();
    String claimed =
        idempotency == null ? null : corpus + "\n" + access.subject() + "\n" + idempotency.key();
    try (IngestPipeline.KeyClaim claim = ingestion.claim(claimed)) {
      SourceOperation.Index operation = ingestion.prepare(request, file);
      beforeWrite.run();
      Mutation mutation =
          new Mutation(
              List.of(operation), access.subject(), idempotency, request.expectedCorpusId());
      return store.withCorpus(corpus, index -> index.apply(mutation));
    }
  }

  private static Optional<MutationResult> storedOutcome(
      CorpusIndex index, Access access, Mutation.Idempotency idempotency) {
    return index
        .findIdempotent(access.subject(), idempotency.key())
        .map(
            stored -> {
              idempotency.requireSameRequest(stored.fingerprint());
              return stored.result().asReplay();
            });
  }

  @Override
  public boolean ingestsDocuments() {
    return ingestion != null;
  }

  @Override
  public boolean ingestsPdf() {
    return ingestion != null && ingestion.pdfEnabled();
  }

  @Override
  public boolean ingestsWithOcr() {
    return ingestion != null && ingestion.ocrAvailable();
  }

  @Override
  public List<String> missingOcrLanguages(List<String> languages) {
    return ingestion == null ? List.copyOf(languages) : ingestion.missingOcrLanguages(languages);
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      throw QuarryException.invalid(
          "limit", "limit must be between 1 and " + MAX_LIST_LIMIT + "; got " + limit);
    }
  }

  static String encodeCursor(String position) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(("v1:" + position).getBytes(StandardCharsets.UTF_8));
  }

  static String decodeCursor(String cursor) {
    if (cursor == null) {
      return null;
    }
    try {
      String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (s.startsWith("v1:")) {
        return s.substring(3);
      }
    } catch (IllegalArgumentException e) {
      // fall through to the typed error
    }
    throw QuarryException.invalid("cursor", "cursor is not one this service issued");
  }

  @Override
  public void close() {
    try {
      store.close();
    } catch (IOException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "closing the corpus store failed", e);
    }
  }
}
