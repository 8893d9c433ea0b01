package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Filter;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.SourceState;
import dev.quarry.engine.spi.PortableCodes;
import dev.quarry.engine.spi.PortableDense;
import dev.quarry.engine.spi.PortableFusion;
import dev.quarry.engine.spi.PortableScoring;
import dev.quarry.engine.spi.SourcePreparation;
import dev.quarry.engine.spi.StoreRules;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;

/**
 * One corpus kept in an OpenSearch index. Reads and searches answer at the head's published
 * revision P (or the pinned one) by filtering {@code added <= P < superseded}; mutations go, one at
 * a time per front, through {@link ClusterWriter}. The index holds no state of its own beyond the
 * cluster's, so any number of fronts may open the same corpus.
 *
 * <p>Scores are the embedded store's when every node has Quarry's scoring plugin: its {@code
 * quarry_bm25f} query scores each chunk with BM25F and the statistics of the revision's visible
 * chunks on every shard, so a chunk gets the same float at the same revision on both stores.
 * Without it they are OpenSearch's BM25 (the corpus's k1 and b, Quarry's terms) with the shard's
 * statistics, which also count versions superseded or not yet published: hits follow the revision
 * filter exactly, but scores (and so the order among close scores) may differ from the embedded
 * store's and between two pinned searches of one revision. The store advertises which ({@link
 * OpenSearchCorpusStore#scoresExactly}).
 */
final class ClusterCorpusIndex implements CorpusIndex {
  /** The most queued mutations per corpus and front; more are CAPACITY. */
  static final int MAX_QUEUED = 256;

  /** How long a mutation waits for another front's writer lease. */
  static final Duration LEASE_WAIT = Duration.ofSeconds(60);

  private final ClusterHttp http;
  private final String index;

  /**
   * Where a search goes: its answer keeps only what {@link #search} reads, each hit's score and
   * fields (and an error's description), not the hits' index, id and sort values or the shards'
   * summary.
   */
  private final String searchPath;

  private final CorpusInfo info;
  private final EngineConfig config;
  private final Analyzer analyzer;
  private final ClusterWriter writer;
  private final ExpiredVersions expired;
  private final ExecutorService writes;
  private final AtomicInteger queued = new AtomicInteger();

  /** Whether an idle reclaim ({@link #reclaimIfIdle}) is queued or running. */
  private final AtomicBoolean idleReclaimQueued = new AtomicBoolean();

  private volatile boolean closed;

  /**
   * The store's calls using this index now; {@link #RETIRING} while {@link #retireIfIdle} decides,
   * {@link #RETIRED} once it closed the index for the store's bound.
   */
  private final AtomicInteger users = new AtomicInteger();

  private static final int RETIRING = -1;
  private static final int RETIRED = -2;

  /**
   * When a call last took this index ({@link System#nanoTime}): the store retires the least recent
   * first.
   */
  private volatile long lastUsed = System.nanoTime();

  private volatile boolean holdsPhrases;

  /**
   * Whether every node of the cluster has the {@code quarry_bm25f} query (the store asked when it
   * started).
   */
  private final boolean clusterScoresExactly;

  private final PortableScoring scoring;

  /**
   * The corpus's embedding model (this front's, the one its vectors were computed with), null for a
   * lexical corpus.
   */
  private final Embedder embedder;

  /** Whether the corpus's semantic searches run the coded first pass ({@code index: "codes"}). */
  private final boolean coded;

  /**
   * The coded first pass's codes, once first used ({@link #codes}): not at opening, since a corpus
   * whose centre no longer ships still opens for lexical searches and reads, as on the embedded
   * store.
   */
  private volatile PortableCodes codes;

  /**
   * Where an exactly scored search goes: with a DFS phase, so every shard scores with the
   * statistics of all (OpenSearch skips the phase on an index of one shard, whose statistics are
   * the corpus's).
   */
  private final String exactSearchPath;

  /**
   * The existence check of the call the store runs on this thread with this corpus (see {@link
   * CallHead}): its head is handed to the first read of the head in the call (so a search costs no
   * second head read); every later read, and every one after a mutation, asks the cluster again.
   */
  private final ThreadLocal<CallHead> callHead = new ThreadLocal<>();

  /**
   * The highest revision this front has seen published in this corpus's head. Published revisions
   * never go back (the head moves only forward, by compare-and-set, and a roll-back only removes
   * revisions above the published one), and a corpus index is named by its corpusId, so a revision
   * at or below this one was published, with all its documents refreshed, before anything this
   * front sends now: a search of it may be sent before the head is read (see {@link #search}).
   * Revision 0 is published when the corpus is created.
   */
  private final AtomicLong seenPublished = new AtomicLong();

  /**
   * First passes over an inverted file answered from the nearest lists alone, and after counting
   * every list's chunks in scope: how often the second, costlier way runs, for tests and diagnosis.
   */
  private final LongAdder passesFromNearestLists = new LongAdder();

  private final LongAdder passesAfterCountingLists = new LongAdder();

