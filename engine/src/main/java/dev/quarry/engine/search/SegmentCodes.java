package dev.quarry.engine.search;

import dev.quarry.engine.embed.CentredCodes;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * One segment's codes of one field laid out in one array, document after document, read once per
 * segment and kept while the segment is open: the first pass then reads each chunk's code from the
 * array instead of a doc-values call per chunk. A segment's codes never change (deletes do not
 * touch them), so the array is a function of the segment; which chunks a search reads from it is
 * the revision's business (its live documents and filters).
 *
 * <p>The array holds each code's bytes as little-endian 64-bit words (the planes), and a code's
 * trailing float, when its length is 4 more than a multiple of 8, in a second array: the estimate
 * then reads plain array elements, the same values as from the bytes.
 */
final class SegmentCodes {
  private static final Map<List<Object>, SegmentCodes> CACHE = new ConcurrentHashMap<>();

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOATS =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  /** Every document's code words at {@code doc * words}; zeros where a document has none. */
  final long[] codes;

  /** Every document's trailing float, or null when codes have none. */
  final float[] factors;

  /**
   * Every document's sum of code levels ({@link CentredCodes.Query#levelSum}), or null when not
   * asked for.
   */
  final long[] levelSums;

  /** The documents that have a code. */
  final FixedBitSet present;

  final int codeBytes;

  /** Words a code. */
  final int words;

  /** Planes a word the level sums were computed with; 0 for none. */
  final int bits;

  private SegmentCodes(
      long[] codes,
      float[] factors,
      long[] levelSums,
      FixedBitSet present,
      int codeBytes,
      int bits) {
    this.codes = codes;
    this.factors = factors;
    this.levelSums = levelSums;
    this.present = present;
    this.codeBytes = codeBytes;
    this.words = codeBytes / Long.BYTES;
    this.bits = bits;
  }

  /**
   * The codes of {@code field} in {@code leaf}, each {@code codeBytes} long (another length is an
   * error), with each code's level sum when {@code bits} (planes a word) is positive.
   */
  static SegmentCodes of(LeafReader leaf, String field, int codeBytes, int bits)
      throws IOException {
    IndexReader.CacheHelper helper = leaf.getCoreCacheHelper();
    if (helper == null) {
      return load(leaf, field, codeBytes, bits);
    }
    List<Object> key = List.of(helper.getKey(), field);
    SegmentCodes cached = CACHE.get(key);
    if (cached != null && cached.codeBytes == codeBytes && cached.bits == bits) {
      return cached;
    }
    SegmentCodes loaded = load(leaf, field, codeBytes, bits);
    if (CACHE.put(key, loaded) == null) {
      helper.addClosedListener(k -> CACHE.remove(List.of(k, field)));
    }
    return loaded;
  }

  private static SegmentCodes load(LeafReader leaf, String field, int codeBytes, int bits)
      throws IOException {
    int maxDoc = leaf.maxDoc();
    int words = codeBytes / Long.BYTES;
    boolean factor = codeBytes % Long.BYTES == Float.BYTES;
    if (!factor && codeBytes % Long.BYTES != 0) {
      throw new IllegalArgumentException("codes of " + codeBytes + " bytes");
    }
    long[] codes = new long[Math.multiplyExact(maxDoc, words)];
    float[] factors = factor ? new float[maxDoc] : null;
    long[] levelSums = bits > 0 ? new long[maxDoc] : null;
    FixedBitSet present = new FixedBitSet(Math.max(1, maxDoc));
    BinaryDocValues values = leaf.getBinaryDocValues(field);
    if (values != null) {
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        BytesRef b = values.binaryValue();
        if (b.length != codeBytes) {
          throw new IllegalStateException(
              "stored code has " + b.length + " bytes; the query reads " + codeBytes);
        }
        for (int w = 0; w < words; w++) {
          codes[d * words + w] = (long) LONGS.get(b.bytes, b.offset + w * Long.BYTES);
        }
        if (factor) {
          factors[d] = (float) FLOATS.get(b.bytes, b.offset + words * Long.BYTES);
        }
        if (levelSums != null) {
          levelSums[d] = CentredCodes.Query.levelSum(codes, d * words, words, bits);
        }
        present.set(d);
      }
    }
    return new SegmentCodes(codes, factors, levelSums, present, codeBytes, Math.max(0, bits));
  }
}
