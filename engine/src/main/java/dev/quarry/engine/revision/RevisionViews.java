package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import dev.quarry.engine.index.IndexSnapshot;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;

/**
 * Hands out {@link RevisionView}s of a corpus's snapshots and keeps what they cost to build: each
 * segment's visibility and term counts per revision (dropped when the segment's reader closes) and
 * the most recent views with their statistics (dropped when their snapshot's reader closes).
 * Searching the latest revision again on an unchanged snapshot, or a pinned revision again, reuses
 * everything; a new snapshot recomputes only the segments that changed.
 *
 * <p>Thread-safe; one per open corpus.
 */
public final class RevisionViews {
  /** Enough for the latest revision of a few recent snapshots plus the pinned revisions in use. */
  public static final int DEFAULT_MAX_VIEWS = 16;

  private final int maxViews;
  /** Count the views (hits, misses, evictions for the bound, entries held) and the segments' visibilities. */
  private final CacheCounter viewCounter;
  private final CacheCounter visibilityCounter;
  private final Map<IndexReader.CacheKey, LeafRevisions> segments = new ConcurrentHashMap<>();
  private final Map<ViewKey, RevisionView> views;
  private final Set<IndexReader.CacheKey> watchedReaders = ConcurrentHashMap.newKeySet();

  public RevisionViews() {
    this(DEFAULT_MAX_VIEWS);
  }

  public RevisionViews(int maxViews) {
    this(maxViews, new CacheCounter(), new CacheCounter());
  }

  /**
   * @param viewCounter counts this cache of views (shared with other corpora's)
   * @param visibilityCounter counts the segments' caches of visibilities (shared likewise)
   */
  public RevisionViews(int maxViews, CacheCounter viewCounter, CacheCounter visibilityCounter) {
    if (maxViews < 1) {
      throw new IllegalArgumentException("maxViews must be at least 1; got " + maxViews);
    }
    this.maxViews = maxViews;
    this.viewCounter = java.util.Objects.requireNonNull(viewCounter, "viewCounter");
    this.visibilityCounter = java.util.Objects.requireNonNull(visibilityCounter, "visibilityCounter");
    this.views = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<ViewKey, RevisionView> eldest) {
        boolean evict = size() > RevisionViews.this.maxViews;
        if (evict) {
          RevisionViews.this.viewCounter.evicted();
        }
        return evict;
      }
    };
  }

  /**
   * The corpus of {@code snapshot} as it was at {@code revision}. The caller checks that the
   * revision is retained by the snapshot; the view is valid while the snapshot is held.
   */
  public RevisionView at(IndexSnapshot snapshot, long revision) throws IOException {
    DirectoryReader allVersions = snapshot.allVersions();
    IndexReader.CacheHelper helper = allVersions.getReaderCacheHelper();
    ViewKey key = helper == null ? null : new ViewKey(helper.getKey(), revision);
    if (key != null) {
      synchronized (views) {
        RevisionView cached = views.get(key);
        if (cached != null) {
          viewCounter.hit();
          return cached;
        }
      }
    }
    viewCounter.miss();
    RevisionView view = new RevisionView(revision,
        new RevisionReader(allVersions, leaf -> segment(leaf).at(leaf, revision)));
    if (key != null) {
      if (watchedReaders.add(key.reader())) {
        helper.addClosedListener(this::forgetViewsOf);
      }
      synchronized (views) {
        RevisionView raced = views.putIfAbsent(key, view);
        if (raced != null) {
          return raced;
        }
        viewCounter.added();
        return view;
      }
    }
    return view;
  }

  /** Drops the views of a snapshot reader that closed: no one can search it any more. */
  private void forgetViewsOf(IndexReader.CacheKey reader) {
    synchronized (views) {
      int before = views.size();
      views.keySet().removeIf(key -> key.reader() == reader);
      viewCounter.dropped(before - views.size());
    }
    watchedReaders.remove(reader);
  }

  private LeafRevisions segment(LeafReader leaf) throws IOException {
    IndexReader.CacheHelper helper = leaf.getReaderCacheHelper();
    if (helper == null) {
      // Kept by no one: counted apart, so that its entries are not counted as held.
      return new LeafRevisions(LeafVisibility.stableFrom(leaf), new CacheCounter());
    }
    IndexReader.CacheKey key = helper.getKey();
    LeafRevisions known = segments.get(key);
    if (known != null) {
      return known;
    }
    LeafRevisions computed = new LeafRevisions(LeafVisibility.stableFrom(leaf), visibilityCounter);
    LeafRevisions raced = segments.putIfAbsent(key, computed);
    if (raced != null) {
      return raced;
    }
    helper.addClosedListener(this::forgetSegment);
    return computed;
  }

  /** Drops the visibilities of a segment reader that closed. */
  private void forgetSegment(IndexReader.CacheKey segment) {
    LeafRevisions gone = segments.remove(segment);
    if (gone != null) {
      visibilityCounter.dropped(gone.size());
    }
  }

  /** Number of segments with cached visibility; for tests of the cache's lifecycle. */
  int cachedSegments() {
    return segments.size();
  }

  /** Number of cached views; for tests of the cache's lifecycle. */
  int cachedViews() {
    synchronized (views) {
      return views.size();
    }
  }

  private record ViewKey(IndexReader.CacheKey reader, long revision) {
    ViewKey {
      Objects.requireNonNull(reader, "reader");
    }
  }
}
