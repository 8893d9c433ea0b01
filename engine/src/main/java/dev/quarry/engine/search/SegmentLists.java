package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.Arrays;
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
 * One segment's inverted file for the coded first pass: the documents with a code in each list, in
 * document order, read once from {@link Fields#VECTOR_LIST} and kept while the segment is open, as
 * {@link SegmentCodes} keeps its codes. A document with a code and no list (none is written so in a
 * corpus with lists) is in the extra last bucket, which every search reads, so such a document is
 * never lost to the first pass, only read without need; a document without a code (a source record)
 * is in no bucket.
 */
final class SegmentLists {
  private static final Map<List<Object>, SegmentLists> CACHE = new ConcurrentHashMap<>();

  /** Every document's list: {@code lists} (the extra bucket) for none, -1 without a code. */
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

  /**
   * The inverted file of {@code leaf}, for a corpus of {@code lists} lists whose codes, of the
   * field {@code field}, are {@code codes}.
   */
  static SegmentLists of(LeafReader leaf, int lists, String field, SegmentCodes codes)
      throws IOException {
    IndexReader.CacheHelper helper = leaf.getCoreCacheHelper();
    if (helper == null) {
      return load(leaf, lists, codes.present);
    }
    List<Object> key = List.of(helper.getKey(), lists, field);
    SegmentLists cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    SegmentLists loaded = load(leaf, lists, codes.present);
    if (CACHE.put(key, loaded) == null) {
      helper.addClosedListener(k -> CACHE.remove(List.of(k, lists, field)));
    }
    return loaded;
  }

  private static SegmentLists load(LeafReader leaf, int lists, FixedBitSet present)
      throws IOException {
    int maxDoc = leaf.maxDoc();
    int[] listOf = new int[maxDoc];
    for (int d = 0; d < maxDoc; d++) {
      listOf[d] = present.get(d) ? lists : -1;
    }
    NumericDocValues values = leaf.getNumericDocValues(Fields.VECTOR_LIST);
    if (values != null) {
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        long list = values.longValue();
        if (list < 0 || list >= lists) {
          throw new IllegalStateException(
              "a chunk of list " + list + " in a corpus of " + lists + " lists");
        }
        if (listOf[d] >= 0) { // a list is written with a code, never alone
          listOf[d] = (int) list;
        }
      }
    }
    int[] starts = new int[lists + 2];
    for (int l : listOf) {
      if (l >= 0) {
        starts[l + 1]++;
      }
    }
    for (int l = 0; l <= lists; l++) {
      starts[l + 1] += starts[l];
    }
    int[] next = Arrays.copyOf(starts, lists + 1);
    int[] docs = new int[starts[lists + 1]];
    for (int d = 0; d < maxDoc; d++) {
      if (listOf[d] >= 0) {
        docs[next[listOf[d]]++] = d;
      }
    }
    return new SegmentLists(listOf, starts, docs, lists);
  }

  /** The list {@code doc}, which has a code, is filed in: {@code lists} for none. */
  int listOf(int doc) {
    assert listOf[doc] >= 0 : "document " + doc + " has no code";
    return listOf[doc];
  }

  /**
   * The visible documents ({@code live} null for all) of list {@code list} ({@code lists}: the
   * extra bucket).
   */
  long visible(int list, Bits live) {
    if (live == null) {
      return starts[list + 1] - starts[list];
    }
    long n = 0;
    for (int i = starts[list]; i < starts[list + 1]; i++) {
      n += live.get(docs[i]) ? 1 : 0;
    }
    return n;
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
      int i = Arrays.binarySearch(docs, starts[l], end, from);
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
