package dev.quarry.engine.revision;

import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.Bits;

/**
 * A segment whose live documents are exactly the chunks visible at one revision, so that every
 * Lucene query, collector and highlighter run over it sees that revision and nothing else.
 */
final class VisibleLeafReader extends FilterLeafReader {
  private final LeafVisibility visibility;

  VisibleLeafReader(LeafReader allVersions, LeafVisibility visibility) {
    super(allVersions);
    this.visibility = visibility;
  }

  LeafVisibility visibility() {
    return visibility;
  }

  /** The all-versions segment underneath, whose statistics count every retained version. */
  LeafReader allVersions() {
    return in;
  }

  @Override
  public Bits getLiveDocs() {
    return visibility.bits();
  }

  @Override
  public int numDocs() {
    return visibility.visibleCount();
  }

  /**
   * Cached per-core data (such as the query cache's filter bitsets) ignores live docs: shareable.
   */
  @Override
  public CacheHelper getCoreCacheHelper() {
    return in.getCoreCacheHelper();
  }

  /** Live docs differ from the underlying reader's, so nothing keyed on them may be shared. */
  @Override
  public CacheHelper getReaderCacheHelper() {
    return null;
  }
}
