package dev.quarry.engine.revision;

import dev.quarry.engine.CacheCounter;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.SmallFloat;
import org.apache.lucene.util.StringHelper;

/**
 * The chunk documents of one segment that are visible at one revision ({@code added <= r <
 * superseded}, and not hard-deleted), with that segment's share of the revision's field lengths.
 *
 * <p>Immutable once built, except for the lazily filled field-length cache. Thread-safe.
 */
final class LeafVisibility {
  /** Bounds the per-segment term counts kept for one revision. */
  static final int MAX_CACHED_TERMS = 1024;

  /**
   * Bounds the source scopes (grants) whose visible chunks are kept per segment and revision: each
   * costs one bit per document. As many as a view keeps statistics of ({@link
   * RevisionView#MAX_CACHED_SCOPES}), so that the grants in use at one revision stay here when a
   * new snapshot's view of them is built.
   */
  static final int MAX_CACHED_SCOPES = RevisionView.MAX_CACHED_SCOPES;

  private final FixedBitSet visible;
  private final int visibleCount;
  private final boolean complete;
  private final Map<String, FieldLengths> lengths = new ConcurrentHashMap<>();
  private final Map<Term, TermCounts> termCounts = new ConcurrentHashMap<>();

  /**
   * Counts the scopes kept (with the segments' visibilities); null for a narrowed visibility, which
   * keeps none.
   */
  private final CacheCounter scopeCounter;

  /**
   * The visible chunks of a few source scopes, most recently used last; made at the first scope
   * asked (most visibilities are never narrowed). Guarded by {@code this}, as is {@link #retired}.
   */
  private Map<SourceScope, LeafVisibility> scoped;

  /**
   * Set once this visibility left its segment's cache: the scopes it still keeps are not counted.
   */
  private boolean retired;

  private LeafVisibility(FixedBitSet visible, boolean complete, CacheCounter scopeCounter) {
    this.visible = visible;
    this.visibleCount = visible.cardinality();
    this.complete = complete;
    this.scopeCounter = scopeCounter;
  }

  /** It left its segment's cache: the scopes it keeps are no longer counted as held. */
  synchronized void retire() {
    if (!retired) {
      retired = true;
      scopeCounter.dropped(scoped == null ? 0 : scoped.size());
    }
  }

  /** Number of scopes kept; for tests of what is kept. */
  synchronized int cachedScopes() {
    return scoped == null ? 0 : scoped.size();
  }

