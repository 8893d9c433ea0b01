package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
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
 * Which documents of one segment a Quarry revision sees, and the counts a revision's statistics are
 * made of, as Quarry's embedded store counts them: a document is visible at revision P when it is
 * live and {@code added <= P < superseded}; a field's document count is the visible documents with a
 * non-zero norm in it, its length the sum of those norms decoded as BM25 decodes them; a term's
 * document frequency the visible documents in its postings. For a caller granted only some sources,
 * the same counts over the visible documents of those sources. Kept per segment (as its deletes
 * stand), revision and sources, the most recently used up to {@link #MAX_KEPT_BYTES} of them (their
 * bits and the document frequencies they keep), so the searches of one revision walk a segment once.
 *
 * <p>These are the embedded store's counts (its {@code LeafVisibility}) written again: the plugin
 * runs in OpenSearch's JVM with OpenSearch's Lucene and cannot take Quarry's engine with it. The
 * stores' differential test holds the two to the same statistics.
 */
final class RevisionVisibility {
  /** The revision fields every versioned document of a Quarry corpus carries. */
  static final String ADDED = "added";
  static final String SUPERSEDED = "superseded";
  /** The keyword field naming the source a document belongs to. */
  static final String SOURCE = "source";
  /**
   * Bounds the node's heap what is kept takes: the bits of segments and revisions (a bit per document
   * each) and the document frequencies kept with them.
   */
  static final long MAX_KEPT_BYTES = 32L << 20;

  /** @param sources the statistics' sources (ids, prefixes ending in {@code *}); empty for every document */
  private record Key(IndexReader.CacheKey segment, long revision, List<String> sources) {}

  /**
   * A field's visible documents with a token in it, and their lengths as norms encode them.
   *
   * @param complete every document of the segment with a token in the field is visible (deleted
   *     ones are not): then a term's document frequency in the field, which counts every document
   *     holding it, deleted or not, is the segment's own
   */
  record FieldCounts(long docCount, long sumLength, boolean complete) {}

  /** In the order of their last use; guarded by itself, as is {@link #keptBytes}. */
  private static final LinkedHashMap<Key, RevisionVisibility> KEPT = new LinkedHashMap<>(16, 0.75f, true);
  private static long keptBytes;

  private final FixedBitSet visible;
  private final Map<String, FieldCounts> fieldCounts = new ConcurrentHashMap<>();
  /**
   * Document frequencies counted by a walk over postings (fields that are not complete), by field
   * and term, up to {@link #MAX_KEPT_TERMS}: the searches of one revision, or of one grant at it,
   * walk a term's postings in a segment once.
   */
  private final Map<Term, Long> docFreqs = new ConcurrentHashMap<>();
  /** Bounds {@link #docFreqs}. */
  static final int MAX_KEPT_TERMS = 1024;
  /** What one entry of {@link #docFreqs} holds: the map's node, the term, its bytes and the count. */
  static final long KEPT_TERM_BYTES = 128;
  /**
   * Under how many keys of {@link #KEPT} it is kept (a narrowed visibility that is its revision's
   * own is kept under both), and the entries of {@link #docFreqs} counted in {@link #keptBytes};
   * guarded by {@link #KEPT}.
   */
  private int keptAs;
  private int keptDocFreqs;

  private RevisionVisibility(FixedBitSet visible) {
    this.visible = visible;
  }

  /** The visibility of {@code leaf} at {@code revision}, computed once per segment (as its deletes stand) and revision. */
  static RevisionVisibility of(LeafReader leaf, long revision) throws IOException {
    return of(leaf, revision, List.of());
  }

  /**
   * The documents of {@code leaf} visible at {@code revision} whose source is one of {@code sources}
   * (exact ids, or prefixes ending in {@code *}; sorted and distinct, so that one scope is kept
   * once), every visible one when it is empty: what the statistics of a caller granted only those
   * sources count. Kept per segment, revision and sources, with the visibilities.
   */
  static RevisionVisibility of(LeafReader leaf, long revision, List<String> sources) throws IOException {
    IndexReader.CacheHelper helper = leaf.getReaderCacheHelper();
    if (helper == null) {
      RevisionVisibility visible = compute(leaf, revision);
      return sources.isEmpty() ? visible : narrow(leaf, visible, sources);
    }
    Key key = new Key(helper.getKey(), revision, sources);
    synchronized (KEPT) {
      RevisionVisibility kept = KEPT.get(key);
      if (kept != null) {
        return kept;
      }
    }
    RevisionVisibility computed = sources.isEmpty() ? compute(leaf, revision)
        : narrow(leaf, of(leaf, revision), sources);
    synchronized (KEPT) {
      if (KEPT.putIfAbsent(key, computed) == null) {
        computed.keptAs++;
        charge(computed.bytes());
      }
    }
    return computed;
  }

  /**
   * Counts {@code bytes} more held by what is kept, then forgets the least recently used until what
   * is kept fits {@link #MAX_KEPT_BYTES} again. Called holding {@link #KEPT}.
   */
  private static void charge(long bytes) {
    assert Thread.holdsLock(KEPT);
    keptBytes += bytes;
    for (var eldest = KEPT.entrySet().iterator(); keptBytes > MAX_KEPT_BYTES && eldest.hasNext(); ) {
      RevisionVisibility gone = eldest.next().getValue();
      keptBytes -= gone.bytes();
      gone.keptAs--;
      eldest.remove();
    }
  }

