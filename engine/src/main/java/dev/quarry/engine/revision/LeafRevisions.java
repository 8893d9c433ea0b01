package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.index.LeafReader;

/**
 * The visibilities of one segment (one reader generation of it: a doc-values update makes a new
 * one) at the revisions searched lately. Revisions past {@link LeafVisibility#stableFrom} share one
 * entry, so a segment untouched by new revisions is not recomputed as the latest revision moves.
 * Its counter counts the visibilities and the source scopes each keeps. Thread-safe.
 */
final class LeafRevisions {
  /** Pinned searches usually cluster on a few revisions; each entry costs one bit per document. */
  static final int MAX_REVISIONS_PER_SEGMENT = 8;

  private final long stableFrom;

  /** Counts lookups, entries and evictions (shared by the segments of every open corpus). */
  private final CacheCounter counter;

  private final Map<Long, LeafVisibility> byRevision =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, LeafVisibility> eldest) {
          boolean evict = size() > MAX_REVISIONS_PER_SEGMENT;
          if (evict) {
            counter.evicted();
            eldest.getValue().retire();
          }
          return evict;
        }
      };

  LeafRevisions(long stableFrom, CacheCounter counter) {
    this.stableFrom = stableFrom;
    this.counter = counter;
  }

  /**
   * Its segment's reader closed: the visibilities it holds, and their scopes, are no longer
   * counted.
   */
  void retire() {
    synchronized (byRevision) {
      counter.dropped(byRevision.size());
      byRevision.values().forEach(LeafVisibility::retire);
    }
  }

  LeafVisibility at(LeafReader allVersionsLeaf, long revision) throws IOException {
    long effective = Math.min(revision, stableFrom);
    synchronized (byRevision) {
      LeafVisibility cached = byRevision.get(effective);
      if (cached != null) {
        counter.hit();
        return cached;
      }
    }
    counter.miss();
    LeafVisibility computed = LeafVisibility.compute(allVersionsLeaf, effective, counter);
    synchronized (byRevision) {
      LeafVisibility raced = byRevision.putIfAbsent(effective, computed);
      if (raced != null) {
        return raced;
      }
      counter.added();
      return computed;
    }
  }
}
