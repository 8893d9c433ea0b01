package dev.quarry.engine.revision;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.index.LeafReader;

/**
 * The visibilities of one segment (one reader generation of it: a doc-values update makes a new
 * one) at the revisions searched lately. Revisions past {@link LeafVisibility#stableFrom} share one
 * entry, so a segment untouched by new revisions is not recomputed as the latest revision moves.
 * Thread-safe.
 */
final class LeafRevisions {
  /** Pinned searches usually cluster on a few revisions; each entry costs one bit per document. */
  static final int MAX_REVISIONS_PER_SEGMENT = 8;

  private final long stableFrom;
  private final Map<Long, LeafVisibility> byRevision =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, LeafVisibility> eldest) {
          return size() > MAX_REVISIONS_PER_SEGMENT;
        }
      };

  LeafRevisions(long stableFrom) {
    this.stableFrom = stableFrom;
  }

  LeafVisibility at(LeafReader allVersionsLeaf, long revision) throws IOException {
    long effective = Math.min(revision, stableFrom);
    synchronized (byRevision) {
      LeafVisibility cached = byRevision.get(effective);
      if (cached != null) {
        return cached;
      }
    }
    LeafVisibility computed = LeafVisibility.compute(allVersionsLeaf, effective);
    synchronized (byRevision) {
      LeafVisibility raced = byRevision.putIfAbsent(effective, computed);
      return raced != null ? raced : computed;
    }
  }
}
