package dev.quarry.engine;

/**
 * Expert: what a cache has done since it was built, for metrics: lookups that found an entry (hits)
 * or not (misses), entries pushed out to stay within its bound (evictions), and the entries it
 * holds now. The counts only grow; {@code size} goes both ways.
 *
 * @quarry.experimental
 */
public record CacheCounts(long hits, long misses, long evictions, long size) {
  /** A cache that has done nothing. */
  public static final CacheCounts NONE = new CacheCounts(0, 0, 0, 0);

  /** The counts of two caches of one kind, together. */
  public CacheCounts plus(CacheCounts other) {
    return new CacheCounts(
        hits + other.hits, misses + other.misses, evictions + other.evictions, size + other.size);
  }
}
