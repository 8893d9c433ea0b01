package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;

/**
 * A corpus as it was at one revision: a reader whose live documents are exactly the chunks visible
 * at that revision, and the term and collection statistics of that revision (as if nothing
 * superseded or later existed). Lucene's own statistics count every retained version, so searches
 * must take theirs from here.
 *
 * <p>Statistics depend only on the visible documents, never on how they are spread over segments,
 * so a revision scores the same before and after any merge. Thread-safe; obtained from
 * {@link RevisionViews}; valid while the snapshot it came from is held.
 */
public final class RevisionView {
  /** Bounds the statistics cache of one view; beyond it statistics are computed each time. */
  static final int MAX_CACHED_TERMS = 8192;

  private final long revision;
  private final DirectoryReader reader;
  private final Map<Term, Optional<TermStatistics>> termStats = new ConcurrentHashMap<>();
  private final Map<String, Optional<CollectionStatistics>> fieldStats = new ConcurrentHashMap<>();
  /** Counts the term statistics looked up and held (shared with the other views of the process). */
  private final CacheCounter termCounter;
  /** Set once the view left its cache: what it still computes is no longer counted as held. */
  private boolean retired;

  RevisionView(long revision, DirectoryReader reader) {
    this(revision, reader, new CacheCounter());
  }

  RevisionView(long revision, DirectoryReader reader, CacheCounter termCounter) {
    this.revision = revision;
    this.reader = reader;
    this.termCounter = termCounter;
  }

  /**
   * The view left its cache (evicted, or its snapshot closed): its term statistics are no longer
   * counted as held, including any a search still using it adds.
   */
  synchronized void retire() {
    if (!retired) {
      retired = true;
      termCounter.dropped(termStats.size());
    }
  }

  public long revision() {
    return revision;
  }

  /** The chunks visible at {@link #revision()}, as live documents. Do not close it. */
  public DirectoryReader reader() {
    return reader;
  }

  /** The term's statistics over the chunks visible at this revision, or null when none has it. */
  public TermStatistics termStatistics(Term term) throws IOException {
    Optional<TermStatistics> cached = termStats.get(term);
    if (cached != null) {
      termCounter.hit();
      return cached.orElse(null);
    }
    termCounter.miss();
    cached = Optional.ofNullable(computeTermStatistics(term));
    synchronized (this) {
      if (termStats.size() < MAX_CACHED_TERMS && termStats.putIfAbsent(term, cached) == null && !retired) {
        termCounter.added();
      }
    }
    return cached.orElse(null);
  }

  /**
   * The field's statistics over the chunks visible at this revision, or null when none has it.
   * {@code sumTotalTermFreq} sums lengths as norms encode them (see {@link LeafVisibility.FieldLengths});
   * {@code maxDoc} is the number of visible chunks; {@code sumDocFreq}, which BM25 does not read, is
   * set to {@code docCount}, the least value the statistics' invariants allow.
   */
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    Optional<CollectionStatistics> cached = fieldStats.get(field);
    if (cached == null) {
      cached = Optional.ofNullable(computeCollectionStatistics(field));
      fieldStats.putIfAbsent(field, cached);
    }
    return cached.orElse(null);
  }

  private TermStatistics computeTermStatistics(Term term) throws IOException {
    long docFreq = 0;
    long totalTermFreq = 0;
    for (LeafReaderContext context : reader.leaves()) {
      VisibleLeafReader leaf = (VisibleLeafReader) context.reader();
      LeafVisibility.TermCounts counts = leaf.visibility().termCounts(leaf.allVersions(), term);
      docFreq += counts.docFreq();
      totalTermFreq += counts.totalTermFreq();
    }
    return docFreq == 0 ? null : new TermStatistics(term.bytes(), docFreq, totalTermFreq);
  }

  private CollectionStatistics computeCollectionStatistics(String field) throws IOException {
    long visibleDocs = 0;
    long docCount = 0;
    long sumLength = 0;
    for (LeafReaderContext context : reader.leaves()) {
      VisibleLeafReader leaf = (VisibleLeafReader) context.reader();
      LeafVisibility visibility = leaf.visibility();
      visibleDocs += visibility.visibleCount();
      if (visibility.visibleCount() == 0) {
        continue;
      }
      LeafVisibility.FieldLengths lengths = visibility.lengths(leaf.allVersions(), field);
      docCount += lengths.docCount();
      sumLength += lengths.sumLength();
    }
    if (docCount == 0) {
      return null;
    }
    return new CollectionStatistics(field, visibleDocs, docCount, Math.max(sumLength, docCount), docCount);
  }
}
