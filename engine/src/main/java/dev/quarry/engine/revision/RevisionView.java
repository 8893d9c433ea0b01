package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import dev.quarry.engine.SourceScope;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;

/**
 * A corpus as it was at one revision: a reader whose live documents are exactly the chunks visible
 * at that revision, and the term and collection statistics of that revision (as if nothing
 * superseded or later existed). Lucene's own statistics count every retained version, so searches
 * must take theirs from here.
 *
 * <p>Statistics depend only on the visible documents, never on how they are spread over segments,
 * so a revision scores the same before and after any merge. Thread-safe; obtained from {@link
 * RevisionViews}; valid while the snapshot it came from is held.
 */
public final class RevisionView {
  /**
   * Bounds the restricted statistics (one per grant scope searched) kept by one view, least
   * recently used first out; beyond it a scope's statistics are built again when asked. Each
   * segment keeps as many scopes' visible chunks.
   */
  static final int MAX_CACHED_SCOPES = 16;

  private final long revision;
  private final DirectoryReader reader;

  /** Over every visible chunk: what a caller who may see every source scores with. */
  private final RevisionStatistics all;

  /** Over the visible chunks of a grant's sources, by normalised scope; guarded by itself. */
  private final Map<SourceScope, RevisionStatistics> scoped;

  private final CacheCounter termCounter;

  /** Set once the view left its cache; guarded by {@link #scoped}. */
  private boolean retired;

  RevisionView(long revision, DirectoryReader reader) {
    this(revision, reader, new CacheCounter());
  }

  RevisionView(long revision, DirectoryReader reader, CacheCounter termCounter) {
    this.revision = revision;
    this.reader = reader;
    this.termCounter = termCounter;
    this.all = new RevisionStatistics(reader, SourceScope.ALL, termCounter);
    this.scoped =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<SourceScope, RevisionStatistics> eldest) {
            boolean evict = size() > MAX_CACHED_SCOPES;
            if (evict) {
              eldest.getValue().retire();
            }
            return evict;
          }
        };
  }

  /**
   * The view left its cache (evicted, or its snapshot closed): its term statistics are no longer
   * counted as held, including any a search still using it adds.
   */
  void retire() {
    all.retire();
    synchronized (scoped) {
      retired = true;
      scoped.values().forEach(RevisionStatistics::retire);
    }
  }

  public long revision() {
    return revision;
  }

  /** The chunks visible at {@link #revision()}, as live documents. Do not close it. */
  public DirectoryReader reader() {
    return reader;
  }

  /**
   * The statistics of this revision over the visible chunks of {@code sources}: every visible chunk
   * when it does not restrict ({@link SourceScope#isAll()}, the same object every time, so a caller
   * who may see everything pays nothing more), else those of the listed ids and prefixes. Scopes
   * that list the same entries in another order or twice share one.
   */
  public RevisionStatistics statistics(SourceScope sources) {
    if (sources.isAll()) {
      return all;
    }
    SourceScope normalised =
        new SourceScope(sources.entries().stream().distinct().sorted().toList());
    synchronized (scoped) {
      RevisionStatistics known = scoped.get(normalised);
      if (known == null) {
        known = new RevisionStatistics(reader, normalised, termCounter);
        if (retired) {
          known.retire();
        } else {
          scoped.put(normalised, known);
        }
      }
      return known;
    }
  }
}