  /**
   * Runs the requests sent beside a read of the head (a search's, a batch's live source records),
   * one blocking HTTP request each (a hybrid search's semantic side embeds its query first), on
   * platform threads kept for reuse (idle ones end after a minute). Not virtual threads: the HTTP
   * client's answer then wakes the request's thread through the virtual threads' scheduler, a hop
   * that cost a search's median about 5% (benchmarks/HISTORY.md).
   */
  private static final ExecutorService BESIDE_HEAD =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "quarry-cluster-beside-head");
            t.setDaemon(true);
            return t;
          });

  ClusterCorpusIndex(
      ClusterHttp http,
      String index,
      CorpusInfo info,
      EngineConfig config,
      OpenSearchSettings settings,
      String owner,
      BooleanSupplier retentionRecorded,
      boolean clusterScoresExactly) {
    this.http = http;
    this.clusterScoresExactly = clusterScoresExactly;
    this.index = index;
    // No filter_path: the node's filtering of its answer cost more than the few hundred bytes of
    // hit metadata it drops (benchmarks/HISTORY.md).
    this.searchPath = CorpusDocs.searchPath(index);
    this.exactSearchPath = searchPath + "&search_type=dfs_query_then_fetch";
    this.info = info;
    this.config = config;
    this.analyzer = StoreRules.analyzer(info.settings().language());
    this.scoring = PortableScoring.of(info.settings().ranking());
    this.embedder = config.embeddingModels().embedderOf(info);
    this.coded =
        info.settings().hasEmbedding()
            && info.settings().embedding().index() == CorpusSettings.VectorIndex.CODES;
    WriterLease lease = new WriterLease(http, index, owner, settings.leaseTtl(), config.clock());
    this.writer = new ClusterWriter(http, index, info, config, lease, analyzer, this);
    this.expired =
        new ExpiredVersions(
            http,
            index,
            lease,
            this::oldestRetained,
            retentionRecorded,
            ExpiredVersions.settleFor(settings.requestTimeout()));
    this.writes =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "quarry-cluster-writer-" + info.name());
              t.setDaemon(true);
              return t;
            });
  }

  String indexName() {
    return index;
  }

  /**
   * For tests: runs {@code hook} on the writer after a revision is marked and before its documents
   * are written.
   */
  void beforeWrites(Runnable hook) {
    writer.beforeWrites(hook);
  }

  /**
   * Takes this index for one call of the store: false once it was retired (the store opens it
   * anew).
   */
  boolean acquire() {
    while (true) {
      int u = users.get();
      if (u == RETIRED) {
        return false;
      }
      if (u == RETIRING) {
        Thread.onSpinWait(); // decided in a moment, without any request to the cluster
      } else if (users.compareAndSet(u, u + 1)) {
        lastUsed = System.nanoTime();
        return true;
      }
    }
  }

  void release() {
    users.decrementAndGet();
  }

  long lastUsed() {
    return lastUsed;
  }

  boolean retired() {
    return users.get() == RETIRED;
  }

  /**
   * Closes this index if no call uses it and its writer has no mutation queued or running (a batch
   * is never cut short): true when it did, and from then on {@link #acquire} refuses it. A mutation
   * is only submitted by a call holding the index, so once no call holds it and nothing is queued,
   * nothing can be queued any more.
   */
  boolean retireIfIdle() {
    if (queued.get() > 0 || !users.compareAndSet(0, RETIRING)) {
      return false;
    }
    if (queued.get() > 0) {
      users.set(0);
      return false;
    }
    users.set(RETIRED);
    close();
    return true;
  }

  @Override
  public CorpusInfo info() {
    return info;
  }

  @Override
  public long revision() {
    checkOpen();
    CallHead call = callHead.get();
    if (call != null) {
      Optional<CorpusHead> handed = call.handOnce();
      if (handed.isPresent()) {
        return sawPublished(handed.get().published());
      }
    }
    return sawPublished(CorpusHead.read(http, index).published());
  }

  /** Remembers that {@code published} was seen published; returns it. */
  long sawPublished(long published) {
    seenPublished.accumulateAndGet(published, Math::max);
    return published;
  }

  /**
   * Runs {@code work} on this thread with {@code call} as its existence check: the first read of
   * the head in the call reads it (or a mutation, which confirms it first).
   */
  <T> T withHead(CallHead call, Supplier<T> work) {
    CallHead outer = callHead.get();
    callHead.set(call);
    try {
      return work.get();
    } finally {
      if (outer == null) {
        callHead.remove();
      } else {
        callHead.set(outer);
      }
    }
  }

  @Override
  public long oldestRetainedRevision() {
    return oldestRetained(revision());
  }

  /** The oldest revision retained while {@code latest} is the published one. */
  long oldestRetained(long latest) {
    return Math.max(0, latest - config.retainedRevisions() + 1);
  }

  @Override
  public CompletableFuture<MutationResult> submit(Mutation mutation) {
    checkOpen();
    CallHead call = callHead.get();
    if (call != null) {
      call.confirm(); // never a write to a corpus that is gone
      callHead.remove(); // a read after this mutation must see it
    }
    List<SourcePreparation.Prepared> prepared = new ArrayList<>();
    for (SourceOperation op : mutation.operations()) {
      prepared.add(
          op instanceof SourceOperation.Index ix
              ? SourcePreparation.prepare(
                  ix, info.settings().chunking(), embedder, info.settings().language())
              : null);
    }
    if (queued.incrementAndGet() > MAX_QUEUED) {
      queued.decrementAndGet();
      return CompletableFuture.failedFuture(
          new QuarryException(
              ErrorCode.CAPACITY,
              "corpus '" + info.name() + "' has " + MAX_QUEUED + " mutations queued; try again"));
    }
    CompletableFuture<MutationResult> receipt = new CompletableFuture<>();
    // An embedding corpus's chunks are embedded first, on the process's embedding pool (never on
    // the writer thread), as the embedded store does: the writer only stores the vectors.
    CompletableFuture<List<ClusterWriter.ChunkVectors>> vectors;
    try {
      vectors = embedder == null ? CompletableFuture.completedFuture(null) : embed(prepared);
    } catch (RuntimeException e) {
      queued.decrementAndGet();
      throw e;
    }
    vectors.whenComplete(
        (embedded, failure) -> {
          if (failure != null) {
            queued.decrementAndGet();
            Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            receipt.completeExceptionally(
                cause instanceof QuarryException
                    ? cause
                    : new QuarryException(ErrorCode.INTERNAL, "embedding failed", cause));
            return;
          }
          write(mutation, prepared, embedded, receipt);
        });
    return receipt;
  }

  /** Queues {@code mutation} on the writer thread; its outcome completes {@code receipt}. */
  private void write(
      Mutation mutation,
      List<SourcePreparation.Prepared> prepared,
      List<ClusterWriter.ChunkVectors> vectors,
      CompletableFuture<MutationResult> receipt) {
    try {
      writes.execute(
          () -> {
            try {
              // The receipt is given before the writer lease is released (see ClusterWriter#apply),
              // and
              // after a reclaim it makes due is queued, so that one runs before any later mutation.
              // The
              // mutation counts as queued until the lease is back, so the corpus is not closed
              // under it.
              writer.apply(
                  mutation,
                  prepared,
                  vectors,
                  LEASE_WAIT,
                  result -> {
                    reclaimIfDue(result.revision());
                    receipt.complete(result);
                  });
            } catch (Throwable e) {
              receipt.completeExceptionally(e);
            } finally {
              queued.decrementAndGet();
            }
          });
    } catch (RejectedExecutionException e) {
      queued.decrementAndGet();
      receipt.completeExceptionally(
          new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closed"));
    }
  }

  /**
   * Each index operation's chunk vectors (null for a delete), embedded as the embedded store embeds
   * them: what {@link SourcePreparation.Prepared#embeddingTexts} says, by this front's model,
   * stored in the embedded store's form ({@link PortableDense#encode}), so both stores hold the
   * same bytes.
   */
  private CompletableFuture<List<ClusterWriter.ChunkVectors>> embed(
      List<SourcePreparation.Prepared> prepared) {
    List<String> texts = new ArrayList<>();
    for (SourcePreparation.Prepared p : prepared) {
      if (p != null) {
        texts.addAll(p.embeddingTexts());
      }
    }
    CompletableFuture<List<Embedder.Embedding>> embedded =
        texts.isEmpty()
            ? CompletableFuture.completedFuture(List.of())
            : PortableDense.embedPassages(config.embeddingModels(), embedder, texts);
    return embedded.thenApply(
        embeddings -> {
          List<ClusterWriter.ChunkVectors> out = new ArrayList<>();
          // The codes' centre is checked when first used, as the embedded store checks it.
          PortableCodes firstPass = coded ? codes() : null;
          int next = 0;
          for (SourcePreparation.Prepared p : prepared) {
            if (p == null) {
              out.add(null);
              continue;
            }
            List<byte[]> vectors = new ArrayList<>(p.chunks().size());
            List<byte[]> codes = firstPass == null ? null : new ArrayList<>(p.chunks().size());
            List<Integer> lists =
                firstPass == null || !firstPass.hasLists()
                    ? null
                    : new ArrayList<>(p.chunks().size());
            int truncated = 0;
            for (int c = 0; c < p.chunks().size(); c++) {
              Embedder.Embedding e = embeddings.get(next++);
              byte[] stored = PortableDense.encode(e.vector());
              vectors.add(stored);
              if (codes != null) {
                codes.add(firstPass.encode(stored));
              }
              if (lists != null) {
                lists.add(firstPass.listOf(stored));
              }
              truncated += e.truncated() ? 1 : 0;
            }
            out.add(new ClusterWriter.ChunkVectors(vectors, codes, lists, truncated));
          }
          return out;
        });
  }

  /**
   * Queues a reclaim of the versions no retained revision sees (see {@link ExpiredVersions}) behind
   * this mutation, when {@code published} makes one due: it runs on the writer thread after the
   * mutation's receipt was given, never on a request's path.
   */
  private void reclaimIfDue(long published) {
    if (!expired.dueAfter(published)) {
      return;
    }
    try {
      writes.execute(expired::reclaim);
    } catch (RejectedExecutionException e) {
      // Closing: a later front or opening reclaims them.
    }
  }

  /**
   * Queues on the writer thread a reclaim of what this front's last publications left expired, if
   * the corpus has taken no write for a while ({@link ExpiredVersions#dueWhenIdle}): so a corpus
   * that stops being written ends with every expired version deleted, as one written again does.
   * Off every request's path; behind any mutation queued meanwhile, never beside one; at most one
   * queued at a time. It counts as queued work, so the store does not retire the corpus under it
   * (and {@link #retireIfIdle} never waits for it).
   */
  void reclaimIfIdle() {
    if (closed || !idleReclaimQueued.compareAndSet(false, true)) {
      return;
    }
    queued.incrementAndGet();
    // Seen by retireIfIdle, which marks RETIRING before it looks at queued: one of the two backs
    // off.
    if (users.get() < 0) {
      queued.decrementAndGet();
      idleReclaimQueued.set(false);
      return;
    }
    try {
      writes.execute(
          () -> {
            try {
              if (expired.dueWhenIdle()) {
                expired.reclaim();
              }
            } finally {
              idleReclaimQueued.set(false);
              queued.decrementAndGet();
            }
          });
    } catch (RejectedExecutionException e) {
      queued.decrementAndGet();
      idleReclaimQueued.set(false);
    }
  }

  /**
   * For tests: a reclaim now, on the writer thread; how many versions it deleted, -1 if it did not
   * run.
   */
  CompletableFuture<Long> reclaimExpired() {
    return CompletableFuture.supplyAsync(expired::reclaim, writes);
  }

  /** For tests: how long after a revision expired its versions may be reclaimed. */
  void reclaimSettle(Duration settle) {
    writes.execute(() -> expired.settle(settle));
  }

  @Override
  public SearchResult search(SearchRequest request) {
    checkOpen();
    long start = System.nanoTime();
    SearchRequest.Mode mode = modeOf(request);
    request.requireLanguageOf(info.settings().language());
    if (mode != SearchRequest.Mode.LEXICAL) {
      return denseSearch(request, mode, start);
    }
    if (!clusterScoresExactly && !request.statistics().isAll()) {
      // The cluster's own BM25 counts every document of the shard, those of sources the caller may
      // not see too, so its scores would tell such a caller what those hold: refused, not weakened.
      throw new QuarryException(
          ErrorCode.RETRIEVAL_UNAVAILABLE,
          "this server cannot search corpus '"
              + info.name()
              + "' for a token granted only some of its sources: its cluster lacks the quarry-scoring plugin, without"
              + " which scores would depend on sources the token may not see (see scale-out.md)");
    }
    ClusterQuerySyntax syntax = ClusterQuerySyntax.of(request, analyzer);
    if (request.syntax() == SearchRequest.Syntax.OPERATORS && !holdsPhrases()) {
      throw QuarryException.invalid(
          "syntax",
          "corpus '"
              + info.name()
              + "' was created on the OpenSearch cluster"
              + " before the operator syntax was offered there and does not index phrases; use syntax plain");
    }
    List<CorpusDocs.Token> queryTokens = CorpusDocs.analyze(analyzer, syntax.scoringText());
    StringBuilder joined = new StringBuilder();
    Set<String> terms = new HashSet<>();
    for (CorpusDocs.Token t : queryTokens) {
      joined.append(joined.isEmpty() ? "" : " ").append(t.term());
      terms.add(t.term());
    }
    // Scored by the quarry_bm25f query, with the revision's own statistics, when the cluster has
    // it.
    List<PortableScoring.QueryTerm> scoredTerms =
        clusterScoresExactly ? PortableScoring.queryTerms(analyzer, syntax.scoringText()) : null;
    // A search of a revision this front has seen published goes out now, beside the head's read:
    // the
    // revision's documents were all visible before it was published (see seenPublished). Pinned,
    // that
    // is the pinned revision; unpinned, the latest one this front saw, which the head usually still
    // publishes. The head's checks below still decide whether it is answered: an unpinned search
    // whose revision the head has moved past is sent again, at the head's revision.
    Long pinned = request.revision();
    long seen = seenPublished.get();
    long ahead = pinned != null ? pinned : seen;
    CompletableFuture<Sent> early = null;
    if (ahead >= 0 && ahead <= seen && !queryTokens.isEmpty()) {
      String text = joined.toString();
      early =
          CompletableFuture.supplyAsync(
              ClusterHttp.carried(() -> send(request, syntax, ahead, text, scoredTerms)),
              BESIDE_HEAD);
    }
    long latest = revision();
    long p = latest;
    if (pinned != null) {
      p = pinned;
      if (p > latest) {
        throw QuarryException.invalid(
            "revision", "revision " + p + " is above the corpus's current revision " + latest);
      }
      if (p < oldestRetained(latest)) {
        throw new QuarryException(
            ErrorCode.REVISION_EXPIRED,
            "revision "
                + p
                + " is no longer retained; the oldest retained revision is "
                + oldestRetained(latest));
      }
    }
    if (queryTokens.isEmpty()) {
      return new SearchResult(
          info.name(),
          info.corpusId(),
          p,
          elapsedMs(start),
          List.of(),
          ClusterFacets.count(http, index, null, request.facets()));
    }
    if (early != null && ahead != p) {
      early = null; // of a revision the head has moved past: its answer (or failure) is dropped
    }
    Sent sent =
        early != null
            ? joinBeside(early)
            : send(request, syntax, p, joined.toString(), scoredTerms);
    ObjectNode query = (ObjectNode) sent.body().get("query");
    JsonNode answer = sent.answer().require("searching").body();
    List<Hit> hits = topHits(answer, request, terms, false);
    List<FacetCounts> facets =
        request.facets().isEmpty()
            ? List.of()
            : ClusterFacets.count(http, index, query, request.facets());
    return new SearchResult(info.name(), info.corpusId(), p, elapsedMs(start), hits, facets);
  }

  @Override
  public boolean embedQuery(String query) {
    checkOpen();
    if (embedder == null) {
      return false;
    }
    if (query.isBlank()) {
      throw QuarryException.invalid(
          "query", "a semantic or hybrid search needs a query with some text");
    }
    embedder.embedQuery(query);
    return true;
  }

  /**
   * The mode a request runs in, as the embedded store decides it: its own, or hybrid on an
   * embedding corpus and lexical on others.
   */
  private SearchRequest.Mode modeOf(SearchRequest request) {
    return request.modeIn(info.name(), embedder != null);
  }

  /**
   * A semantic or hybrid search, scored as the embedded store scores it: the plugin's {@code
   * quarry_dense} query gives every visible chunk in scope its exact semantic score, each shard
   * returns its best in result order (score, then source, then chunk) and the cluster merges them
   * in that order. A hybrid search takes each side's exact top {@link PortableDense#candidates},
   * asks the cluster for the other side's exact score of every candidate only one side found, and
   * fuses them with the embedded store's fusion ({@link PortableFusion}).
   */
  private SearchResult denseSearch(SearchRequest request, SearchRequest.Mode mode, long start) {
    if (!clusterScoresExactly) {
      throw new QuarryException(
          ErrorCode.RETRIEVAL_UNAVAILABLE,
          "this server cannot run a "
              + mode.wireName()
              + " search of corpus '"
              + info.name()
              + "': its cluster lacks the quarry-scoring plugin, which scores"
              + " semantic and hybrid searches (see scale-out.md)");
    }
    long p = searchedRevision(request.revision());
    ClusterQuerySyntax syntax = ClusterQuerySyntax.of(request, analyzer);
    if (request.syntax() == SearchRequest.Syntax.OPERATORS && !holdsPhrases()) {
      throw QuarryException.invalid(
          "syntax",
          "corpus '"
              + info.name()
              + "' was created on the OpenSearch cluster"
              + " before the operator syntax was offered there and does not index phrases; use syntax plain");
    }
    if (syntax.scoringText().isBlank()) {
      throw QuarryException.invalid(
          "query", "a semantic or hybrid search needs a query with some text");
    }
    // A hybrid search embeds the query on its semantic side, beside the lexical side's request.
    float[] queryVector =
        mode == SearchRequest.Mode.SEMANTIC ? embedder.embedQuery(syntax.scoringText()) : null;
    Set<String> terms = new HashSet<>();
    for (CorpusDocs.Token t : CorpusDocs.analyze(analyzer, syntax.scoringText())) {
      terms.add(t.term());
    }
    ObjectNode dense;
    List<Hit> hits = new ArrayList<>();
    boolean firstPass = coded && !request.exact();
    if (mode == SearchRequest.Mode.SEMANTIC) {
      if (firstPass) {
        // The first pass's candidates by their exact scores, of which the best topK (or, for a
        // per-source cap to choose from, all) answer, as the embedded store ranks them.
        Map<PortableFusion.Key, Long> versions = new HashMap<>();
        List<PortableFusion.Scored> ranked =
            coded(request, syntax, p, queryVector, request.topK(), versions);
        hits.addAll(keptHits(ranked, versions, request, terms, true));
        // Facets count every chunk in scope, whatever the candidates.
        dense =
            request.facets().isEmpty() ? null : denseBody(request, syntax, p, queryVector, 0, null);
      } else {
        dense = denseBody(request, syntax, p, queryVector, window(request), null);
        JsonNode answer =
            http.json("POST", searchPath, capped(request, dense.deepCopy()))
                .require("searching")
                .body();
        hits.addAll(topHits(answer, request, terms, true));
      }
    } else {
      int n = PortableDense.candidates(request.topK());
      // The semantic side's best n, with the version of each: of the first pass's candidates, or
      // of every chunk in scope. It starts by embedding the query (a model call, milliseconds when
      // the query is new), while this thread sends the lexical side's request.
      CompletableFuture<EmbeddedSide> semanticSide =
          CompletableFuture.supplyAsync(
              ClusterHttp.carried(
                  () -> {
                    float[] vector = embedder.embedQuery(syntax.scoringText());
                    if (firstPass) {
                      Map<PortableFusion.Key, Long> found = new HashMap<>();
                      List<PortableFusion.Scored> ranked =
                          coded(request, syntax, p, vector, n, found);
                      return new EmbeddedSide(
                          vector, new Side(ranked.subList(0, Math.min(n, ranked.size())), found));
                    }
                    ObjectNode exactBody = denseBody(request, syntax, p, vector, n, null);
                    return new EmbeddedSide(
                        vector,
                        Side.of(
                            http.json("POST", searchPath, keysOnly(exactBody))
                                .require("searching")
                                .body()));
                  }),
              BESIDE_HEAD);
      List<PortableScoring.QueryTerm> scoredTerms =
          PortableScoring.queryTerms(analyzer, syntax.scoringText());
      String joined = String.join(" ", terms);
      // The lexical side's candidates come with their stored vectors: the semantic score of those
      // the semantic side did not find is computed here, as the plugin computes it.
      JsonNode lexicalAnswer =
          scoredTerms.isEmpty()
              ? null
              : http.json(
                      "POST",
                      exactSearchPath,
                      withVectors(
                          keysOnly(searchBody(request, syntax, p, joined, scoredTerms, n, null))))
                  .require("searching")
                  .body();
      // Each candidate's version (its documents are read only for the hits, below).
      Map<PortableFusion.Key, Long> versions = new HashMap<>();
      List<PortableFusion.Scored> lexical = candidates(lexicalAnswer, versions);
      EmbeddedSide embeddedSide = joinBeside(semanticSide);
      queryVector = embeddedSide.queryVector();
      // Read only by the facets' count, below.
      dense =
          request.facets().isEmpty() ? null : denseBody(request, syntax, p, queryVector, n, null);
      Side semanticFound = embeddedSide.side();
      semanticFound.versions().forEach(versions::putIfAbsent);
      List<PortableFusion.Scored> semantic = semanticFound.ranked();
      // Every candidate's exact score on the side that did not find it: the semantic one from the
      // vector read with it; the lexical one by the same query, of those chunks only, whose keys
      // alone are read back.
      List<PortableFusion.Key> semanticOnly = PortableFusion.onlyIn(semantic, lexical);
      Map<PortableFusion.Key, Float> semanticOfOthers =
          semanticOfOthers(lexicalAnswer, PortableFusion.onlyIn(lexical, semantic), queryVector);
      Map<PortableFusion.Key, Float> lexicalOfOthers =
          semanticOnly.isEmpty() || scoredTerms.isEmpty()
              ? Map.of()
              : scores(
                  http.json(
                      "POST",
                      exactSearchPath,
                      keysOnly(
                          searchBody(
                              request,
                              syntax,
                              p,
                              joined,
                              scoredTerms,
                              semanticOnly.size(),
                              ids(semanticOnly, versions)))));
      List<PortableFusion.Fused> fused =
          PortableFusion.fuse(
              lexical,
              semantic,
              lexicalOfOthers,
              semanticOfOthers,
              request,
              info.settings().embedding());
      Map<PortableFusion.Key, JsonNode> documents =
          documents(fused.stream().map(PortableFusion.Fused::key).toList(), versions, request);
      for (PortableFusion.Fused f : fused) {
        hits.add(hit(documents.get(f.key()), f.score(), request, terms, f.parts()));
      }
    }
    List<FacetCounts> facets =
        request.facets().isEmpty()
            ? List.of()
            : ClusterFacets.count(http, index, (ObjectNode) dense.get("query"), request.facets());
    return new SearchResult(info.name(), info.corpusId(), p, elapsedMs(start), hits, facets);
  }

  /**
   * The revision a search answers at: {@code pinned}, or the head's published one; refused as the
   * embedded store refuses a revision above the latest or past retention.
   */
  private long searchedRevision(Long pinned) {
    long latest = revision();
    if (pinned == null) {
      return latest;
    }
    if (pinned > latest) {
      throw QuarryException.invalid(
          "revision", "revision " + pinned + " is above the corpus's current revision " + latest);
    }
    if (pinned < oldestRetained(latest)) {
      throw new QuarryException(
          ErrorCode.REVISION_EXPIRED,
          "revision "
              + pinned
              + " is no longer retained; the oldest retained revision is "
              + oldestRetained(latest));
    }
    return pinned;
  }

  /**
   * The search of revision {@code p} by the plugin's {@code quarry_dense} query: every chunk the
   * revision sees that the request's scope, filters and operators allow, by exact semantic score,
   * the best {@code size} in result order.
   *
   * @param only a filter every chunk must also match, or null
   */
  private ObjectNode denseBody(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      long p,
      float[] queryVector,
      int size,
      ObjectNode only) {
    ObjectNode scoring = ClusterHttp.MAPPER.createObjectNode();
    scoring
        .putObject("quarry_dense")
        .put("field", CorpusDocs.VECTOR)
        .put("vector", denseVector(queryVector))
        .put("revision", p);
    ObjectNode body = scopedBody(request, syntax, size, only, scoring);
    HIT_FIELDS.forEach(body.putArray("_source")::add);
    return body;
  }

  /**
   * The coded first pass's candidates for a semantic side that keeps {@code n} chunks ({@link
   * #chosen}), each with its exact score, in result order (score, then source in code point order,
   * then chunk, as the embedded store ranks them); the version of each put in {@code versions}. The
   * scores are computed here, from the stored vector the pass read with each candidate, by the
   * embedded store's arithmetic ({@link PortableDense#dot}, which the plugin's {@code quarry_dense}
   * query also computes): asking the cluster for them by the candidates' ids cost as much as the
   * pass itself.
   */
  private List<PortableFusion.Scored> coded(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      long p,
      float[] queryVector,
      int n,
      Map<PortableFusion.Key, Long> versions) {
    List<Estimated> chosen = chosen(request, syntax, p, queryVector, n);
    List<PortableFusion.Scored> out = new ArrayList<>(chosen.size());
    for (Estimated e : chosen) {
      PortableFusion.Key key = new PortableFusion.Key(e.source(), e.chunk());
      versions.putIfAbsent(key, e.added());
      out.add(new PortableFusion.Scored(key, PortableDense.dot(queryVector, e.vector())));
    }
    out.sort(RESULT_ORDER);
    return out;
  }

  /** Result order: score descending, then source in code point order, then chunk ascending. */
  private static final Comparator<PortableFusion.Scored> RESULT_ORDER =
      Comparator.comparing(PortableFusion.Scored::score, Comparator.reverseOrder())
          .thenComparing(sc -> sc.key().source(), ClusterCorpusIndex::byCodePoints)
          .thenComparingInt(sc -> sc.key().chunk());

  /**
   * Compares two strings in Unicode code point order: the order of their UTF-8 bytes, in which the
   * embedded store and the cluster's keyword sort order sources ({@link String#compareTo} orders
   * UTF-16 units, which differs for characters beyond the Basic Multilingual Plane).
   */
  static int byCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /**
   * The coded first pass of revision {@code p} for a semantic side that keeps {@code n} chunks, by
   * the plugin's {@code quarry_coded} query: the candidates ({@link PortableCodes#candidates}) in
   * scope (the request's scope, filters and operators) with the best estimates, ties by source and
   * then chunk, as the embedded store chooses them, each with its stored vector. With an inverted
   * file, only the chunks filed in the lists the embedded store would read are estimated ({@link
   * #listsRead}).
   *
   * <p>Asked by estimate alone, for a few more than the candidates: unless equal estimates run to
   * the last hit, every chunk estimated at least as high as the least candidate is among them, and
   * the ties at that boundary are broken here. Sorting every hit by source and chunk on the cluster
   * costs more than the pass; it is asked for only when ties run past what was returned.
   */
  private List<Estimated> chosen(
      SearchRequest request, ClusterQuerySyntax syntax, long p, float[] queryVector, int n) {
    int candidates = codes().candidates(n);
    PortableCodes.QuerySide query = codes().query(queryVector);
    ObjectNode scoring = ClusterHttp.MAPPER.createObjectNode();
    scoring
        .putObject("quarry_coded")
        .put("field", CorpusDocs.CODE)
        .put("planes", planes(query.planes()))
        .put("query_bits", query.queryBits())
        .put("code_bits", query.codeBits())
        .put("words", query.words())
        .put("low", Double.doubleToRawLongBits(query.low()))
        .put("step", Double.doubleToRawLongBits(query.step()))
        .put("constant", Double.doubleToRawLongBits(query.constant()))
        .put("revision", p);
    int asked = CorpusDocs.firstPassAsked(candidates);
    ObjectNode lists = null;
    JsonNode answer;
    if (codes().hasLists()) {
      ListsRead read = listsRead(request, syntax, scoring, queryVector, candidates, asked);
      lists = read.filter();
      answer = read.answer();
    } else {
      answer = firstPass(scopedBody(request, syntax, asked, null, scoring, false));
    }
    List<Estimated> found = estimated(answer);
    List<Estimated> chosen;
    if (found.size() <= candidates) {
      chosen = found;
    } else if (found.size() == asked
        && found.get(asked - 1).estimate() == found.get(candidates - 1).estimate()) {
      chosen = estimated(firstPass(scopedBody(request, syntax, candidates, lists, scoring, true)));
    } else {
      chosen = Estimated.best(found, candidates);
    }
    return chosen;
  }

  /**
   * The lists a first pass reads, as a filter, and its answer ({@code asked} chunks by estimate).
   * The embedded store reads the {@code probes} lists nearest the query and, when those hold fewer
   * than {@code candidates} chunks in scope, more lists, nearest first, until they hold that many.
   * So the nearest lists are searched first, counting the chunks in scope they hold (up to the
   * candidates, which is all that decides); only when they hold too few are the chunks in scope of
   * every list counted (one more request) and the lists read chosen as the embedded store chooses
   * them, then searched.
   */
  private ListsRead listsRead(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      ObjectNode scoring,
      float[] queryVector,
      int candidates,
      int asked) {
    int[] probed = codes().probed(queryVector);
    ObjectNode filter = inLists(probed);
    ObjectNode body = scopedBody(request, syntax, asked, filter, scoring, false);
    body.put("track_total_hits", candidates);
    JsonNode answer = firstPass(body);
    if (answer.path("hits").path("total").path("value").asLong() >= candidates
        || probed.length == codes().listCount()) {
      passesFromNearestLists.increment();
      return new ListsRead(filter, answer);
    }
    passesAfterCountingLists.increment();
    long[] inScope = chunksInLists(request, syntax, scoring);
    int[] read = codes().read(queryVector, l -> l < inScope.length ? inScope[l] : 0, candidates);
    assert read.length > probed.length : "the nearest lists hold too few chunks in scope";
    filter = inLists(read);
    return new ListsRead(
        filter, firstPass(scopedBody(request, syntax, asked, filter, scoring, false)));
  }

  /**
   * How many first passes over an inverted file this index answered from the nearest lists alone
   * ({@code nearestOnly}) or after counting every list's chunks in scope.
   */
  long listPasses(boolean nearestOnly) {
    return (nearestOnly ? passesFromNearestLists : passesAfterCountingLists).sum();
  }

  /** The lists a first pass reads, as a filter of their chunks, and its answer. */
  private record ListsRead(ObjectNode filter, JsonNode answer) {}

  /** A filter of the chunks filed in {@code lists}. */
  private static ObjectNode inLists(int[] lists) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode values = q.putObject("terms").putArray(CorpusDocs.LIST);
    for (int l : lists) {
      values.add(l);
    }
    return q;
  }

  /**
   * How many chunks in the request's scope each list holds at the revision {@code scoring} reads,
   * by list. Every shard reports every list it holds (the aggregation asks for as many as there
   * are), so the counts are exact.
   */
  private long[] chunksInLists(
      SearchRequest request, ClusterQuerySyntax syntax, ObjectNode scoring) {
    int lists = codes().listCount();
    ObjectNode body = scopedBody(request, syntax, 0, null, scoring, false);
    body.remove("sort");
    body.putObject("aggs")
        .putObject("lists")
        .putObject("terms")
        .put("field", CorpusDocs.LIST)
        .put("size", lists)
        .put("shard_size", lists);
    JsonNode counted =
        http.json("POST", searchPath, body).require("searching").body().path("aggregations");
    long[] inScope = new long[lists];
    for (JsonNode bucket : counted.path("lists").path("buckets")) {
      inScope[bucket.path("key").asInt()] = bucket.path("doc_count").asLong();
    }
    return inScope;
  }

  /**
   * The codes of this coded corpus, checked when first used (the centre must still ship with the
   * model) and kept: every writer and searcher gets the same ones.
   */
  private PortableCodes codes() {
    PortableCodes c = codes;
    if (c == null) {
      // A race computes them twice, to the same value.
      c = PortableCodes.of(info.settings().embedding());
      codes = c;
    }
    return c;
  }

  /** A first pass's search: its hits' keys and stored vectors read from doc values. */
  private JsonNode firstPass(ObjectNode body) {
    return http.json("POST", searchPath, withVectors(keysOnly(body))).require("searching").body();
  }

  /**
   * The chunks a first pass's {@code answer} returned, in its order. Each is read from doc values:
   * reading the stored id of a thousand hits would cost more than the pass itself.
   */
  private static List<Estimated> estimated(JsonNode answer) {
    List<Estimated> out = new ArrayList<>();
    for (JsonNode h : answer.path("hits").path("hits")) {
      PortableFusion.Key key = key(h);
      out.add(new Estimated(score(h), key.source(), key.chunk(), version(h), vectorText(h)));
    }
    return out;
  }

  /**
   * A chunk the first pass found, with its estimate, the version it belongs to and its stored
   * vector as the cluster returned it (base64: a pass returns a few more chunks than it keeps, and
   * only those kept are decoded).
   */
  record Estimated(float estimate, String source, int chunk, long added, String storedVector) {
    /** The stored vector's bytes. */
    byte[] vector() {
      return Base64.getDecoder().decode(storedVector);
    }

    /**
     * The {@code candidates} best of {@code found} (ordered by estimate, best first, and holding
     * every chunk estimated as high as its {@code candidates}-th) by estimate, ties by source and
     * then chunk, as the embedded store chooses them.
     */
    static List<Estimated> best(List<Estimated> found, int candidates) {
      float boundary = found.get(candidates - 1).estimate();
      List<Estimated> out = new ArrayList<>(candidates);
      List<Estimated> tied = new ArrayList<>();
      for (Estimated e : found) {
        if (e.estimate() > boundary) {
          out.add(e);
        } else if (e.estimate() == boundary) {
          tied.add(e);
        }
      }
      tied.sort(
          Comparator.comparing(Estimated::source, ClusterCorpusIndex::byCodePoints)
              .thenComparingInt(Estimated::chunk));
      out.addAll(tied.subList(0, candidates - out.size()));
      return out;
    }
  }

  /**
   * A search of the chunks in the request's scope that its filters and operators allow (and {@code
   * only}, when not null), scored by {@code scoring}, the best {@code size} in result order: score,
   * then source, then chunk.
   */
  private static ObjectNode scopedBody(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      int size,
      ObjectNode only,
      ObjectNode scoring) {
    return scopedBody(request, syntax, size, only, scoring, true);
  }

  /**
   * The same, by score alone when not {@code tiesBySourceAndChunk} (equal scores in no order this
   * store promises).
   */
  private static ObjectNode scopedBody(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      int size,
      ObjectNode only,
      ObjectNode scoring,
      boolean tiesBySourceAndChunk) {
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    body.put("size", size).put("track_total_hits", false);
    ObjectNode bool = body.putObject("query").putObject("bool");
    ArrayNode filter = bool.putArray("filter");
    if (only != null) {
      filter.add(only);
    }
    // The scope holds the caller's grants: a chunk of a source it may not see is never a candidate.
    ObjectNode scope = CorpusDocs.scope(request.scope());
    if (scope != null) {
      filter.add(scope);
    }
    for (Filter f : request.filters()) {
      filter.add(CorpusDocs.filter(f));
    }
    syntax.required().forEach(filter::add);
    if (!syntax.excluded().isEmpty()) {
      ArrayNode mustNot = bool.putArray("must_not");
      syntax.excluded().forEach(mustNot::add);
    }
    // Matches only what the revision sees, and only chunks (the documents holding the field).
    bool.putArray("must").add(scoring);
    ArrayNode sort = body.putArray("sort");
    sort.addObject().put("_score", "desc");
    if (tiesBySourceAndChunk) {
      sort.addObject().put("source", "asc");
      sort.addObject().put("chunk", "asc");
    }
    return body;
  }

  /**
   * A query's bit planes as {@code quarry_coded} reads them: each long's eight bytes
   * (little-endian), in base64.
   */
  static String planes(long[] planes) {
    ByteBuffer bytes =
        ByteBuffer.allocate(planes.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (long w : planes) {
      bytes.putLong(w);
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  /** What a hit is read from: the fields of a chunk document a search returns. */
  private static final List<String> HIT_FIELDS =
      List.of(
          "source",
          "chunk",
          "text",
          "title",
          "media_type",
          "sha",
          "start",
          "end",
          "page_from",
          "page_to",
          "metadata",
          "section",
          "table",
          "added");

  /**
   * A query vector as {@code quarry_dense} reads it: each float's four bytes (big-endian), in
   * base64, so no float is rounded on the way.
   */
  static String denseVector(float[] vector) {
    ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES);
    for (float v : vector) {
      bytes.putFloat(v);
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  /**
   * One side's candidates in the cluster's order (none without an answer; asked {@link #keysOnly}),
   * their versions kept in {@code versions}.
   */
  private static List<PortableFusion.Scored> candidates(
      JsonNode answer, Map<PortableFusion.Key, Long> versions) {
    List<PortableFusion.Scored> out = new ArrayList<>();
    if (answer == null) {
      return out;
    }
    for (JsonNode h : answer.path("hits").path("hits")) {
      PortableFusion.Key key = key(h);
      versions.putIfAbsent(key, version(h));
      out.add(new PortableFusion.Scored(key, score(h)));
    }
    return out;
  }

  /** A hybrid search's semantic side, and the query's vector it embedded first. */
  private record EmbeddedSide(float[] queryVector, Side side) {}

  /** One side's candidates in result order, and the version of each. */
  private record Side(List<PortableFusion.Scored> ranked, Map<PortableFusion.Key, Long> versions) {
    /** The candidates of an {@code answer} asked {@link #keysOnly}. */
    static Side of(JsonNode answer) {
      Map<PortableFusion.Key, Long> versions = new HashMap<>();
      return new Side(candidates(answer, versions), versions);
    }
  }

  /**
   * The exact semantic score of each chunk {@code keys} holds, computed from the vector the lexical
   * side's {@code answer} (asked {@link #withVectors}) read with it, as the plugin's {@code
   * quarry_dense} query computes it; none for a chunk without a vector, which that query does not
   * match either.
   */
  private static Map<PortableFusion.Key, Float> semanticOfOthers(
      JsonNode answer, List<PortableFusion.Key> keys, float[] queryVector) {
    if (keys.isEmpty()) {
      return Map.of();
    }
    Set<PortableFusion.Key> wanted = new HashSet<>(keys);
    Map<PortableFusion.Key, Float> out = new HashMap<>();
    for (JsonNode h : answer.path("hits").path("hits")) {
      PortableFusion.Key key = key(h);
      byte[] vector = wanted.contains(key) ? vector(h) : null;
      if (vector != null) {
        out.put(key, PortableDense.dot(queryVector, vector));
      }
    }
    return out;
  }

  /** The chunk of a hit asked {@link #keysOnly}. */
  private static PortableFusion.Key key(JsonNode hit) {
    JsonNode fields = hit.path("fields");
    return new PortableFusion.Key(
        fields.path("source").path(0).asText(), fields.path("chunk").path(0).asInt());
  }

  /** The stored vector of the chunk of a hit asked {@link #withVectors}; null when it has none. */
  private static byte[] vector(JsonNode hit) {
    String text = vectorText(hit);
    return text == null ? null : Base64.getDecoder().decode(text);
  }

  /** The same, as the cluster returned it (base64), or null. */
  private static String vectorText(JsonNode hit) {
    JsonNode value = hit.path("fields").path(CorpusDocs.VECTOR).path(0);
    return value.isTextual() ? value.asText() : null;
  }

  /** The version (the revision that added it) of the chunk of a hit asked {@link #keysOnly}. */
  private static long version(JsonNode hit) {
    return hit.path("fields").path("added").path(0).asLong();
  }

  /**
   * {@code body} of a search that returns its best chunks as hits, asked {@link #keysOnly} when
   * {@code request} caps the chunks of a source: it then asks for more chunks than it answers with,
   * and only the documents of those it keeps are read ({@link #topHits}).
   */
  private static ObjectNode capped(SearchRequest request, ObjectNode body) {
    return request.maxChunksPerSource() == null ? body : keysOnly(body);
  }

  /**
   * The hits of a one-sided search's {@code answer} (asked {@link #capped}): its best chunks in
   * result order, at most topK, at most the request's cap of a source; with their documents, read
   * now by id when the answer holds only keys ({@link #keptHits}).
   *
   * @param semantic whether the hits carry the semantic side's parts (score and rank)
   */
  private List<Hit> topHits(
      JsonNode answer, SearchRequest request, Set<String> terms, boolean semantic) {
    if (request.maxChunksPerSource() != null) {
      Map<PortableFusion.Key, Long> versions = new HashMap<>();
      return keptHits(candidates(answer, versions), versions, request, terms, semantic);
    }
    List<Hit> out = new ArrayList<>();
    for (JsonNode h : answer.path("hits").path("hits")) {
      if (out.size() >= request.topK()) {
        break;
      }
      float score = score(h);
      Hit.ScoreParts parts =
          semantic ? new Hit.ScoreParts(null, null, score, out.size() + 1) : null;
      out.add(hit(h.path("_source"), score, request, terms, parts));
    }
    return out;
  }

  /**
   * The hits of chunks {@code ranked} in result order (their versions in {@code versions}): the
   * first topK, at most the request's cap of a source, with their documents read by id.
   *
   * @param semantic whether the hits carry the semantic side's parts (score and rank)
   */
  private List<Hit> keptHits(
      List<PortableFusion.Scored> ranked,
      Map<PortableFusion.Key, Long> versions,
      SearchRequest request,
      Set<String> terms,
      boolean semantic) {
    Integer cap = request.maxChunksPerSource();
    List<PortableFusion.Scored> kept = new ArrayList<>();
    Map<String, Integer> perSource = new HashMap<>();
    for (PortableFusion.Scored s : ranked) {
      if (kept.size() >= request.topK()) {
        break;
      }
      if (cap == null || perSource.merge(s.key().source(), 1, Integer::sum) <= cap) {
        kept.add(s);
      }
    }
    Map<PortableFusion.Key, JsonNode> documents =
        documents(kept.stream().map(PortableFusion.Scored::key).toList(), versions, request);
    List<Hit> out = new ArrayList<>(kept.size());
    for (PortableFusion.Scored k : kept) {
      Hit.ScoreParts parts =
          semantic ? new Hit.ScoreParts(null, null, k.score(), out.size() + 1) : null;
      out.add(hit(documents.get(k.key()), k.score(), request, terms, parts));
    }
    return out;
  }

  /**
   * The stored documents of the chunks {@code keys}, whose versions {@code versions} holds, for
   * their hits: read once the fused ranking is known, so a hybrid search reads the documents of its
   * hits only, not those of every candidate of both sides.
   */
  private Map<PortableFusion.Key, JsonNode> documents(
      List<PortableFusion.Key> keys,
      Map<PortableFusion.Key, Long> versions,
      SearchRequest request) {
    if (keys.isEmpty()) {
      return Map.of();
    }
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    body.put("size", keys.size()).put("track_total_hits", false);
    body.putObject("query").putObject("bool").putArray("filter").add(ids(keys, versions));
    HIT_FIELDS.forEach(body.putArray("_source")::add);
    Map<PortableFusion.Key, JsonNode> out = new HashMap<>();
    for (JsonNode h :
        http.json("POST", searchPath, body).require("searching").body().path("hits").path("hits")) {
      JsonNode s = h.path("_source");
      out.put(new PortableFusion.Key(s.path("source").asText(), s.path("chunk").asInt()), s);
    }
    if (out.size() != keys.size()) {
      // Found a moment ago, gone now: only a reclaim of versions past retention removes chunks.
      searchedRevision(request.revision());
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "corpus '" + info.name() + "' changed while it was searched; try again");
    }
    return out;
  }

  /** The score of each chunk a search asked for {@link #keysOnly} answered with. */
  private static Map<PortableFusion.Key, Float> scores(ClusterHttp.Answer answer) {
    Map<PortableFusion.Key, Float> out = new HashMap<>();
    for (JsonNode h : answer.require("searching").body().path("hits").path("hits")) {
      out.put(key(h), score(h));
    }
    return out;
  }

  /**
   * {@code body} answering each hit's score, source, chunk and version only, read from doc values:
   * a hit's stored document (its text, its tokens, its vector) is not read at all.
   */
  private static ObjectNode keysOnly(ObjectNode body) {
    body.remove("_source");
    body.put("stored_fields", "_none_");
    body.putArray("docvalue_fields").add("source").add("chunk").add("added");
    return body;
  }

  /**
   * {@code body}, asked {@link #keysOnly}, answering each hit's stored vector too (its bytes, in
   * base64, read from doc values), from which its exact semantic score is computed here.
   */
  private static ObjectNode withVectors(ObjectNode body) {
    ((ArrayNode) body.get("docvalue_fields")).add(CorpusDocs.VECTOR);
    return body;
  }

  /**
   * A filter of exactly the chunk documents of {@code keys} (by their ids: source, version and
   * number).
   */
  private static ObjectNode ids(
      List<PortableFusion.Key> keys, Map<PortableFusion.Key, Long> versions) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode values = q.putObject("ids").putArray("values");
    for (PortableFusion.Key k : keys) {
      values.add(ClusterWriter.chunkId(k.source(), versions.get(k), k.chunk()));
    }
    return q;
  }

  /** A hit's score as the cluster answered it: the float the plugin computed. */
  private static float score(JsonNode hit) {
    return (float) hit.path("_score").asDouble();
  }

  /**
   * The hit of a chunk document's {@code _source} with {@code score}: its highlights and snippet
   * from the matches of the query's {@code terms} in its text, as the request asks.
   *
   * @param parts each side's score and rank in a semantic or hybrid search, else null
   */
  private Hit hit(
      JsonNode s, float score, SearchRequest request, Set<String> terms, Hit.ScoreParts parts) {
    String text = s.path("text").asText();
    List<int[]> matches =
        request.highlight() || request.snippets() != null ? highlights(text, terms) : List.of();
    PageRange pages =
        s.hasNonNull("page_from")
            ? new PageRange(s.get("page_from").asInt(), s.get("page_to").asInt())
            : null;
    Hit hit =
        new Hit(
            s.path("source").asText(),
            s.path("added").asLong(),
            s.path("chunk").asInt(),
            score,
            text,
            request.highlight() ? matches : List.of(),
            CorpusDocs.text(s, "title"),
            CorpusDocs.text(s, "media_type"),
            pages,
            s.path("start").asInt(),
            s.path("end").asInt(),
            CorpusDocs.text(s, "sha"),
            CorpusDocs.metadata(s.get("metadata")),
            null,
            null,
            CorpusDocs.section(s),
            info.settings().language().wireName(),
            CorpusDocs.table(s));
    if (parts != null) {
      hit = hit.withParts(parts);
    }
    // The embedded store's window over the same matches: the same text gives the same snippet on
    // both stores.
    return request.snippets() == null
        ? hit
        : hit.withSnippet(StoreRules.snippet(text, matches, request.snippets()));
  }

  /**
   * The {@code quarry_bm25f} query of {@code terms}: the embedded store's BM25F with revision
   * {@code p}'s statistics, over the documents revision {@code p} sees; counted over the visible
   * chunks of {@code statistics}' sources only when it restricts (the caller's grants).
   */
  private ObjectNode exactQuery(
      List<PortableScoring.QueryTerm> scoredTerms, long p, SourceScope statistics) {
    ObjectNode query = ClusterHttp.MAPPER.createObjectNode();
    ObjectNode q = query.putObject("quarry_bm25f");
    ArrayNode fields = q.putArray("fields");
    for (PortableScoring.Field f : scoring.fields()) {
      fields.addObject().put("name", clusterField(f.name())).put("weight", f.weight());
    }
    ArrayNode terms = q.putArray("terms");
    for (PortableScoring.QueryTerm t : scoredTerms) {
      terms.addObject().put("term", t.term()).put("boost", (float) t.occurrences());
    }
    q.put("k1", scoring.k1()).put("b", scoring.b()).put("revision", p).put("visible_only", true);
    if (!statistics.isAll()) {
      // A plugin that predates the field refuses it (400): never scored with every source's
      // statistics.
      ArrayNode sources = q.putArray("statistics_sources");
      statistics.entries().forEach(sources::add);
    }
    return query;
  }

  /** The cluster field holding the terms of the engine's scored field {@code field}. */
  private static String clusterField(String field) {
    return switch (field) {
      case StoreRules.TEXT_FIELD -> "tokens";
      case StoreRules.TITLE_FIELD -> "title_tokens";
      default -> throw new IllegalArgumentException("not a scored field: " + field);
    };
  }

  /** A search's body and the cluster's answer to it. */
  private record Sent(ObjectNode body, ClusterHttp.Answer answer) {}

  /**
   * Sends the search of revision {@code p}: scored exactly when {@code scoredTerms} are given (the
   * {@code quarry_bm25f} query, see {@link #exactSearchPath}), else by the cluster's BM25 over
   * {@code joined}.
   */
  private Sent send(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      long p,
      String joined,
      List<PortableScoring.QueryTerm> scoredTerms) {
    ObjectNode body = searchBody(request, syntax, p, joined, scoredTerms);
    return new Sent(
        body, http.json("POST", scoredTerms == null ? searchPath : exactSearchPath, body));
  }

  /**
   * The search of revision {@code p}: the best chunks for the query's terms, with the request's
   * filters; scored by the {@code quarry_bm25f} query of {@code scoredTerms} when they are given,
   * else by the cluster's BM25 over {@code joined}.
   */
  private ObjectNode searchBody(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      long p,
      String joined,
      List<PortableScoring.QueryTerm> scoredTerms) {
    return capped(
        request, searchBody(request, syntax, p, joined, scoredTerms, window(request), null));
  }

  /**
   * The chunks a search of {@code request} asks each shard for: more than topK when a per-source
   * cap may drop some.
   */
  private static int window(SearchRequest request) {
    return request.maxChunksPerSource() == null
        ? request.topK()
        : Math.min(1000, request.topK() * 10);
  }

  /**
   * @param size the best chunks to return
   * @param only a filter every chunk must also match (the candidates of a hybrid search's other
   *     side), or null
   */
  private ObjectNode searchBody(
      SearchRequest request,
      ClusterQuerySyntax syntax,
      long p,
      String joined,
      List<PortableScoring.QueryTerm> scoredTerms,
      int size,
      ObjectNode only) {
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    body.put("size", size).put("track_total_hits", false);
    ObjectNode query = body.putObject("query");
    ObjectNode bool = query.putObject("bool");
    ArrayNode filter = bool.putArray("filter");
    if (only != null) {
      filter.add(only);
    }
    // No kind filter: only chunks hold the scored token fields, and one of them must match (below).
    // The quarry_bm25f query matches only what revision p sees (visible_only): the visibility its
    // statistics were counted over, kept per segment, cheaper than the range filters on each match.
    if (scoredTerms == null) {
      filter.add(CorpusDocs.visibleAt(p));
    }
    ObjectNode scope = CorpusDocs.scope(request.scope());
    if (scope != null) {
      filter.add(scope);
    }
    for (Filter f : request.filters()) {
      filter.add(CorpusDocs.filter(f));
    }
    syntax.required().forEach(filter::add);
    if (!syntax.excluded().isEmpty()) {
      ArrayNode mustNot = bool.putArray("must_not");
      syntax.excluded().forEach(mustNot::add);
    }
    if (scoredTerms != null) {
      bool.putArray("must").add(exactQuery(scoredTerms, p, request.statistics()));
    } else {
      ArrayNode should = bool.putArray("should");
      // The fields the embedded store scores (a title weighted 0 is not one: a match there alone is
      // no match), the title boosted by its weight.
      for (PortableScoring.Field f : scoring.fields()) {
        double boost =
            f.name().equals(StoreRules.TITLE_FIELD) ? info.settings().ranking().titleWeight() : 1;
        should
            .addObject()
            .putObject("match")
            .putObject(clusterField(f.name()))
            .put("query", joined)
            .put("boost", boost);
      }
      bool.put("minimum_should_match", 1);
    }
    ArrayNode sort = body.putArray("sort");
    sort.addObject().put("_score", "desc");
    sort.addObject().put("source", "asc");
    sort.addObject().put("chunk", "asc");
    HIT_FIELDS.forEach(body.putArray("_source")::add);
    return body;
  }

  /**
   * The result of a request sent beside the head's read (see {@link #BESIDE_HEAD}), or the failure
   * it met.
   */
  static <T> T joinBeside(CompletableFuture<T> beside) {
    try {
      return beside.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /**
   * Whether the corpus index maps the phrase fields the operator syntax reads: indexes created
   * before they existed hold no phrases (their documents' values were never indexed), and a search
   * there would silently miss every phrase. Asked once, then remembered when true.
   */
  private boolean holdsPhrases() {
    if (holdsPhrases) {
      return true;
    }
    JsonNode mapping =
        http.get("/" + index + "/_mapping/field/phrase_tokens")
            .require("reading the corpus mapping")
            .body();
    holdsPhrases = !mapping.path(index).path("mappings").path("phrase_tokens").isMissingNode();
    return holdsPhrases;
  }

  /** The ranges of {@code text} whose terms (by the corpus analyzer) are query terms. */
  private List<int[]> highlights(String text, Set<String> terms) {
    List<int[]> out = new ArrayList<>();
    for (CorpusDocs.Token t : CorpusDocs.analyze(analyzer, text)) {
      if (terms.contains(t.term())) {
        out.add(new int[] {t.start(), t.end()});
      }
    }
    return out;
  }

  private static long elapsedMs(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  /**
   * {@link #liveRecords}, sent now on a thread of its own, for a writer that reads the head
   * meanwhile (join it with {@link #joinBeside}).
   */
  CompletableFuture<Map<String, JsonNode>> liveRecordsBeside(List<String> sources) {
    return CompletableFuture.supplyAsync(
        ClusterHttp.carried(() -> liveRecords(sources)), BESIDE_HEAD);
  }

  /**
   * The live source records of {@code sources} by source, with one search (as of the last refresh,
   * which follows every publication); a source without one is absent from the map.
   */
  Map<String, JsonNode> liveRecords(List<String> sources) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    // A source has at most one live record, so every one fits.
    q.put("size", sources.size()).put("track_total_hits", false);
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("kind", "source"));
    ArrayNode names = filter.addObject().putObject("terms").putArray("source");
    sources.forEach(names::add);
    filter.addObject().putObject("term").put("superseded", CorpusDocs.LIVE);
    Map<String, JsonNode> out = new HashMap<>();
    for (JsonNode h :
        http.json("POST", CorpusDocs.searchPath(index), q)
            .require("reading sources")
            .body()
            .path("hits")
            .path("hits")) {
      out.put(h.path("_source").path("source").asText(), h.path("_source"));
    }
    return out;
  }

  @Override
  public Optional<SourceState> readSource(String source) {
    checkOpen();
    long p = revision();
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    q.put("size", 1);
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("kind", "source"));
    filter.add(CorpusDocs.term("source", source));
    filter.add(CorpusDocs.visibleAt(p));
    JsonNode hits =
        http.json("POST", CorpusDocs.searchPath(index), q)
            .require("reading a source")
            .body()
            .path("hits")
            .path("hits");
    return hits.isEmpty()
        ? Optional.empty()
        : Optional.of(
            CorpusDocs.sourceState(
                hits.get(0).path("_source"), info.settings().language().wireName()));
  }

  /**
   * The source's chunks from its chunk documents, which hold all a chunk is (text, offsets, pages,
   * metadata) and its version's provenance (the revision that wrote it, title, media type, hash):
   * the embedded store's answer, checked the same way (a revision above the head's, or older than
   * the oldest retained one, is refused as a search pinned to it is).
   */
  @Override
  public Optional<SourceChunks> readChunks(String source, Long revision, int after, int limit) {
    checkOpen();
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    long latest = revision();
    long p = revision == null ? latest : revision;
    if (p > latest) {
      throw QuarryException.invalid(
          "revision", "revision " + p + " is above the corpus's current revision " + latest);
    }
    if (p < oldestRetained(latest)) {
      throw new QuarryException(
          ErrorCode.REVISION_EXPIRED,
          "revision "
              + p
              + " is no longer retained; the oldest retained revision is "
              + oldestRetained(latest));
    }
    JsonNode page = chunksOf(source, p, after, limit + 1);
    // A page past the last chunk is empty for a source that exists: any chunk of it tells which.
    JsonNode first = page.isEmpty() ? chunksOf(source, p, -1, 1).path(0) : page.get(0);
    if (first.isMissingNode()) {
      return Optional.empty();
    }
    JsonNode version = first.path("_source");
    List<SourceChunks.Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < Math.min(limit, page.size()); i++) {
      JsonNode s = page.get(i).path("_source");
      PageRange pages =
          s.hasNonNull("page_from")
              ? new PageRange(s.get("page_from").asInt(), s.get("page_to").asInt())
              : null;
      chunks.add(
          new SourceChunks.Chunk(
              s.path("chunk").asInt(),
              s.path("text").asText(),
              pages,
              s.path("start").asInt(),
              s.path("end").asInt(),
              CorpusDocs.metadata(s.get("metadata")),
              CorpusDocs.section(s),
              CorpusDocs.table(s)));
    }
    Integer nextAfter = page.size() > limit ? chunks.get(chunks.size() - 1).chunk() : null;
    return Optional.of(
        new SourceChunks(
            p,
            source,
            version.path("added").asLong(),
            CorpusDocs.text(version, "title"),
            CorpusDocs.text(version, "media_type"),
            CorpusDocs.text(version, "sha"),
            chunks,
            nextAfter));
  }

  /**
   * At most {@code size} chunk documents of {@code source} that revision {@code p} sees, numbered
   * above {@code after}, in order.
   */
  private JsonNode chunksOf(String source, long p, int after, int size) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    q.put("size", size).put("track_total_hits", false);
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("kind", "chunk"));
    filter.add(CorpusDocs.term("source", source));
    filter.add(CorpusDocs.visibleAt(p));
    if (after >= 0) {
      filter.addObject().putObject("range").putObject("chunk").put("gt", after);
    }
    q.putArray("sort").addObject().put("chunk", "asc");
    q.putArray("_source")
        .add("chunk")
        .add("text")
        .add("title")
        .add("media_type")
        .add("sha")
        .add("start")
        .add("end")
        .add("page_from")
        .add("page_to")
        .add("metadata")
        .add("section")
        .add("table")
        .add("added");
    return http.json("POST", CorpusDocs.searchPath(index), q)
        .require("reading a source's chunks")
        .body()
        .path("hits")
        .path("hits");
  }

  @Override
  public SourcePage listSources(
      String prefix, String cursor, int limit, Predicate<String> visibleOrNull) {
    checkOpen();
    Predicate<String> visible = visibleOrNull == null ? s -> true : visibleOrNull;
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    return listSourcesAt(revision(), prefix, cursor, limit, visible);
  }

  /** A page of the sources revision {@code p} holds. */
  private SourcePage listSourcesAt(
      long p, String prefix, String cursor, int limit, Predicate<String> visible) {
    List<SourceState> out = new ArrayList<>();
    String after = cursor;
    while (true) {
      ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
      int page = Math.min(1000, limit + 1);
      q.put("size", page).put("track_total_hits", false);
      ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
      filter.add(CorpusDocs.term("kind", "source"));
      filter.add(CorpusDocs.visibleAt(p));
      if (prefix != null && !prefix.isEmpty()) {
        filter.addObject().putObject("prefix").put("source", prefix);
      }
      q.putArray("sort").addObject().put("source", "asc");
      if (after != null) {
        q.putArray("search_after").add(after);
      }
      JsonNode hits =
          http.json("POST", CorpusDocs.searchPath(index), q)
              .require("listing sources")
              .body()
              .path("hits")
              .path("hits");
      for (JsonNode h : hits) {
        String source = h.path("_source").path("source").asText();
        after = source;
        if (!visible.test(source)) {
          continue;
        }
        if (out.size() == limit) {
          return new SourcePage(out, out.get(limit - 1).source());
        }
        out.add(CorpusDocs.sourceState(h.path("_source"), info.settings().language().wireName()));
      }
      if (hits.size() < page) {
        return new SourcePage(out, null);
      }
    }
  }

  @Override
  public long countSources(Predicate<String> visible) {
    if (visible == null) {
      ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
      ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
      filter.add(CorpusDocs.term("kind", "source"));
      filter.add(CorpusDocs.visibleAt(revision()));
      return http.json("POST", "/" + index + "/_count", q)
          .require("counting sources")
          .body()
          .path("count")
          .asLong();
    }
    // Every page at one revision: a count of one state of the corpus, with one read of its head.
    long p = revision();
    long n = 0;
    String cursor = null;
    do {
      SourcePage page = listSourcesAt(p, null, cursor, 1000, visible);
      n += page.sources().size();
      cursor = page.nextCursor();
    } while (cursor != null);
    return n;
  }

  @Override
  public HistoryPage history(long after, int limit, Predicate<String> visibleOrNull) {
    checkOpen();
    Predicate<String> visible = visibleOrNull == null ? s -> true : visibleOrNull;
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    if (after < 0) {
      throw QuarryException.invalid("after", "after must be 0 or more; got " + after);
    }
    long p = revision();
    long oldest = oldestRetained(p);
    if (after < oldest - 1) {
      throw new QuarryException(
          ErrorCode.CURSOR_EXPIRED,
          "history after revision "
              + after
              + " is no longer retained; the oldest retained revision is "
              + oldest);
    }
    List<HistoryEntry> entries = new ArrayList<>();
    Object[] searchAfter = null;
    Long lastRevision = null;
    while (true) {
      ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
      q.put("size", 500).put("track_total_hits", false);
      ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
      filter.add(CorpusDocs.term("kind", "history"));
      filter.addObject().putObject("range").putObject("added").put("gt", after).put("lte", p);
      ArrayNode sort = q.putArray("sort");
      sort.addObject().put("added", "asc");
      sort.addObject().put("seq", "asc");
      if (searchAfter != null) {
        q.putArray("search_after").add((Long) searchAfter[0]).add((Long) searchAfter[1]);
      }
      JsonNode hits =
          http.json("POST", CorpusDocs.searchPath(index), q)
              .require("reading history")
              .body()
              .path("hits")
              .path("hits");
      for (JsonNode h : hits) {
        JsonNode s = h.path("_source");
        long revision = s.path("added").asLong();
        searchAfter = new Object[] {revision, s.path("seq").asLong()};
        if (entries.size() >= limit && lastRevision != null && revision != lastRevision) {
          return new HistoryPage(entries, lastRevision);
        }
        lastRevision = revision;
        if (visible.test(s.path("source").asText())) {
          entries.add(
              new HistoryEntry(
                  revision,
                  s.path("operation").asText(),
                  s.path("source").asText(),
                  CorpusDocs.text(s, "sha"),
                  CorpusDocs.text(s, "subject"),
                  Instant.parse(s.path("at").asText())));
        }
      }
      if (hits.size() < 500) {
        return new HistoryPage(entries, null);
      }
    }
  }

  @Override
  public Optional<StoredOutcome> findIdempotent(String subject, String key) {
    checkOpen();
    ClusterHttp.Answer a =
        http.get("/" + index + "/_doc/" + ClusterWriter.idempotencyId(subject, key));
    if (a.status() == 404) {
      return Optional.empty();
    }
    JsonNode s = a.require("reading an idempotency record").body().path("_source");
    // The call's own read of the head when nothing read it yet (the call checks it anyway).
    if (s.path("added").asLong() > revision()) {
      return Optional.empty(); // written by an unpublished revision: it never happened
    }
    Instant at = Instant.parse(s.path("at").asText());
    if (at.plus(config.idempotencyRetention()).isBefore(config.clock().instant())) {
      return Optional.empty();
    }
    return Optional.of(
        new StoredOutcome(
            s.path("fingerprint").asText(),
            SourcePreparation.resultFromJson(s.path("result").asText())));
  }

  private void checkOpen() {
    if (closed) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closed");
    }
  }

  @Override
  public void close() {
    closed = true;
    writes.shutdown();
    try {
      writes.awaitTermination(2, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void closeAndDelete() {
    close();
    http.send("DELETE", "/" + index, null, null);
  }
}
