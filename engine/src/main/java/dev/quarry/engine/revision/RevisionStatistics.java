package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import dev.quarry.engine.SourceScope;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;

/**
 * The term and collection statistics of one revision over the visible chunks of some sources: every
 * source ({@link SourceScope#ALL}), or those of a caller's grants, so that a restricted caller's
 * scores are those of a corpus holding only what it may see, and say nothing of the rest. They
 * depend on those chunks only, never on how they are spread over segments.
 *
 * <p>Thread-safe; obtained from {@link RevisionView#statistics}; valid while the view's snapshot is
 * held.
 */
public final class RevisionStatistics {
  /** Bounds the term statistics kept by one of them; beyond it they are computed each time. */
  static final int MAX_CACHED_TERMS = 8192;

  private final DirectoryReader reader;

  /** The sources counted, normalised (sorted, distinct); {@link SourceScope#ALL} for every one. */
  private final SourceScope sources;

  private final Map<Term, Optional<TermStatistics>> termStats = new ConcurrentHashMap<>();
  private final Map<String, Optional<CollectionStatistics>> fieldStats = new ConcurrentHashMap<>();

  /** Counts the term statistics looked up and held (shared with the other views of the process). */
  private final CacheCounter termCounter;

  /**
   * Each segment's counted chunks (by leaf ord) when the sources restrict, resolved at first use.
   */
  private final AtomicReferenceArray<LeafVisibility> counted;

  /** Set once its view left its cache: what it still computes is no longer counted as held. */
  private boolean retired;

  RevisionStatistics(DirectoryReader reader, SourceScope sources, CacheCounter termCounter) {
    this.reader = reader;
    this.sources = sources;
    this.termCounter = termCounter;
    this.counted = new AtomicReferenceArray<>(sources.isAll() ? 0 : reader.leaves().size());
  }

  /** The sources whose visible chunks these statistics count (normalised); ALL for every one. */
  public SourceScope sources() {
    return sources;
  }

  /** Its view left its cache: its term statistics are no longer counted as held. */
  synchronized void retire() {
    if (!retired) {
      retired = true;
      termCounter.dropped(termStats.size());
    }
  }

  /** The term's statistics over the chunks counted, or null when none of them has it. */
  public TermStatistics termStatistics(Term term) throws IOException {
    Optional<TermStatistics> cached = termStats.get(term);
    if (cached != null) {
      termCounter.hit();
      return cached.orElse(null);
    }
    termCounter.miss();
    cached = Optional.ofNullable(computeTermStatistics(term));
    synchronized (this) {
      if (termStats.size() < MAX_CACHED_TERMS
          && termStats.putIfAbsent(term, cached) == null
          && !retired) {
        termCounter.added();
      }
    }
    return cached.orElse(null);
  }

  /**
   * The field's statistics over the chunks counted, or null when none of them has it. {@code
   * sumTotalTermFreq} sums lengths as norms encode them (see {@link LeafVisibility.FieldLengths});
   * {@code maxDoc} is the number of chunks counted; {@code sumDocFreq}, which BM25 does not read,
   * is set to {@code docCount}, the least value the statistics' invariants allow.
   */
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    Optional<CollectionStatistics> cached = fieldStats.get(field);
    if (cached == null) {
      cached = Optional.ofNullable(computeCollectionStatistics(field));
      fieldStats.putIfAbsent(field, cached);
    }
    return cached.orElse(null);
  }

  /**
   * The counted chunks of one segment: the visible ones, narrowed to the sources when they
   * restrict, once per segment, so that the statistics of a scope ask the segment's cache of scopes
   * (and its lock) once, and keep that narrowed visibility (with its term counts) while they are
   * kept.
   */
  private LeafVisibility counted(LeafReaderContext context) throws IOException {
    VisibleLeafReader leaf = (VisibleLeafReader) context.reader();
    if (sources.isAll()) {
      return leaf.visibility();
    }
    LeafVisibility known = counted.get(context.ord);
    if (known == null) {
      known = leaf.visibility().scoped(leaf.allVersions(), sources);
      counted.set(context.ord, known);
    }
    return known;
  }

  private TermStatistics computeTermStatistics(Term term) throws IOException {
    long docFreq = 0;
    long totalTermFreq = 0;
    for (LeafReaderContext context : reader.leaves()) {
      VisibleLeafReader leaf = (VisibleLeafReader) context.reader();
      LeafVisibility.TermCounts counts = counted(context).termCounts(leaf.allVersions(), term);
      docFreq += counts.docFreq();
      totalTermFreq += counts.totalTermFreq();
    }
    return docFreq == 0 ? null : new TermStatistics(term.bytes(), docFreq, totalTermFreq);
  }

  private CollectionStatistics computeCollectionStatistics(String field) throws IOException {
    long countedDocs = 0;
    long docCount = 0;
    long sumLength = 0;
    for (LeafReaderContext context : reader.leaves()) {
      VisibleLeafReader leaf = (VisibleLeafReader) context.reader();
      LeafVisibility visibility = counted(context);
      countedDocs += visibility.visibleCount();
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
    return new CollectionStatistics(
        field, countedDocs, docCount, Math.max(sumLength, docCount), docCount);
  }
}
