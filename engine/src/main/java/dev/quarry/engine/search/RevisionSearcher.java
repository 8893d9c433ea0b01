package dev.quarry.engine.search;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.index.IndexSnapshot;
import org.apache.lucene.analysis.Analyzer;

/**
 * Searches a corpus at one revision: reproducibly scored with that revision's statistics.
 * Thread-safe; one per open corpus.
 */
public final class RevisionSearcher {
  private final CorpusInfo info;
  private final Analyzer analyzer;

  public RevisionSearcher(CorpusInfo info, Analyzer analyzer) {
    this.info = info;
    this.analyzer = analyzer;
  }

  /**
   * Answers {@code request} at its pinned revision or at {@code snapshot.revision()}.
   *
   * @throws dev.quarry.engine.QuarryException INVALID_REQUEST for a revision above the snapshot's,
   *     REVISION_EXPIRED for one older than {@code snapshot.oldestRetainedRevision()}
   */
  public SearchResult search(IndexSnapshot snapshot, SearchRequest request) {
    throw new UnsupportedOperationException("TODO");
  }
}
