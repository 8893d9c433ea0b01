package dev.quarry.engine.search;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.index.CodesFormat;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.ListSlots;
import dev.quarry.engine.index.StoredCodes;
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

/**
 * One segment's codes of one field as the first pass reads them: by <em>slot</em>. Codes are kept
 * list after list (each list's documents in document order; those filed in no list, and every code
 * of a corpus without an inverted file, in a last bucket), so a search that reads a few lists reads
 * a few runs of codes in order rather than codes scattered over the segment (a code the cache
 * misses costs more than its estimate). Documents without a code (source records) have no slot.
 *
 * <p>Where the codes are: segments written with {@link CodesFormat} keep them in that layout in a
 * file of the segment, read where they lie (memory-mapped) a block of slots at a time into a
 * search's own small buffer ({@link Reader}); only each code's level sum, when the estimate reads
 * one, is kept on the heap (4 bytes a code). Segments written before that format keep their codes
 * in Lucene's doc values, which are read once into arrays on the heap in the same layout. Either
 * way a segment's codes never change (deletes do not touch them), so what is kept is a function of
 * the segment; which chunks a search reads is the revision's business (its live documents and
 * filters).
 */
final class SegmentCodes {
  private static final Map<List<Object>, SegmentCodes> CACHE = new ConcurrentHashMap<>();

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  /** Slots a {@link Reader} copies at a time when it reads a run of them. */
  static final int BLOCK = 128;

  /**
   * Slots a reader copies when a search reads codes one document at a time ({@link
   * Reader#loadNear}).
   */
  private static final int NEAR = 16;

  final String field;
  final int codeBytes;

  /** Whole 64-bit words a code. */
  final int words;

  /** Whether each code ends with a float (its length is 4 more than a multiple of 8). */
  final boolean factor;

  /** Planes a word the level sums were computed with; 0 for none. */
  final int bits;

  /** The corpus's lists; 0 without an inverted file. */
  final int lists;

  /** Every slot's sum of code levels ({@link CentredCodes.Query#levelSum}), or null. */
  private final int[] levelSums;

  /** The codes in heap arrays, for a segment written in Lucene's format; null otherwise. */
  private final HeapCodes heap;

  private SegmentCodes(
      String field, int codeBytes, int bits, int lists, int[] levelSums, HeapCodes heap) {
    this.field = field;
    this.codeBytes = codeBytes;
    this.words = codeBytes / Long.BYTES;
    this.factor = codeBytes % Long.BYTES == Float.BYTES;
    this.bits = Math.max(0, bits);
    this.lists = lists;
    this.levelSums = levelSums;
    this.heap = heap;
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
    if (codeBytes % Long.BYTES != 0 && codeBytes % Long.BYTES != Float.BYTES) {
      throw new IllegalArgumentException("codes of " + codeBytes + " bytes");
    }
    BinaryDocValues values = leaf.getBinaryDocValues(field);
    if (values instanceof StoredCodes stored) {
      if (stored.count() > 0 && stored.codeBytes() != codeBytes) {
        throw new IllegalStateException(
            "stored code has " + stored.codeBytes() + " bytes; the query reads " + codeBytes);
      }
      if (lists > 0 && stored.lists() > lists) {
        throw new IllegalStateException(
            "a chunk of list " + (stored.lists() - 1) + " in a corpus of " + lists + " lists");
      }
      SegmentCodes codes = new SegmentCodes(field, codeBytes, bits, lists, null, null);
      return bits <= 0
          ? codes
          : codes.withLevelSums(codes.reader(leaf, new Buffer()), stored.count());
    }
    HeapCodes heap = HeapCodes.load(leaf, field, codeBytes, lists);
    SegmentCodes codes = new SegmentCodes(field, codeBytes, bits, lists, null, heap);
    return bits <= 0 ? codes : codes.withLevelSums(codes.reader(leaf, new Buffer()), heap.slots());
  }

  /** These codes with each slot's level sum, read through {@code reader} a block at a time. */
  private SegmentCodes withLevelSums(Reader reader, int slots) throws IOException {
    int[] sums = new int[slots];
    for (int s = 0; s < slots; s++) {
      reader.load(s, slots);
      sums[s] = (int) CentredCodes.Query.levelSum(reader.words, reader.at(s), words, bits);
    }
    return new SegmentCodes(field, codeBytes, bits, lists, sums, heap);
  }

  /** The level sum of the code in {@code slot}. */
  long levelSum(int slot) {
    return levelSums[slot];
  }

  /**
   * A reader of these codes for one thread, through {@code leaf} (the segment they came from),
   * copying blocks of codes into {@code buffer} when they are not on the heap.
   */
  Reader reader(LeafReader leaf, Buffer buffer) throws IOException {
    if (heap != null) {
      return new HeapReader(this, heap);
    }
    return new StoredReader(this, (StoredCodes) leaf.getBinaryDocValues(field), buffer);
  }

