package dev.quarry.engine;

import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.QueryCache;

/**
 * Expert: the caches searches use, counted for metrics. One per {@link EngineConfig}, shared by
 * every corpus opened with it, so the counts of a process's corpora add up here and outlive the
 * corpora that closed.
 *
 * <ul>
 *   <li>{@link #revisionViews()}: the recent revisions searched in each open corpus, each with the
 *       statistics it scores with (at most 16 per corpus); a hit is a search that reused them.
 *   <li>{@link #termStatistics()}: each of those revisions' statistics of the terms searched (at
 *       most 8,192 terms per revision, none pushed out: beyond that they are computed each time); a
 *       hit is a term whose statistics were not counted again.
 *   <li>{@link #segmentVisibility()}: which documents of a segment are visible at a revision (at
 *       most 8 revisions per segment), and of those the ones of each grant's sources searched (at
 *       most 16 grants per segment and revision); a hit is a segment not scanned again for a
 *       search.
 *   <li>{@link #luceneQueries()}: Lucene's own query cache, one per process.
 * </ul>
 *
 * @quarry.experimental
 */
public final class SearchCaches {
  private final CacheCounter revisionViews = new CacheCounter();
  private final CacheCounter termStatistics = new CacheCounter();
  private final CacheCounter segmentVisibility = new CacheCounter();

  /** The counters of a process's caches, at zero. */
  public SearchCaches() {}

  /** Counts the per-revision views of the open corpora. */
  public CacheCounter revisionViewCounter() {
    return revisionViews;
  }

  /** Counts the term statistics the views of the open corpora hold. */
  public CacheCounter termStatisticsCounter() {
    return termStatistics;
  }

  /** Counts the per-segment visibilities of the open corpora. */
  public CacheCounter segmentVisibilityCounter() {
    return segmentVisibility;
  }

  public CacheCounts revisionViews() {
    return revisionViews.counts();
  }

  public CacheCounts termStatistics() {
    return termStatistics.counts();
  }

  public CacheCounts segmentVisibility() {
    return segmentVisibility.counts();
  }

  /**
   * Lucene's default query cache, which every index searcher of the process shares: it keeps the
   * matches of filters used often on large segments (Lucene's policy decides which). A miss is a
   * lookup of a query it holds nothing for; the size is the matches it holds, one per query and
   * segment. {@link CacheCounts#NONE} when the process replaced it with one that does not count.
   */
  public static CacheCounts luceneQueries() {
    QueryCache cache = IndexSearcher.getDefaultQueryCache();
    if (cache instanceof LRUQueryCache lru) {
      return new CacheCounts(
          lru.getHitCount(), lru.getMissCount(), lru.getEvictionCount(), lru.getCacheSize());
    }
    return CacheCounts.NONE;
  }
}
