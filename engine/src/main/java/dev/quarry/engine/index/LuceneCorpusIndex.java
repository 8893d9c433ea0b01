package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.IndexFootprint;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceState;
import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.SignCodes;
import dev.quarry.engine.embed.VectorCodec;
import dev.quarry.engine.embed.VectorLists;
import dev.quarry.engine.search.RevisionSearcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.IOUtils;

/**
 * The Lucene implementation of {@link CorpusIndex}: an {@link IndexStore} for the index, a {@link
 * CorpusWriter} for mutations, a {@link RevisionSearcher} for searches.
 */
public final class LuceneCorpusIndex implements CorpusIndex {
  private final Path dir;
  private final CorpusInfo info;
  private final EngineConfig config;
  private final IndexStore store;
  private final CorpusWriter writer;
  private final RevisionSearcher searcher;

  /** The corpus's embedding model, or null for a lexical corpus. */
  private final Embedder embedder;

  /** Idempotency keys (subject, key) of mutations queued or being written. */
  private final Set<String> keysInFlight = ConcurrentHashMap.newKeySet();

  private volatile boolean closed;

  private LuceneCorpusIndex(Path dir, CorpusInfo info, EngineConfig config, WriterTuning tuning)
      throws IOException {
    this.dir = dir;
    this.info = info;
    this.config = config;
    this.embedder = config.embeddingModels().embedderOf(info);
    this.store = new IndexStore(dir, info, config, tuning);
    this.searcher =
        new RevisionSearcher(
            info, store.analyzer(), embedder, config.searchCaches(), config.searchConcurrency());
    this.writer = new CorpusWriter(info, config, store);
  }

  /** Opens (creating when absent) the index of corpus {@code info} in {@code dir}. */
  public static CorpusIndex open(Path dir, CorpusInfo info, EngineConfig config)
      throws IOException {
    return open(dir, info, config, WriterTuning.NONE);
  }

  /**
   * Expert, for tests: {@link #open(Path, CorpusInfo, EngineConfig)} with the writer's
   * configuration tuned.
   */
  static LuceneCorpusIndex open(Path dir, CorpusInfo info, EngineConfig config, WriterTuning tuning)
      throws IOException {
    Files.createDirectories(dir);
    return new LuceneCorpusIndex(dir, info, config, tuning);
  }

  /** The oldest revision a pinned search reaches when {@code revision} is the latest. */
  static long oldestRetained(long revision, int retainedRevisions) {
    return Math.max(0, revision - retainedRevisions + 1);
  }

  @Override
  public CorpusInfo info() {
    return info;
  }

  @Override
  public long revision() {
    IndexSnapshot s = store.acquire();
    try {
      return s.revision();
    } finally {
      s.release();
    }
  }

  @Override
  public long oldestRetainedRevision() {
    return oldestRetained(revision(), config.retainedRevisions());
  }

  /** Lucene commits made since open; group commit keeps this below the number of mutations. */
  public long commits() {
    return writer.commits();
  }

  /**
   * Merges the index down to {@code maxSegments} segments and republishes the current revision. For
   * tests and maintenance: call it while no mutation is in flight.
   */
  void forceMerge(int maxSegments) throws IOException {
    store.writer().forceMerge(maxSegments);
    store.writer().commit();
    store.publish(store.committedRevision());
  }