  /**
   * The arrays that readers of stored codes copy blocks into: one for each part of a search (one
   * thread), shared by its readers of every segment; a reader loads its block again once another
   * has used them.
   */
  static final class Buffer {
    private long[] words = new long[0];
    private float[] factors = new float[0];
    private int[] docs = new int[0];
    private Reader owner;
  }

  /**
   * Reads a segment's codes by slot for one thread: {@link #words} and {@link #factors} hold the
   * codes of the slots loaded last, slot {@code s} at {@link #at}{@code (s)}.
   */
  abstract static class Reader {
    final SegmentCodes codes;
    long[] words;
    float[] factors;

    /** The documents of the slots loaded, slot {@code s}'s at {@code s - first}. */
    int[] docs;

    /** The first slot loaded. */
    int first;

    /** One past the last slot loaded. */
    int end;

    /** Where the loaded slots are, for codes not on the heap; null for codes on the heap. */
    final Buffer buffer;

    Reader(SegmentCodes codes, Buffer buffer) {
      this.codes = codes;
      this.buffer = buffer;
    }

    /** Whether {@code slot} is loaded. */
    final boolean holds(int slot) {
      return slot >= first && slot < end && (buffer == null || buffer.owner == this);
    }

    /** Where {@code slot}'s code starts in {@link #words} (and is in {@link #factors}). */
    final int at(int slot) {
      assert slot >= first && slot < end : "slot " + slot + " is not loaded";
      return (slot - first) * codes.words;
    }

    /** The index of {@code slot}'s factor in {@link #factors}. */
    final int factorAt(int slot) {
      return slot - first;
    }

    /** Loads {@code slot}'s code, and the slots after it up to a block and {@code limit}. */
    abstract void load(int slot, int limit) throws IOException;

    /**
     * Loads {@code slot}'s code for a search that reads codes one document at a time (a filter's
     * matches, in document order), and the next few, which a broad filter reads next, at little
     * cost to a narrow one.
     */
    final void loadNear(int slot) throws IOException {
      load(slot, Math.min(slot + NEAR, end(lists())));
    }

    /**
     * The lists the slots are kept by: the corpus's, or a segment's own when the corpus reads none
     * (a segment written with lists, read as one bucket in each list's order).
     */
    abstract int lists();

    /** The first slot of {@code list} ({@link #lists()} for the bucket of none). */
    abstract int start(int list);

    /** One past the last slot of {@code list}. */
    final int end(int list) {
      return start(list + 1);
    }

    abstract int docOf(int slot) throws IOException;

    /** The slot of {@code doc}'s code, or -1 when it has none. */
    abstract int slotOf(int doc) throws IOException;

    /** The list {@code doc}, which has a code, is filed in ({@link #lists()} for none). */
    final int listOf(int doc) throws IOException {
      int slot = slotOf(doc);
      assert slot >= 0 : "document " + doc + " has no code";
      // The last list starting at or before the slot: an empty list starts where the next does,
      // so the last one is the list that holds it.
      int lo = 0;
      int hi = lists();
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (start(mid) <= slot) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return lo;
    }

    /** The visible documents ({@code live} null for all) of {@code list}. */
    final long visible(int list, Bits live) throws IOException {
      if (live == null) {
        return end(list) - start(list);
      }
      long n = 0;
      for (int s = start(list), end = end(list); s < end; s++) {
        n += live.get(docOf(s)) ? 1 : 0;
      }
      return n;
    }

    /**
     * Calls {@code visit} with runs of the slots of every document from {@code from} (inclusive) to
     * {@code to} (exclusive) in the lists {@code read} (in that order; null for every list in its
     * own order) and then the bucket of none, in slot order within each list (document order): runs
     * of at most {@link #BLOCK} slots, each loaded when visited; a slot's document is {@code
     * docs[slot - first]}.
     */
    final void forEachRun(int[] read, int from, int to, RunVisitor visit) throws IOException {
      int lists = lists();
      int runs = read == null ? lists : read.length;
      for (int i = 0; i <= runs; i++) {
        int l = i == runs ? lists : read == null ? i : read[i];
        int listEnd = end(l);
        // The list's first document at or after from: documents ascend within a list.
        int lo = start(l);
        int hi = listEnd;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (docOf(mid) < from) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        for (int s = lo; s < listEnd; ) {
          if (!holds(s)) {
            load(s, listEnd);
          }
          int loadedEnd = Math.min(Math.min(listEnd, end), s + BLOCK);
          int stop = s;
          while (stop < loadedEnd && docs[stop - first] < to) {
            stop++;
          }
          if (stop > s) {
            visit.visit(s, stop);
          }
          if (stop < loadedEnd) {
            break;
          }
          s = loadedEnd;
        }
      }
    }
  }

  /** What {@link Reader#forEachRun} calls with each run of loaded slots. */
  interface RunVisitor {
    /** Visits the slots from {@code first} (inclusive) to {@code end} (exclusive). */
    void visit(int first, int end) throws IOException;
  }

  /** Reads codes kept in {@link CodesFormat}'s file, a block of slots at a time. */
  private static final class StoredReader extends Reader {
    private final StoredCodes stored;

