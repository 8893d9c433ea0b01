package dev.quarry.engine.search;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * One segment's codes of one field laid out in one array, read once per segment and kept while the
 * segment is open: the first pass then reads each chunk's code from the array instead of a
 * doc-values call per chunk. A segment's codes never change (deletes do not touch them), so the
 * array is a function of the segment; which chunks a search reads from it is the revision's
 * business (its live documents and filters).
 *
 * <p>The array holds each code's bytes as little-endian 64-bit words (the planes), and a code's
 * trailing float, when its length is 4 more than a multiple of 8, in a second array: the estimate
 * then reads plain array elements, the same values as from the bytes. Codes are kept by
 * <em>slot</em>: without lists a document's slot is its own number; in a corpus with an inverted
 * file ({@link Fields#VECTOR_LIST}) the codes are kept list after list, each list's documents in
 * document order, so a search that reads a few lists reads a few runs of the array in order rather
 * than codes scattered over it (a code the cache misses costs more than its estimate). Documents
 * with a code and no list (none is written so) come last, in a bucket every search reads; documents
 * without a code (source records) have no slot.
 */
final class SegmentCodes {
  private static final Map<List<Object>, SegmentCodes> CACHE = new ConcurrentHashMap<>();

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  /** Every slot's code words at {@code slot * words}; zeros where a document has none. */
  final long[] codes;

  /** Every slot's trailing float, or null when codes have none. */
  final float[] factors;

  /**
   * Every slot's sum of code levels ({@link CentredCodes.Query#levelSum}), or null when not asked
   * for.
   */
  final long[] levelSums;

  /** The documents that have a code. */
  final FixedBitSet present;

  final int codeBytes;

  /** Words a code. */
  final int words;

  /** Planes a word the level sums were computed with; 0 for none. */
  final int bits;

  /** The lists the codes are kept by; 0 when a document's slot is its number. */
  final int lists;

  /** With lists: the documents of list {@code l} are in slots {@code starts[l]} to the next's. */
  private final int[] starts;

  /** With lists: each slot's document. */
  private final int[] docOf;

  /** With lists: each document's slot, or -1 without a code. */
  private final int[] slotOf;

  private SegmentCodes(
      long[] codes,
      float[] factors,
      long[] levelSums,
      FixedBitSet present,
      int codeBytes,
      int bits,
      int lists,
      int[] starts,
      int[] docOf,
      int[] slotOf) {
    this.codes = codes;
    this.factors = factors;
    this.levelSums = levelSums;
    this.present = present;
    this.codeBytes = codeBytes;
    this.words = codeBytes / Long.BYTES;
    this.bits = bits;
    this.lists = lists;
    this.starts = starts;
    this.docOf = docOf;
    this.slotOf = slotOf;
  }

  /**
   * The codes of {@code field} in {@code leaf}, each {@code codeBytes} long (another length is an
   * error), with each code's level sum when {@code bits} (planes a word) is positive, kept by the
   * corpus's {@code lists} lists when that is positive.
   */
  static SegmentCodes of(LeafReader leaf, String field, int codeBytes, int bits, int lists)
      throws IOException {
    IndexReader.CacheHelper helper = leaf.getCoreCacheHelper();
    if (helper == null) {
      return load(leaf, field, codeBytes, bits, lists);
    }
    List<Object> key = List.of(helper.getKey(), field);
    SegmentCodes cached = CACHE.get(key);
    if (cached != null
        && cached.codeBytes == codeBytes
        && cached.bits == Math.max(0, bits)
        && cached.lists == lists) {
      return cached;
    }
    SegmentCodes loaded = load(leaf, field, codeBytes, bits, lists);
    if (CACHE.put(key, loaded) == null) {
      helper.addClosedListener(k -> CACHE.remove(List.of(k, field)));
    }
    return loaded;
  }

  private static SegmentCodes load(
      LeafReader leaf, String field, int codeBytes, int bits, int lists) throws IOException {
    int maxDoc = leaf.maxDoc();
    int words = codeBytes / Long.BYTES;
    boolean factor = codeBytes % Long.BYTES == Float.BYTES;
    if (!factor && codeBytes % Long.BYTES != 0) {
      throw new IllegalArgumentException("codes of " + codeBytes + " bytes");
    }
    // Which documents have a code (the iterator's documents only, no value read), then where each
    // one's code goes, then the codes read once straight into their slots.
    FixedBitSet present = new FixedBitSet(Math.max(1, maxDoc));
    BinaryDocValues documents = leaf.getBinaryDocValues(field);
    if (documents != null) {
      for (int d = documents.nextDoc();
          d != DocIdSetIterator.NO_MORE_DOCS;
          d = documents.nextDoc()) {
        present.set(d);
      }
    }
    Slots layout = lists == 0 ? null : Slots.byList(leaf, present, lists);
    int slots = layout == null ? maxDoc : layout.docOf.length;
    long[] codes = new long[Math.multiplyExact(slots, words)];
    float[] factors = factor ? new float[slots] : null;
    long[] levelSums = bits > 0 ? new long[slots] : null;
    BinaryDocValues values = leaf.getBinaryDocValues(field);
    if (values != null) {
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        BytesRef b = values.binaryValue();
        if (b.length != codeBytes) {
          throw new IllegalStateException(
              "stored code has " + b.length + " bytes; the query reads " + codeBytes);
        }
        int s = layout == null ? d : layout.slotOf[d];
        for (int w = 0; w < words; w++) {
          codes[s * words + w] = (long) LONGS.get(b.bytes, b.offset + w * Long.BYTES);
        }
        if (factor) {
          factors[s] = (float) FLOATS.get(b.bytes, b.offset + words * Long.BYTES);
        }
        if (levelSums != null) {
          levelSums[s] = CentredCodes.Query.levelSum(codes, s * words, words, bits);
        }
      }
    }
    return new SegmentCodes(
        codes,
        factors,
        levelSums,
        present,
        codeBytes,
        Math.max(0, bits),
        lists,
        layout == null ? null : layout.starts,
        layout == null ? null : layout.docOf,
        layout == null ? null : layout.slotOf);
  }

  /**
   * Where each coded document's code goes when codes are kept by list: the documents sorted by list
   * (a counting sort), in document order within a list, those filed in none last.
   *
   * @param starts the first slot of each list, then of the bucket of none, then the slot count
   * @param docOf each slot's document
   * @param slotOf each document's slot, -1 without a code
   */
  private record Slots(int[] starts, int[] docOf, int[] slotOf) {
    static Slots byList(LeafReader leaf, FixedBitSet present, int lists) throws IOException {
      int maxDoc = leaf.maxDoc();
      int[] listOf = new int[maxDoc];
      for (int d = 0; d < maxDoc; d++) {
        listOf[d] = present.get(d) ? lists : -1;
      }
      NumericDocValues filed = leaf.getNumericDocValues(Fields.VECTOR_LIST);
      if (filed != null) {
        for (int d = filed.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = filed.nextDoc()) {
          long list = filed.longValue();
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
      int[] docOf = new int[starts[lists + 1]];
      int[] slotOf = listOf; // reused: each document's list becomes its slot
      for (int d = 0; d < maxDoc; d++) {
        if (listOf[d] >= 0) {
          int slot = next[listOf[d]]++;
          docOf[slot] = d;
          slotOf[d] = slot;
        }
      }
      return new Slots(starts, docOf, slotOf);
    }
  }

  /** The slot of {@code doc}, which has a code. */
  int slotOf(int doc) {
    return slotOf == null ? doc : slotOf[doc];
  }

  /** With lists: the list {@code doc}, which has a code, is filed in ({@link #lists} for none). */
  int listOf(int doc) {
    int slot = slotOf[doc];
    assert slot >= 0 : "document " + doc + " has no code";
    // The last list starting at or before the slot: an empty list starts where the next does, so
    // the last one is the list that holds it.
    int lo = 0;
    int hi = lists;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= slot) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** With lists: the visible documents ({@code live} null for all) of {@code list}. */
  long visible(int list, Bits live) {
    if (live == null) {
      return starts[list + 1] - starts[list];
    }
    long n = 0;
    for (int s = starts[list]; s < starts[list + 1]; s++) {
      n += live.get(docOf[s]) ? 1 : 0;
    }
    return n;
  }

  /**
   * With lists: calls {@code visit} with the slot and document of every document from {@code from}
   * (inclusive) to {@code to} (exclusive) in the lists {@code probed} and the bucket of none, list
   * after list, in slot order (document order within each list).
   */
  void forEach(boolean[] probed, int from, int to, SlotVisitor visit) throws IOException {
    for (int l = 0; l <= lists; l++) {
      if (l < lists && !probed[l]) {
        continue;
      }
      int end = starts[l + 1];
      int s = Arrays.binarySearch(docOf, starts[l], end, from);
      for (s = s >= 0 ? s : -s - 1; s < end && docOf[s] < to; s++) {
        visit.visit(s, docOf[s]);
      }
    }
  }

  /** What {@link #forEach} calls with each slot and its document. */
  interface SlotVisitor {
    void visit(int slot, int doc) throws IOException;
  }
}
