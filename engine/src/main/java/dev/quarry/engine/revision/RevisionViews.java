package dev.quarry.engine.revision;

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
  private final Map<IndexReader.CacheKey, LeafRevisions> segments = new ConcurrentHashMap<>();
  private final Map<ViewKey, RevisionView> views;
  private final Set<IndexReader.CacheKey> watchedReaders = ConcurrentHashMap.newKeySet();
  /**
   * The view handed out last. Most searches ask again for the revision the one before asked for
   * (the latest, until the next write), so they find it here without taking the lock of the
   * views' access order. A view found here is not moved up in that order: if evicted meanwhile,
   * it is still valid while its snapshot is held, and built again once another view has been asked for.
   */
  private volatile Recent recent;

  public RevisionViews() {
    this(DEFAULT_MAX_VIEWS);
  }

  public RevisionViews(int maxViews) {
    if (maxViews < 1) {
      throw new IllegalArgumentException("maxViews must be at least 1; got " + maxViews);
    }
    this.maxViews = maxViews;
    this.views = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<ViewKey, RevisionView> eldest) {
        return size() > RevisionViews.this.maxViews;
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
        return last.view();
      }
      synchronized (views) {
        RevisionView cached = views.get(key);
        if (cached != null) {
          recent = new Recent(key, cached);
          return cached;
        }
      }
    }
    RevisionView view = new RevisionView(revision,
        new RevisionReader(allVersions, leaf -> segment(leaf).at(leaf, revision)));
    if (key != null) {
      if (watchedReaders.add(key.reader())) {
        helper.addClosedListener(this::forgetViewsOf);
      }
      synchronized (views) {
        RevisionView raced = views.putIfAbsent(key, view);
        RevisionView kept = raced != null ? raced : view;
        recent = new Recent(key, kept);
        return kept;
      }
    }
    return view;
  }

  /** Drops the views of a snapshot reader that closed: no one can search it any more. */
  private void forgetViewsOf(IndexReader.CacheKey reader) {
    synchronized (views) {
      views.keySet().removeIf(key -> key.reader() == reader);
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
      return new LeafRevisions(LeafVisibility.stableFrom(leaf));
    }
    IndexReader.CacheKey key = helper.getKey();
    LeafRevisions known = segments.get(key);
    if (known != null) {
      return known;
    }
    LeafRevisions computed = new LeafRevisions(LeafVisibility.stableFrom(leaf));
    LeafRevisions raced = segments.putIfAbsent(key, computed);
    if (raced != null) {
      return raced;
    }
    helper.addClosedListener(segments::remove);
    return computed;
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
