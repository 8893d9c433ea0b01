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

  /**
   * Count the views (hits, misses, evictions for the bound, entries held), their term statistics
   * and the segments' visibilities.
   */
  private final CacheCounter viewCounter;

  private final CacheCounter termCounter;
  private final CacheCounter visibilityCounter;
  private final Map<IndexReader.CacheKey, LeafRevisions> segments = new ConcurrentHashMap<>();
  private final Map<ViewKey, RevisionView> views;
  private final Set<IndexReader.CacheKey> watchedReaders = ConcurrentHashMap.newKeySet();

  /**
   * The view handed out last. Most searches ask again for the revision the one before asked for
   * (the latest, until the next write), so they find it here without taking the lock of the views'
   * access order. A view found here is not moved up in that order: if evicted meanwhile, it is
   * still valid while its snapshot is held, and built again once another view has been asked for.
   */
  private volatile Recent recent;

  public RevisionViews() {
    this(DEFAULT_MAX_VIEWS);
  }

  public RevisionViews(int maxViews) {
    this(maxViews, new CacheCounter(), new CacheCounter(), new CacheCounter());
  }

  /**
   * @param viewCounter counts this cache of views (shared with other corpora's)
   * @param termCounter counts the views' caches of term statistics (shared likewise)
   * @param visibilityCounter counts the segments' caches of visibilities (shared likewise)
   */
  public RevisionViews(
      int maxViews,
      CacheCounter viewCounter,
      CacheCounter termCounter,
      CacheCounter visibilityCounter) {
    if (maxViews < 1) {
      throw new IllegalArgumentException("maxViews must be at least 1; got " + maxViews);
    }
    this.maxViews = maxViews;
    this.viewCounter = Objects.requireNonNull(viewCounter, "viewCounter");
    this.termCounter = Objects.requireNonNull(termCounter, "termCounter");
    this.visibilityCounter = Objects.requireNonNull(visibilityCounter, "visibilityCounter");
    this.views =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<ViewKey, RevisionView> eldest) {
            boolean evict = size() > RevisionViews.this.maxViews;
            if (evict) {
              RevisionViews.this.viewCounter.evicted();
              eldest.getValue().retire();
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
      Recent last = recent;
      if (last != null && last.key().equals(key)) {
        viewCounter.hit();
        return last.view();
      }
      synchronized (views) {
        RevisionView cached = views.get(key);
        if (cached != null) {
          viewCounter.hit();
          recent = new Recent(key, cached);
          return cached;
        }
      }
    }
    viewCounter.miss();
    RevisionReader reader =
        new RevisionReader(allVersions, leaf -> segment(leaf).at(leaf, revision));
    // A view kept by no one has its term statistics counted apart, so they are not counted as held.
    RevisionView view =
        key == null
            ? new RevisionView(revision, reader)
            : new RevisionView(revision, reader, termCounter);
    if (key != null) {
      if (watchedReaders.add(key.reader())) {
        helper.addClosedListener(this::forgetViewsOf);
      }
      synchronized (views) {
        RevisionView raced = views.putIfAbsent(key, view);
        if (raced != null) {
          view.retire();
          recent = new Recent(key, raced);
          return raced;
        }
        viewCounter.added();
        recent = new Recent(key, view);
        return view;
      }
    }
    return view;
  }

  /** Drops the views of a snapshot reader that closed: no one can search it any more. */
  private void forgetViewsOf(IndexReader.CacheKey reader) {
    synchronized (views) {
      var entries = views.entrySet().iterator();
      while (entries.hasNext()) {
        var e = entries.next();
        if (e.getKey().reader() == reader) {
          entries.remove();
          viewCounter.dropped(1);
          e.getValue().retire();
        }
      }
      Recent last = recent;
      if (last != null && last.key().reader() == reader) {
        recent = null;
      }
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
      gone.retire();
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

  private record Recent(ViewKey key, RevisionView view) {}

  private record ViewKey(IndexReader.CacheKey reader, long revision) {
    ViewKey {
      Objects.requireNonNull(reader, "reader");
    }
  }
}