    StoredReader(SegmentCodes codes, StoredCodes stored, Buffer buffer) {
      super(codes, buffer);
      this.stored = stored;
    }

    @Override
    void load(int slot, int limit) throws IOException {
      if (holds(slot)) {
        return;
      }
      int n = Math.min(BLOCK, limit - slot);
      assert n > 0 : "slot " + slot + " past " + limit;
      if (buffer.words.length < BLOCK * codes.words + CentredCodes.Query.SLACK_WORDS) {
        buffer.words = new long[BLOCK * codes.words + CentredCodes.Query.SLACK_WORDS];
        buffer.factors = new float[BLOCK];
        buffer.docs = new int[BLOCK];
      }
      buffer.owner = this;
      words = buffer.words;
      factors = codes.factor ? buffer.factors : null;
      docs = buffer.docs;
      stored.readWords(slot, n, words, 0);
      if (factors != null) {
        stored.readFactors(slot, n, factors, 0);
      }
      stored.readDocs(slot, n, docs, 0);
      first = slot;
      end = slot + n;
    }

    @Override
    int lists() {
      return codes.lists == 0 ? stored.lists() : codes.lists;
    }

    @Override
    int start(int list) {
      // A segment's own lists are at most the corpus's; those past its highest are empty.
      int own = stored.lists();
      if (list < own) {
        return stored.start(list);
      }
      return list <= lists() ? stored.start(own) : stored.start(own + 1);
    }

    @Override
    int docOf(int slot) throws IOException {
      return stored.docOf(slot);
    }

    @Override
    int slotOf(int doc) throws IOException {
      return stored.slotOf(doc);
    }
  }

  /** Reads codes held in heap arrays (segments in Lucene's format): every slot is loaded. */
  private static final class HeapReader extends Reader {
    private final HeapCodes heap;

    HeapReader(SegmentCodes codes, HeapCodes heap) {
      super(codes, null);
      this.heap = heap;
      this.words = heap.codes;
      this.factors = heap.factors;
      this.docs = heap.docOf;
      this.end = heap.slots();
    }

    @Override
    void load(int slot, int limit) {}

    @Override
    int lists() {
      return codes.lists;
    }

    @Override
    int start(int list) {
      return heap.starts[list];
    }

    @Override
    int docOf(int slot) {
      return heap.docOf[slot];
    }

    @Override
    int slotOf(int doc) {
      return heap.slotOf[doc];
    }
  }

  /**
   * A segment's codes read from Lucene's doc values into heap arrays, in the slot layout.
   *
   * @param codes every slot's code words at {@code slot * words}
   * @param factors every slot's trailing float, or null when codes have none
   * @param starts the first slot of each list, then of the bucket of none, then the slot count
   * @param docOf each slot's document
   * @param slotOf each document's slot, -1 without a code
   */
  private record HeapCodes(long[] codes, float[] factors, int[] starts, int[] docOf, int[] slotOf) {
    int slots() {
      return docOf.length;
    }

    static HeapCodes load(LeafReader leaf, String field, int codeBytes, int lists)
        throws IOException {
      int maxDoc = leaf.maxDoc();
      int words = codeBytes / Long.BYTES;
      boolean factor = codeBytes % Long.BYTES == Float.BYTES;
      // Each coded document's list (the bucket of none, lists, when it has none; -1 without a
      // code), then where each one's code goes, then the codes read once straight into their slots.
      int[] listOf = new int[maxDoc];
      Arrays.fill(listOf, -1);
      BinaryDocValues documents = leaf.getBinaryDocValues(field);
      if (documents != null) {
        for (int d = documents.nextDoc();
            d != DocIdSetIterator.NO_MORE_DOCS;
            d = documents.nextDoc()) {
          listOf[d] = lists;
        }
      }
      NumericDocValues filed = lists == 0 ? null : leaf.getNumericDocValues(Fields.VECTOR_LIST);
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
      ListSlots slots = ListSlots.of(listOf, lists);
      int[] docOf = slots.valueOf();
      int[] slotOf = listOf; // reused: each document's list becomes its slot
      for (int slot = 0; slot < docOf.length; slot++) {
        slotOf[docOf[slot]] = slot;
      }
      long[] codes =
          new long
              [Math.addExact(
                  Math.multiplyExact(docOf.length, words), CentredCodes.Query.SLACK_WORDS)];
      float[] factors = factor ? new float[docOf.length] : null;
      BinaryDocValues values = leaf.getBinaryDocValues(field);
      if (values != null) {
        for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
          BytesRef b = values.binaryValue();
          if (b.length != codeBytes) {
            throw new IllegalStateException(
                "stored code has " + b.length + " bytes; the query reads " + codeBytes);
          }
          int s = slotOf[d];
          for (int w = 0; w < words; w++) {
            codes[s * words + w] = (long) LONGS.get(b.bytes, b.offset + w * Long.BYTES);
          }
          if (factor) {
            factors[s] = (float) FLOATS.get(b.bytes, b.offset + words * Long.BYTES);
          }
        }
      }
      return new HeapCodes(codes, factors, slots.starts(), docOf, slotOf);
    }
  }
}
