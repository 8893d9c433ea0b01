package dev.quarry.engine.embed;

import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Embeds the passages of index operations on a bounded pool of threads, never on a corpus's writer
 * thread, with a cache by (model SHA-256, text SHA-256) so that re-indexing unchanged text costs a
 * lookup. One per process, shared by every embedding corpus.
 *
 * <p>A request's passages are split into at most four parts per thread, so however large a request
 * is, it fits an idle pool, and however small, it runs on every thread: a request of 8 passages is
 * 8 parts on a pool of 2 threads. (Parts used to hold at least 16 passages, so one client's
 * requests of fewer than 32 passages ran on one thread of two, at half the machine's rate; a model
 * call costs milliseconds, a task hand-off microseconds.) When the pool's queue cannot take all of
 * a request's parts now, the request is refused with CAPACITY and nothing of it runs.
 *
 * <p>Each passage is embedded alone, one model call each, so how a request is split never changes a
 * vector; before each call it waits its turn behind the queries being embedded ({@link
 * QueryPriority}).
 */
public final class PassageEmbedder implements AutoCloseable {
  /** Parts per thread a request is split into at most, so that a large one is spread evenly. */
  static final int PARTS_PER_THREAD = 4;

  /** Cached vectors; a 384-dimension vector is about 1.6 KB, so the default holds ~30 MB. */
  public static final int DEFAULT_CACHE_ENTRIES = 20_000;

  /**
   * Parts waiting for a thread beyond this many are refused (a few hundred concurrent requests).
   */
  public static final int DEFAULT_QUEUED_BATCHES = 1024;

  private final ThreadPoolExecutor pool;
  private final QueryPriority priority;
  private final Map<String, Embedder.Embedding> cache;

  /**
   * Passages found in the cache and not (per passage, not per request), and pushed out; under its
   * lock.
   */
  private long hits;

  private long misses;
  private long evictions;

  /**
   * @param priority what makes passage calls wait for query calls; its cores are this pool's
   *     threads
   */
  public PassageEmbedder(int threads, int queuedBatches, int cacheEntries, QueryPriority priority) {
    this.priority = priority;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queuedBatches),
            r -> {
              Thread t =
                  new Thread(BackgroundThreads.lowering(r), "quarry-embed-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.pool.allowCoreThreadTimeOut(true);
    this.cache =
        new LinkedHashMap<>(1024, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Embedder.Embedding> eldest) {
            if (size() > cacheEntries) {
              evictions++;
              return true;
            }
            return false;
          }
        };
  }

  /** A pool with one thread per core of {@code priority}, the default queue and cache. */
  public static PassageEmbedder withDefaults(QueryPriority priority) {
    return new PassageEmbedder(
        priority.cores(), DEFAULT_QUEUED_BATCHES, DEFAULT_CACHE_ENTRIES, priority);
  }

  /**
   * Embeds {@code texts} with {@code embedder}, completing with one result per text in order.
   *
   * @throws QuarryException CAPACITY when the pool cannot queue the work now
   */
  public CompletableFuture<List<Embedder.Embedding>> embed(Embedder embedder, List<String> texts) {
    Embedder.Embedding[] out = new Embedder.Embedding[texts.size()];
    List<Integer> missing = new ArrayList<>();
    String[] keys = new String[texts.size()];
    String model = embedder.sha256();
    for (int i = 0; i < keys.length; i++) {
      keys[i] =
          model + ':' + Sha256.ofUtf8(texts.get(i)); // hashed outside the lock every ingest shares
    }
    synchronized (cache) {
      for (int i = 0; i < texts.size(); i++) {
        out[i] = cache.get(keys[i]);
        if (out[i] == null) {
          missing.add(i);
        }
      }
      hits += texts.size() - missing.size();
      misses += missing.size();
    }
    if (missing.isEmpty()) {
      return CompletableFuture.completedFuture(List.of(out));
    }
    int batches = Math.min(missing.size(), pool.getMaximumPoolSize() * PARTS_PER_THREAD);
    int perPart = (missing.size() + batches - 1) / batches;
    if (pool.getQueue().remainingCapacity() < batches) {
      throw capacity();
    }
    List<CompletableFuture<Void>> parts = new ArrayList<>(batches);
    try {
      for (int b = 0; b * perPart < missing.size(); b++) {
        List<Integer> slice =
            missing.subList(b * perPart, Math.min(missing.size(), (b + 1) * perPart));
        parts.add(
            CompletableFuture.runAsync(() -> embedSlice(embedder, texts, slice, keys, out), pool));
      }
    } catch (RejectedExecutionException e) {
      parts.forEach(p -> p.cancel(false));
      throw capacity();
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> List.of(out));
  }

  private void embedSlice(
      Embedder embedder,
      List<String> texts,
      List<Integer> slice,
      String[] keys,
      Embedder.Embedding[] out) {
    for (int i : slice) {
      // One call a passage (as embedPassages makes anyway), so a query waits for one call at most.
      Embedder.Embedding vector;
      try {
        priority.passageStarting();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QuarryException(ErrorCode.UNAVAILABLE, "the embedding pool is shutting down", e);
      }
      try {
        vector = embedder.embedPassages(List.of(texts.get(i))).get(0);
      } finally {
        priority.passageEnded();
      }
      synchronized (cache) {
        out[i] = vector;
        cache.put(keys[i], vector);
      }
    }
  }

  /** The cache's counts so far: passages found and not, vectors pushed out, vectors held. */
  public CacheCounts cacheCounts() {
    synchronized (cache) {
      return new CacheCounts(hits, misses, evictions, cache.size());
    }
  }

  private static QuarryException capacity() {
    return new QuarryException(
        ErrorCode.CAPACITY, "the embedding pool is full; retry the request shortly");
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
