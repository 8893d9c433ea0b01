package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * One segment's inverted file for the coded first pass: the documents of each list in document
 * order, read once from {@link Fields#VECTOR_LIST} and kept while the segment is open, as {@link
 * SegmentCodes} keeps its codes. A document with no list (none is written so in a corpus with
 * lists) is in the extra last bucket, which every search reads, so such a document is never lost to
 * the first pass, only read without need.
 */
final class SegmentLists {
  private static final Map<List<Object>, SegmentLists> CACHE = new ConcurrentHashMap<>();

  /** Every document's list, or {@code lists} (the extra bucket) for none. */
  private final int[] listOf;

  /** The documents of list {@code l} are {@code docs[starts[l]]} to {@code docs[starts[l+1]-1]}. */
  private final int[] starts;

  private final int[] docs;
  private final int lists;

  private SegmentLists(int[] listOf, int[] starts, int[] docs, int lists) {
    this.listOf = listOf;
    this.starts = starts;
    this.docs = docs;
    this.lists = lists;
  }

  /** The inverted file of {@code leaf}, for a corpus of {@code lists} lists. */
  static SegmentLists of(LeafReader leaf, int lists) throws IOException {
    IndexReader.CacheHelper helper = leaf.getCoreCacheHelper();
    if (helper == null) {
      return load(leaf, lists);
    }
    List<Object> key = List.of(helper.getKey(), lists);
    SegmentLists cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    SegmentLists loaded = load(leaf, lists);
    if (CACHE.put(key, loaded) == null) {
      helper.addClosedListener(k -> CACHE.remove(List.of(k, lists)));
    }
    return loaded;
  }

  private static SegmentLists load(LeafReader leaf, int lists) throws IOException {
    int maxDoc = leaf.maxDoc();
    int[] listOf = new int[maxDoc];
    java.util.Arrays.fill(listOf, lists);
    NumericDocValues values = leaf.getNumericDocValues(Fields.VECTOR_LIST);
    if (values != null) {
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        long list = values.longValue();
        if (list < 0 || list >= lists) {
          throw new IllegalStateException(
              "a chunk of list " + list + " in a corpus of " + lists + " lists");
        }
        listOf[d] = (int) list;
      }
    }
    int[] starts = new int[lists + 2];
    for (int l : listOf) {
      starts[l + 1]++;
    }
    for (int l = 0; l <= lists; l++) {
      starts[l + 1] += starts[l];
    }
    int[] next = java.util.Arrays.copyOf(starts, lists + 1);
    int[] docs = new int[maxDoc];
    for (int d = 0; d < maxDoc; d++) {
      docs[next[listOf[d]]++] = d;
    }
    return new SegmentLists(listOf, starts, docs, lists);
  }

  /** The list {@code doc} is filed in: {@code lists} (the extra bucket) for none. */
  int listOf(int doc) {
    return listOf[doc];
  }

  /**
   * Adds to {@code counts} the documents of each list (and of the extra bucket, last) that are
   * visible ({@code live} null for all) and have a code ({@code present}).
   */
  void addVisible(Bits live, FixedBitSet present, long[] counts) {
    for (int l = 0; l <= lists; l++) {
      long n = 0;
      for (int i = starts[l]; i < starts[l + 1]; i++) {
        int doc = docs[i];
        n += (live == null || live.get(doc)) && present.get(doc) ? 1 : 0;
      }
      counts[l] += n;
    }
  }

  /**
   * Calls {@code visit} with every document from {@code from} (inclusive) to {@code to} (exclusive)
   * in the lists {@code probed} and the extra bucket, list after list, in document order within
   * each.
   */
  void forEach(boolean[] probed, int from, int to, DocVisitor visit) throws IOException {
    for (int l = 0; l <= lists; l++) {
      if (l < lists && !probed[l]) {
        continue;
      }
      int end = starts[l + 1];
      int i = java.util.Arrays.binarySearch(docs, starts[l], end, from);
      for (i = i >= 0 ? i : -i - 1; i < end && docs[i] < to; i++) {
        visit.visit(docs[i]);
      }
    }
  }

  /** What {@link #forEach} calls with each document. */
  interface DocVisitor {
    void visit(int doc) throws IOException;
  }
}
