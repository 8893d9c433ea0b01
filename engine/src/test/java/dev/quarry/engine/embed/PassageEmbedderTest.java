package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.FilterEmbedder;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The passage pool (with {@link HashingEmbedder}'s vectors): its cache, and its refusal when full.
 */
class PassageEmbedderTest {
  private static final Embedder MINI = new HashingEmbedder();

  private static List<String> texts(String tag, int n, int words) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(tag + " passage " + i + " " + "about otters and rivers ".repeat(words / 4));
    }
    return out;
  }

  @Test
  void embeddingTheSameTextAgainIsACacheLookup() throws Exception {
    try (PassageEmbedder pool = new PassageEmbedder(1, 8, 100, new QueryPriority(1))) {
      List<String> texts = texts("cache", 3, 8);
      List<Embedder.Embedding> first = pool.embed(MINI, texts).get();
      CompletableFuture<List<Embedder.Embedding>> again = pool.embed(MINI, texts);
      assertTrue(again.isDone(), "every text was cached: nothing to run");
      for (int i = 0; i < texts.size(); i++) {
        assertArrayEquals(first.get(i).vector(), again.get().get(i).vector());
      }
    }
  }

  @Test
  void theCacheCountsHitsAndMissesPerPassageAndItsEvictions() throws Exception {
    try (PassageEmbedder pool = new PassageEmbedder(1, 8, 4, new QueryPriority(1))) {
      assertEquals(dev.quarry.engine.CacheCounts.NONE, pool.cacheCounts());
      List<String> texts = texts("counted", 3, 8);
      pool.embed(MINI, texts).get();
      assertEquals(new dev.quarry.engine.CacheCounts(0, 3, 0, 3), pool.cacheCounts());
      pool.embed(MINI, texts).get();
      assertEquals(new dev.quarry.engine.CacheCounts(3, 3, 0, 3), pool.cacheCounts());
      // Three new texts into a cache of four: two of the first three are pushed out.
      pool.embed(MINI, List.of(texts.get(0), "new one", "new two", "new three")).get();
      assertEquals(new dev.quarry.engine.CacheCounts(4, 6, 2, 4), pool.cacheCounts());
    }
  }

  @Test
  void theQueryCacheCountsHitsMissesAndEvictions() {
    QueryCachingEmbedder queries = new QueryCachingEmbedder(MINI, 2, new QueryPriority(1));
    queries.embedQuery("otters");
    queries.embedQuery("otters");
    queries.embedQuery("rivers");
    queries.embedQuery("estuaries");
    assertEquals(new dev.quarry.engine.CacheCounts(1, 3, 1, 2), queries.cacheCounts());
  }

  @Test
  void aSmallRequest_runsOnEveryThreadOfThePool() throws Exception {
    Counting counting = new Counting();
    counting.release.countDown();
    counting.meet = new CountDownLatch(2);
    try (PassageEmbedder pool = new PassageEmbedder(2, 8, 1000, new QueryPriority(2))) {
      // Two passages on two threads: a part each, running at once (each waits until the other has
      // begun).
      assertEquals(2, pool.embed(counting, texts("small", 2, 8)).get(60, TimeUnit.SECONDS).size());
    }
  }

  /** The model, counting the passages it is asked to embed. */
  private static final class Counting extends FilterEmbedder {
    final AtomicInteger passages = new AtomicInteger();

    /** Open once the model has been asked for its first passages. */
    final CountDownLatch started = new CountDownLatch(1);

    /** The first call waits for it: the test decides when the part on the thread ends. */
    final CountDownLatch release = new CountDownLatch(1);

    /**
     * When set, every call counts it down and waits for it to open: calls that must run at once.
     */
    volatile CountDownLatch meet;

    Counting() {
      super(MINI);
    }

    @Override
    public List<Embedding> embedPassages(List<String> texts) {
      passages.addAndGet(texts.size());
      CountDownLatch m = meet;
      if (m != null) {
        m.countDown();
        try {
          if (!m.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                "ran alone: no other part of the request ran beside it");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      if (started.getCount() > 0) {
        started.countDown();
        try {
          if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return MINI.embedPassages(texts);
    }
  }

  @Test
  void aFullPoolRefusesWithCapacity_andRunsNothingOfTheRefusedRequest() throws Exception {
    Counting counting = new Counting();
    try (PassageEmbedder pool = new PassageEmbedder(1, 8, 1000, new QueryPriority(1))) {
      // Four parts of four passages: one runs on the only thread until released, three wait.
      CompletableFuture<List<Embedder.Embedding>> running =
          pool.embed(counting, texts("a", 16, 200));
      // Queued only once that part is on the thread, so the queue then holds 3 + 4 of its 8 places.
      assertTrue(counting.started.await(60, TimeUnit.SECONDS), "the first part never started");
      CompletableFuture<List<Embedder.Embedding>> queued = pool.embed(counting, texts("b", 32, 8));
      QuarryException full =
          assertThrows(QuarryException.class, () -> pool.embed(counting, texts("c", 4, 8)));
      assertEquals(ErrorCode.CAPACITY, full.code());
      assertTrue(full.code().retryable());
      counting.release.countDown();
      assertEquals(16, running.get().size());
      assertEquals(32, queued.get().size());
      assertEquals(
          4,
          pool.embed(counting, texts("d", 4, 8)).get().size(),
          "once drained, the pool takes work again");
      // The only thread runs parts in the order they were queued: a part of the refused request
      // would have run before the last request's.
      assertEquals(
          16 + 32 + 4, counting.passages.get(), "no passage of the refused request was embedded");
    }
  }

  /** The model, recording how many passage calls ran at once at most. */
  private static final class Overlapping extends FilterEmbedder {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();

    Overlapping() {
      super(MINI);
    }

    @Override
    public List<Embedding> embedPassages(List<String> texts) {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        Thread.sleep(5); // long enough for the other thread to start a call if it may
        return in.embedPassages(texts);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        running.decrementAndGet();
      }
    }
  }

  @Test
  void whileAQueryIsEmbedded_passageCallsLeaveItACore_butNeverStop() throws Exception {
    AtomicLong now = new AtomicLong();
    QueryPriority priority = new QueryPriority(2, now::get);
    try (PassageEmbedder pool = new PassageEmbedder(2, 8, 1000, priority)) {
      Overlapping model = new Overlapping();
      priority.queryStarted();
      assertEquals(
          8, pool.embed(model, texts("beside a query", 8, 8)).get(60, TimeUnit.SECONDS).size());
      assertEquals(1, model.most.get(), "two passage calls ran beside a query on two cores");
      // More queries than cores: passages still move on, one call at a time.
      priority.queryStarted();
      priority.queryStarted();
      assertEquals(
          4, pool.embed(model, texts("beside three", 4, 8)).get(60, TimeUnit.SECONDS).size());
      priority.queryEnded();
      priority.queryEnded();
      priority.queryEnded();
      now.addAndGet(QueryPriority.QUERY_RESERVE.toNanos());
      // No query for the reserve's length: both threads embed at once again (each call waits
      // until the other has begun).
      Counting counting = new Counting();
      counting.release.countDown();
      counting.meet = new CountDownLatch(2);
      assertEquals(2, pool.embed(counting, texts("idle", 2, 8)).get(60, TimeUnit.SECONDS).size());
    }
  }

  @Test
  void aQueryMissingTheCache_isAQueryInProgressWhileTheModelRuns() {
    AtomicLong now = new AtomicLong();
    QueryPriority priority = new QueryPriority(2, now::get);
    AtomicInteger slotsDuringCall = new AtomicInteger();
    Embedder model =
        new FilterEmbedder(MINI) {
          @Override
          public float[] embedQuery(String query) {
            slotsDuringCall.set(priority.passageSlots());
            return in.embedQuery(query);
          }
        };
    QueryCachingEmbedder queries = new QueryCachingEmbedder(model, 8, priority);
    queries.embedQuery("otters");
    assertEquals(1, slotsDuringCall.get(), "the model ran without the passages making room");
    assertEquals(
        1, priority.passageSlots(), "for a moment after a query, a core stays free for the next");
    now.addAndGet(QueryPriority.QUERY_RESERVE.toNanos() - 1);
    assertEquals(1, priority.passageSlots());
    now.incrementAndGet();
    assertEquals(2, priority.passageSlots(), "the reserve ended, and so did the queries' turn");
  }

  @Test
  void aPassageWaitingForTheCoreKeptForQueries_startsWhenTheReserveEnds() throws Exception {
    QueryPriority priority = new QueryPriority(2);
    priority.queryStarted();
    priority.queryEnded();
    priority.passageStarting();
    // The second call waits for the reserve to end; nothing notifies it then, so it must wake by
    // itself (a wait without a deadline would hang here).
    CompletableFuture<Void> second =
        CompletableFuture.runAsync(
            () -> {
              try {
                priority.passageStarting();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    second.get(30, TimeUnit.SECONDS);
    assertEquals(2, priority.passageSlots());
    priority.passageEnded();
    priority.passageEnded();
  }
}