  /**
   * The documents of {@code visibility} whose source is one of {@code sources}: {@code visibility}
   * itself when every one of them is, so that a segment holding only granted sources shares the
   * revision's bits and counts.
   */
  private static RevisionVisibility narrow(LeafReader leaf, RevisionVisibility visibility, List<String> sources)
      throws IOException {
    FixedBitSet bits = new FixedBitSet(visibility.visible.length());
    Terms ids = leaf.terms(SOURCE);
    if (ids != null) {
      TermsEnum id = ids.iterator();
      PostingsEnum postings = null;
      for (String entry : sources) {
        if (entry.endsWith("*")) {
          BytesRef prefix = new BytesRef(entry.substring(0, entry.length() - 1));
          for (BytesRef at = id.seekCeil(prefix) == TermsEnum.SeekStatus.END ? null : id.term();
              at != null && StringHelper.startsWith(at, prefix); at = id.next()) {
            postings = mark(id, postings, visibility.visible, bits);
          }
        } else if (id.seekExact(new BytesRef(entry))) {
          postings = mark(id, postings, visibility.visible, bits);
        }
      }
    }
    return bits.cardinality() == visibility.visible.cardinality() ? visibility : new RevisionVisibility(bits);
  }

  /** Sets in {@code bits} the documents of {@code visible} holding the term {@code id} is on. */
  private static PostingsEnum mark(TermsEnum id, PostingsEnum reuse, FixedBitSet visible, FixedBitSet bits)
      throws IOException {
    PostingsEnum postings = id.postings(reuse, PostingsEnum.NONE);
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      if (visible.get(doc)) {
        bits.set(doc);
      }
    }
    return postings;
  }

  private static RevisionVisibility compute(LeafReader leaf, long revision) throws IOException {
    FixedBitSet bits = new FixedBitSet(Math.max(1, leaf.maxDoc()));
    SortedNumericDocValues added = DocValues.getSortedNumeric(leaf, ADDED);
    SortedNumericDocValues superseded = DocValues.getSortedNumeric(leaf, SUPERSEDED);
    Bits live = leaf.getLiveDocs();
    for (int doc = added.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = added.nextDoc()) {
      if ((live == null || live.get(doc)) && added.nextValue() <= revision) {
        // A document without superseded was never replaced.
        if (!superseded.advanceExact(doc) || revision < superseded.nextValue()) {
          bits.set(doc);
        }
      }
    }
    return new RevisionVisibility(bits);
  }

  /** The documents the revision sees (live ones only). */
  Bits visible() {
    return visible;
  }

  /**
   * What this visibility holds: its bits, and the document frequencies it keeps (counted as they are
   * kept, so that what is kept stays within {@link #MAX_KEPT_BYTES}). Read holding {@link #KEPT}.
   */
  private long bytes() {
    return visible.ramBytesUsed() + (long) keptDocFreqs * KEPT_TERM_BYTES;
  }

  /** The field's counts over this segment's visible documents. */
  FieldCounts fieldCounts(LeafReader leaf, String field) throws IOException {
    FieldCounts counts = fieldCounts.get(field);
    if (counts == null) {
      counts = countField(leaf, field);
      fieldCounts.putIfAbsent(field, counts);
    }
    return counts;
  }

  private FieldCounts countField(LeafReader leaf, String field) throws IOException {
    NumericDocValues norms = leaf.getNormValues(field);
    long docCount = 0;
    long sumLength = 0;
    boolean complete = true;
    if (norms != null) {
      for (int doc = norms.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = norms.nextDoc()) {
        long norm = norms.longValue();
        // A zero norm is a field that produced no token: Lucene does not count it in docCount either.
        if (norm != 0) {
          if (visible.get(doc)) {
            docCount++;
            sumLength += SmallFloat.byte4ToInt((byte) norm);
          } else {
            complete = false;
          }
        }
      }
    }
    return new FieldCounts(docCount, sumLength, complete);
  }

  /**
   * The visible documents of this segment holding the term {@code termsEnum} is positioned on, in
   * {@code field}: the segment's own count when the field is {@link FieldCounts#complete}, else a
   * walk over the term's postings, kept for the next search of the term. Leaves the enum on the term.
   */
  long docFreq(LeafReader leaf, String field, TermsEnum termsEnum) throws IOException {
    if (fieldCounts(leaf, field).complete()) {
      return termsEnum.docFreq();
    }
    Term key = new Term(field, BytesRef.deepCopyOf(termsEnum.term()));
    Long kept = docFreqs.get(key);
    if (kept != null) {
      return kept;
    }
    PostingsEnum postings = termsEnum.postings(null, PostingsEnum.NONE);
    long docFreq = 0;
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      if (visible.get(doc)) {
        docFreq++;
      }
    }
    if (docFreqs.size() < MAX_KEPT_TERMS && docFreqs.putIfAbsent(key, docFreq) == null) {
      synchronized (KEPT) {
        keptDocFreqs++;
        charge((long) keptAs * KEPT_TERM_BYTES);
      }
    }
    return docFreq;
  }
}