  @Override
  public CompletableFuture<MutationResult> submit(Mutation mutation) {
    ensureOpen();
    Map<Integer, PreparedSource> prepared = new HashMap<>();
    boolean batch = mutation.operations().size() > 1;
    for (int i = 0; i < mutation.operations().size(); i++) {
      if (mutation.operations().get(i) instanceof SourceOperation.Index ix) {
        try {
          prepared.put(
              i,
              PreparedSource.prepare(
                  ix, info.settings().chunking(), embedder, info.settings().language()));
        } catch (QuarryException e) {
          throw batch ? e.withFieldPrefix("operations[" + i + "]") : e;
        }
      }
    }
    String key = null;
    if (mutation.idempotency() != null) {
      key = Documents.idempotencyTerm(mutation.subject(), mutation.idempotency().key());
      Optional<StoredOutcome> done =
          findIdempotent(mutation.subject(), mutation.idempotency().key());
      if (done.isPresent()) {
        mutation.idempotency().requireSameRequest(done.get().fingerprint());
        return CompletableFuture.completedFuture(done.get().result().asReplay());
      }
      if (!keysInFlight.add(key)) {
        throw new QuarryException(
            ErrorCode.IDEMPOTENCY_IN_PROGRESS,
            "a request with this Idempotency-Key is still being applied; retry shortly");
      }
    }
    CompletableFuture<MutationResult> future = new CompletableFuture<>();
    if (key != null) {
      String k = key;
      future.whenComplete((r, e) -> keysInFlight.remove(k));
    }
    if (embedder == null) {
      enqueue(mutation, prepared, future);
      return future;
    }
    CompletableFuture<Map<Integer, PreparedSource>> embedded;
    try {
      embedded = embed(prepared);
    } catch (QuarryException e) {
      future.completeExceptionally(e);
      throw e;
    }
    embedded.whenComplete(
        (withVectors, failure) -> {
          if (failure != null) {
            Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            future.completeExceptionally(
                cause instanceof QuarryException
                    ? cause
                    : new QuarryException(
                        ErrorCode.INTERNAL, "embedding failed: " + cause.getMessage(), cause));
            return;
          }
          try {
            enqueue(mutation, withVectors, future);
          } catch (QuarryException e) {
            // already completed exceptionally by enqueue
          }
        });
    return future;
  }

  private void enqueue(
      Mutation mutation,
      Map<Integer, PreparedSource> prepared,
      CompletableFuture<MutationResult> future) {
    try {
      writer.submit(new QueuedMutation(mutation, prepared, future));
    } catch (QuarryException e) {
      future.completeExceptionally(e);
      throw e;
    }
  }

  /**
   * Embeds every chunk of the mutation's index operations on the process's embedding pool (never on
   * the writer thread), so the writer only stores vectors and a receipt covers both sides.
   */
  private CompletableFuture<Map<Integer, PreparedSource>> embed(
      Map<Integer, PreparedSource> prepared) {
    List<Integer> order = new ArrayList<>(new TreeSet<>(prepared.keySet()));
    List<String> texts = new ArrayList<>();
    for (int i : order) {
      texts.addAll(prepared.get(i).embeddingTexts());
    }
    if (texts.isEmpty()) {
      return CompletableFuture.completedFuture(prepared);
    }
    Function<byte[], PreparedSource.ChunkCode> codes = chunkCodes(info.settings().embedding());
    return config
        .embeddingModels()
        .passages()
        .embed(embedder, texts)
        .thenApply(
            embeddings -> {
              Map<Integer, PreparedSource> out = new HashMap<>();
              int next = 0;
              for (int i : order) {
                PreparedSource ps = prepared.get(i);
                List<byte[]> vectors = new ArrayList<>(ps.chunks().size());
                int truncated = 0;
                for (int c = 0; c < ps.chunks().size(); c++) {
                  Embedder.Embedding e = embeddings.get(next++);
                  vectors.add(VectorCodec.encode(e.vector()));
                  truncated += e.truncated() ? 1 : 0;
                }
                out.put(
                    i,
                    ps.withVectors(
                        vectors,
                        truncated,
                        info.settings().embedding().index() == CorpusSettings.VectorIndex.HNSW,
                        codes));
              }
              return out;
            });
  }

  /**
   * What makes a stored vector's code in a corpus with the coded first pass; null in every other
   * corpus.
   */
  static Function<byte[], PreparedSource.ChunkCode> chunkCodes(CorpusSettings.Embedding embedding) {
    CorpusSettings.FirstPass pass = embedding.firstPass();
    if (embedding.index() != CorpusSettings.VectorIndex.CODES || pass == null) {
      return null;
    }
    VectorLists lists = pass.hasLists() ? VectorLists.of(embedding.sha256(), pass.lists()) : null;
    ToIntFunction<byte[]> listOf =
        lists == null ? v -> PreparedSource.ChunkCode.NO_LIST : lists::listOf;
    if (pass.code() == CorpusSettings.FirstPass.Code.SIGN) {
      return v ->
          new PreparedSource.ChunkCode(
              Fields.VECTOR_CODE, SignCodes.encode(v), listOf.applyAsInt(v));
    }
    CentredCodes centred =
        CentredCodes.of(embedding.sha256(), pass.centre(), pass.seed(), pass.bits());
    return v ->
        new PreparedSource.ChunkCode(
            Fields.VECTOR_CENTRED_CODE, centred.encode(v), listOf.applyAsInt(v));
  }