  /**
   * The visible chunks of this segment whose source lies in {@code scope} (a normalised scope that
   * restricts: not {@link SourceScope#isAll()}), as a visibility of its own whose term counts and
   * lengths count only them. This one when every visible chunk is in scope, so a segment holding
   * only granted sources keeps its cached counts (and, when complete, Lucene's own). Kept for the
   * last {@link #MAX_CACHED_SCOPES} scopes asked, counted with the segments' visibilities.
   *
   * @param leaf the all-versions segment this visibility was computed over
   */
  LeafVisibility scoped(LeafReader leaf, SourceScope scope) throws IOException {
    assert !scope.isAll() : "an unrestricted scope counts every visible chunk";
    assert scopeCounter != null : "only a revision's own visibility is narrowed";
    synchronized (this) {
      LeafVisibility cached = scoped == null ? null : scoped.get(scope);
      if (cached != null) {
        scopeCounter.hit();
        return cached;
      }
    }
    scopeCounter.miss();
    LeafVisibility computed = computeScoped(leaf, scope);
    synchronized (this) {
      if (scoped == null) {
        scoped =
            new LinkedHashMap<>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<SourceScope, LeafVisibility> eldest) {
                boolean evict = size() > MAX_CACHED_SCOPES;
                if (evict && !retired) {
                  scopeCounter.evicted();
                }
                return evict;
              }
            };
      }
      LeafVisibility raced = scoped.putIfAbsent(scope, computed);
      if (raced != null) {
        return raced;
      }
      if (!retired) {
        scopeCounter.added();
      }
      return computed;
    }
  }

  private LeafVisibility computeScoped(LeafReader leaf, SourceScope scope) throws IOException {
    FixedBitSet bits = new FixedBitSet(visible.length());
    Terms sources = visibleCount == 0 ? null : leaf.terms(Fields.SOURCE);
    if (sources != null) {
      TermsEnum source = sources.iterator();
      PostingsEnum postings = null;
      for (String entry : scope.entries()) {
        if (entry.endsWith("*")) {
          BytesRef prefix = new BytesRef(entry.substring(0, entry.length() - 1));
          TermsEnum.SeekStatus status = source.seekCeil(prefix);
          for (BytesRef id = status == TermsEnum.SeekStatus.END ? null : source.term();
              id != null && StringHelper.startsWith(id, prefix);
              id = source.next()) {
            postings = markVisible(source, postings, bits);
          }
        } else if (source.seekExact(new BytesRef(entry))) {
          postings = markVisible(source, postings, bits);
        }
      }
    }
    int count = bits.cardinality();
    if (count == visibleCount) {
      return this;
    }
    return new LeafVisibility(bits, false, null);
  }

  /** Sets the bits of the visible documents of the term {@code source} is positioned on. */
  private PostingsEnum markVisible(TermsEnum source, PostingsEnum reuse, FixedBitSet bits)
      throws IOException {
    PostingsEnum postings = source.postings(reuse, PostingsEnum.NONE);
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      if (visible.get(doc)) {
        bits.set(doc);
      }
    }
    return postings;
  }

  /**
   * Computes visibility at {@code revision} over an all-versions leaf (one whose live docs are the
   * hard live docs only). Only documents of kind chunk can be visible; the other kinds have no
   * text, so hiding them changes no statistic.
   *
   * @param scopeCounter counts the source scopes it keeps ({@link #scoped})
   */
  static LeafVisibility compute(LeafReader leaf, long revision, CacheCounter scopeCounter)
      throws IOException {
    FixedBitSet bits = new FixedBitSet(Math.max(1, leaf.maxDoc()));
    Bits hardLive = leaf.getLiveDocs();
    boolean complete = hardLive == null;
    PostingsEnum chunks = chunkDocs(leaf);
    if (chunks != null) {
      NumericDocValues added = leaf.getNumericDocValues(Fields.ADDED_REV);
      NumericDocValues superseded = leaf.getNumericDocValues(Fields.SUPERSEDED_REV);
      for (int doc = chunks.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = chunks.nextDoc()) {
        long addedAt =
            added != null && added.advanceExact(doc) ? added.longValue() : Long.MAX_VALUE;
        long supersededAt =
            superseded != null && superseded.advanceExact(doc)
                ? superseded.longValue()
                : Long.MAX_VALUE;
        boolean live = hardLive == null || hardLive.get(doc);
        if (live && addedAt <= revision && revision < supersededAt) {
          bits.set(doc);
        } else {
          complete = false;
        }
      }
    }
    return new LeafVisibility(bits, complete, scopeCounter);
  }

  private static PostingsEnum chunkDocs(LeafReader leaf) throws IOException {
    Terms kinds = leaf.terms(Fields.KIND);
    if (kinds == null) {
      return null;
    }
    TermsEnum kind = kinds.iterator();
    return kind.seekExact(new BytesRef(Fields.KIND_CHUNK))
        ? kind.postings(null, PostingsEnum.NONE)
        : null;
  }

  /**
   * The last revision at which this segment's visibility changes: for every later revision it is
   * the same as at this one. Lets a segment that did not change share its cached visibility across
   * the ever-advancing latest revision.
   */
  static long stableFrom(LeafReader leaf) throws IOException {
    long stable = 0;
    NumericDocValues added = leaf.getNumericDocValues(Fields.ADDED_REV);
    if (added != null) {
      for (int doc = added.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = added.nextDoc()) {
        stable = Math.max(stable, added.longValue());
      }
    }
    NumericDocValues superseded = leaf.getNumericDocValues(Fields.SUPERSEDED_REV);
    if (superseded != null) {
      for (int doc = superseded.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = superseded.nextDoc()) {
        long value = superseded.longValue();
        if (value != Long.MAX_VALUE) {
          stable = Math.max(stable, value);
        }
      }
    }
    return stable;
  }

  /** The visible chunk documents; never modify. */
  FixedBitSet bits() {
    return visible;
  }

  int visibleCount() {
    return visibleCount;
  }

  /**
   * True when no chunk of the segment is hidden at this revision and none is hard-deleted: then
   * Lucene's own per-segment term statistics are exactly the revision's.
   */
  boolean complete() {
    return complete;
  }

  /**
   * The term's document and occurrence counts over this segment's visible chunks. A segment that is
   * not {@link #complete()} needs a walk over the term's postings; the counts are kept (up to
   * {@link #MAX_CACHED_TERMS} terms), so a segment that stays unchanged while new revisions arrive
   * is walked once per term. A complete segment's counts are Lucene's own, one seek in its terms
   * dictionary (which a search of the term makes anyway), and a segment with no visible chunk has
   * none: neither is kept, since keeping them cost more heap than they save time (about 60 bytes
   * per term and segment: the largest part of a searched index's heap beside raw Lucene's).
   */
  TermCounts termCounts(LeafReader leaf, Term term) throws IOException {
    if (complete || visibleCount == 0) {
      return countTerm(leaf, term);
    }
    TermCounts cached = termCounts.get(term);
    if (cached != null) {
      return cached;
    }
    TermCounts counted = countTerm(leaf, term);
    if (termCounts.size() < MAX_CACHED_TERMS) {
      termCounts.putIfAbsent(term, counted);
    }
    return counted;
  }

  /** Number of terms whose counts are kept; for tests of what is kept. */
  int cachedTermCounts() {
    return termCounts.size();
  }

  private TermCounts countTerm(LeafReader leaf, Term term) throws IOException {
    if (visibleCount == 0) {
      return TermCounts.NONE;
    }
    Terms terms = leaf.terms(term.field());
    if (terms == null) {
      return TermCounts.NONE;
    }
    TermsEnum termsEnum = terms.iterator();
    if (!termsEnum.seekExact(term.bytes())) {
      return TermCounts.NONE;
    }
    if (complete) {
      return new TermCounts(termsEnum.docFreq(), termsEnum.totalTermFreq());
    }
    long docFreq = 0;
    long totalTermFreq = 0;
    PostingsEnum postings = termsEnum.postings(null, PostingsEnum.FREQS);
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      if (visible.get(doc)) {
        docFreq++;
        totalTermFreq += postings.freq();
      }
    }
    return new TermCounts(docFreq, totalTermFreq);
  }

  /** A term's document frequency and total frequency over one segment's visible chunks. */
  record TermCounts(long docFreq, long totalTermFreq) {
    static final TermCounts NONE = new TermCounts(0, 0);
  }

  /**
   * Visible documents having {@code field}, and the sum of their lengths as their norms encode
   * them.
   */
  FieldLengths lengths(LeafReader leaf, String field) throws IOException {
    FieldLengths cached = lengths.get(field);
    if (cached == null) {
      cached = computeLengths(leaf, field);
      lengths.putIfAbsent(field, cached);
    }
    return cached;
  }

  private FieldLengths computeLengths(LeafReader leaf, String field) throws IOException {
    NumericDocValues norms = leaf.getNormValues(field);
    long docCount = 0;
    long sumLength = 0;
    if (norms != null) {
      for (int doc = norms.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = norms.nextDoc()) {
        long norm = norms.longValue();
        // A zero norm is a field that produced no token: Lucene does not count it in docCount
        // either.
        if (norm != 0 && visible.get(doc)) {
          docCount++;
          sumLength += SmallFloat.byte4ToInt((byte) norm);
        }
      }
    }
    return new FieldLengths(docCount, sumLength);
  }

  /**
   * A field's document count and summed length over the visible documents of one segment.
   *
   * @param sumLength lengths decoded from norms the way BM25 decodes them (exact up to 24 tokens,
   *     then rounded down to about 3 significant bits), which is lossy but a fixed function of each
   *     document, so the sum does not depend on how documents are spread over segments
   */
  record FieldLengths(long docCount, long sumLength) {}
}
