package dev.quarry.engine.search;

import java.io.IOException;
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
 */
final class SegmentCodes {
  private static final Map<List<Object>, SegmentCodes> CACHE = new ConcurrentHashMap<>();

  /** Every document's code at {@code doc * codeBytes}; zeros where a document has none. */
  final byte[] codes;

  /** The documents that have a code. */
  final FixedBitSet present;

  final int codeBytes;

  private SegmentCodes(byte[] codes, FixedBitSet present, int codeBytes) {
    this.codes = codes;
    this.present = present;
    this.codeBytes = codeBytes;
  }

  /**
   * The codes of {@code field} in {@code leaf}, each {@code codeBytes} long (another length is an
   * error).
   */
  static SegmentCodes of(LeafReader leaf, String field, int codeBytes) throws IOException {
    IndexReader.CacheHelper helper = leaf.getCoreCacheHelper();
    if (helper == null) {
      return load(leaf, field, codeBytes);
    }
    List<Object> key = List.of(helper.getKey(), field);
    SegmentCodes cached = CACHE.get(key);
    if (cached != null && cached.codeBytes == codeBytes) {
      return cached;
    }
    SegmentCodes loaded = load(leaf, field, codeBytes);
    if (CACHE.put(key, loaded) == null) {
      helper.addClosedListener(k -> CACHE.remove(List.of(k, field)));
    }
    return loaded;
  }

  private static SegmentCodes load(LeafReader leaf, String field, int codeBytes)
      throws IOException {
    int maxDoc = leaf.maxDoc();
    byte[] codes = new byte[Math.multiplyExact(maxDoc, codeBytes)];
    FixedBitSet present = new FixedBitSet(Math.max(1, maxDoc));
    BinaryDocValues values = leaf.getBinaryDocValues(field);
    if (values != null) {
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        BytesRef b = values.binaryValue();
        if (b.length != codeBytes) {
          throw new IllegalStateException(
              "stored code has " + b.length + " bytes; the query reads " + codeBytes);
        }
        System.arraycopy(b.bytes, b.offset, codes, d * codeBytes, codeBytes);
        present.set(d);
      }
    }
    return new SegmentCodes(codes, present, codeBytes);
  }
}