  @Override
  public SearchResult search(SearchRequest request) {
    long start = System.nanoTime();
    IndexSnapshot s = store.acquire();
    try {
      SearchResult result = searcher.search(s, request);
      config
          .listener()
          .searched(
              request.mode() == null ? "default" : request.mode().wireName(),
              System.nanoTime() - start);
      return result;
    } finally {
      s.release();
    }
  }

  @Override
  public Optional<SourceChunks> readChunks(String source, Long revision, int after, int limit) {
    IndexSnapshot s = store.acquire();
    try {
      return searcher.chunks(s, source, revision, after, limit);
    } finally {
      s.release();
    }
  }

  @Override
  public boolean embedQuery(String query) {
    ensureOpen();
    if (embedder == null) {
      return false;
    }
    searcher.queryVector(query);
    return true;
  }

  @Override
  public Optional<SourceState> readSource(String source) {
    try {
      return store.readSource(source, info.settings().language());
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  @Override
  public SourcePage listSources(
      String prefix, String cursor, int limit, Predicate<String> visible) {
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    IndexSnapshot s = store.acquire();
    try {
      List<String> ids = SourceRecords.ids(s.latest(), prefix, cursor, limit, visible);
      boolean more = ids.size() > limit;
      List<SourceState> states = new ArrayList<>();
      for (String id : more ? ids.subList(0, limit) : ids) {
        SourceRecords.read(s.latest(), id, info.settings().language()).ifPresent(states::add);
      }
      return new SourcePage(states, more ? ids.get(limit - 1) : null);
    } catch (IOException e) {
      throw unavailable(e);
    } finally {
      s.release();
    }
  }

  @Override
  public long countSources(Predicate<String> visible) {
    IndexSnapshot s = store.acquire();
    try {
      if (visible == null) {
        return new IndexSearcher(s.latest())
            .count(new TermQuery(new Term(Fields.KIND, Fields.KIND_SOURCE)));
      }
      return SourceRecords.count(s.latest(), visible);
    } catch (IOException e) {
      throw unavailable(e);
    } finally {
      s.release();
    }
  }

  @Override
  public HistoryPage history(long after, int limit, Predicate<String> visible) {
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    IndexSnapshot s = store.acquire();
    try {
      return HistoryLog.page(s.latest(), s.oldestRetainedRevision(), after, limit, visible);
    } catch (IOException e) {
      throw unavailable(e);
    } finally {
      s.release();
    }
  }

  @Override
  public Optional<StoredOutcome> findIdempotent(String subject, String key) {
    try {
      return store.findIdempotent(
          Documents.idempotencyTerm(subject, key),
          config.clock().instant(),
          config.idempotencyRetention());
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closed");
    }
  }

  private QuarryException unavailable(IOException e) {
    return new QuarryException(
        ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' could not be read", e);
  }

  @Override
  public Optional<IndexFootprint> footprint() {
    ensureOpen();
    IndexSnapshot s = store.acquire();
    try {
      // The searcher's own segments: while it holds them the writer keeps their files, and
      // Lucene remembers each segment's size once measured.
      long bytes = 0;
      for (var leaf : s.latest().leaves()) {
        if (FilterLeafReader.unwrap(leaf.reader()) instanceof SegmentReader segment) {
          bytes += segment.getSegmentInfo().sizeInBytes();
        }
      }
      return Optional.of(new IndexFootprint(s.latest().leaves().size(), bytes));
    } catch (IOException e) {
      throw unavailable(e);
    } finally {
      s.release();
    }
  }

  @Override
  public long backup(Path target) throws IOException {
    ensureOpen();
    return store.copyLastCommit(target);
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    writer.close();
    store.close();
  }

  @Override
  public void closeAndDelete() throws IOException {
    close();
    IOUtils.rm(dir);
  }
}
