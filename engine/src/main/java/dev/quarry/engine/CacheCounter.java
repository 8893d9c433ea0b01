package dev.quarry.engine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Expert: what one kind of cache does, counted as it happens, for metrics ({@link #counts()}): one
 * counter may serve many caches of a kind (one per corpus, one per segment), which then report
 * together. Thread-safe; counting costs an uncontended add.
 *
 * @quarry.internal
 */
public final class CacheCounter {
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final AtomicLong size = new AtomicLong();

  /** A counter at zero. */
  public CacheCounter() {}

  /** A lookup found its entry. */
  public void hit() {
    hits.increment();
  }

  /** A lookup found nothing, so the work was done. */
  public void miss() {
    misses.increment();
  }

  /** An entry was added. */
  public void added() {
    size.incrementAndGet();
  }

  /** An entry was pushed out to keep the cache within its bound. */
  public void evicted() {
    evictions.increment();
    size.decrementAndGet();
  }

  /**
   * {@code entries} entries were dropped for another reason than the bound (what they cached went
   * away).
   */
  public void dropped(long entries) {
    size.addAndGet(-entries);
  }

  /** The counts so far, and the entries held now. */
  public CacheCounts counts() {
    return new CacheCounts(hits.sum(), misses.sum(), evictions.sum(), size.get());
  }
}
