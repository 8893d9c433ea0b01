package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.BytesRef;

/**
 * A segment's code field as {@link CodesFormat} keeps it, read where it lies: as doc values (each
 * document's code, for merges and checks) and, for the first pass, by <em>slot</em>: the codes are
 * kept list after list (each list's documents in document order, those filed in none last), and a
 * slot's code is its whole 64-bit words (its planes) and its remaining bytes (a centred code's
 * correction factor), read in bulk into a caller's arrays. An instance reads through slices of its
 * own and serves one thread.
 */
public final class StoredCodes extends BinaryDocValues {
  /**
   * Where a field lies in the data file: its counts, each list's first slot (then the bucket of
   * none's, then the slot count), and its four sections.
   */
  record Layout(
      int maxDoc,
      int count,
      int codeBytes,
      int[] starts,
      long docOfOffset,
      long slotOfOffset,
      long planesOffset,
      long tailsOffset) {}

  private final Layout layout;
  private final int words;
  private final int tailBytes;
  private final RandomAccessInput docOf;
  private final RandomAccessInput slotOf;
  private final IndexInput docs;
  private final IndexInput planes;
  private final IndexInput tails;
  private final BytesRef value;
  private int doc = -1;

  StoredCodes(Layout layout, IndexInput data) throws IOException {
    this.layout = layout;
    this.words = layout.codeBytes() / Long.BYTES;
    this.tailBytes = layout.codeBytes() % Long.BYTES;
    long count = layout.count();
    this.docOf = data.randomAccessSlice(layout.docOfOffset(), count * Integer.BYTES);
    this.slotOf =
        data.randomAccessSlice(layout.slotOfOffset(), (long) layout.maxDoc() * Integer.BYTES);
    this.docs = data.slice("documents", layout.docOfOffset(), count * Integer.BYTES);
    this.planes = data.slice("planes", layout.planesOffset(), count * words * Long.BYTES);
    this.tails = data.slice("tails", layout.tailsOffset(), count * tailBytes);
    this.value = new BytesRef(new byte[layout.codeBytes()]);
  }

  /** The codes kept. */
  public int count() {
    return layout.count();
  }

  /** A code's length in bytes. */
  public int codeBytes() {
    return layout.codeBytes();
  }

  /** A code's whole 64-bit words. */
  public int words() {
    return words;
  }

  /** One more than the highest list a code of this segment is filed in; 0 without lists. */
  public int lists() {
    return layout.starts().length - 2;
  }

  /**
   * The first slot of {@code list} ({@link #lists()} for the bucket of none, one more for the slot
   * count): a list's codes are in the slots from its start to the next's.
   */
  public int start(int list) {
    return layout.starts()[list];
  }

  /** The document whose code is in {@code slot}. */
  public int docOf(int slot) throws IOException {
    return docOf.readInt((long) slot * Integer.BYTES);
  }

  /** The slot of {@code doc}'s code, or -1 when it has none. */
  public int slotOf(int doc) throws IOException {
    return slotOf.readInt((long) doc * Integer.BYTES);
  }

  /**
   * Copies the documents of the {@code n} slots from {@code slot} on into {@code to} at {@code at}.
   */
  public void readDocs(int slot, int n, int[] to, int at) throws IOException {
    docs.seek((long) slot * Integer.BYTES);
    docs.readInts(to, at, n);
  }

  /** Copies the words of the {@code n} codes from {@code slot} on into {@code to} at {@code at}. */
  public void readWords(int slot, int n, long[] to, int at) throws IOException {
    planes.seek((long) slot * words * Long.BYTES);
    planes.readLongs(to, at, n * words);
  }

  /**
   * Copies the remaining bytes of the {@code n} codes from {@code slot} on, read as one float each
   * (codes whose length is 4 more than a multiple of 8), into {@code to} at {@code at}.
   */
  public void readFactors(int slot, int n, float[] to, int at) throws IOException {
    if (tailBytes != Float.BYTES) {
      throw new IllegalStateException("codes of " + layout.codeBytes() + " bytes have no factor");
    }
    tails.seek((long) slot * Float.BYTES);
    tails.readFloats(to, at, n);
  }

  @Override
  public BytesRef binaryValue() throws IOException {
    int slot = slotOf(doc);
    planes.seek((long) slot * words * Long.BYTES);
    planes.readBytes(value.bytes, 0, words * Long.BYTES);
    tails.seek((long) slot * tailBytes);
    tails.readBytes(value.bytes, words * Long.BYTES, tailBytes);
    return value;
  }

  @Override
  public boolean advanceExact(int target) throws IOException {
    doc = target;
    return slotOf(target) >= 0;
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    return advance(doc + 1);
  }

  @Override
  public int advance(int target) throws IOException {
    for (int d = target; d < layout.maxDoc(); d++) {
      if (slotOf(d) >= 0) {
        return doc = d;
      }
    }
    return doc = NO_MORE_DOCS;
  }

  @Override
  public long cost() {
    return layout.count();
  }
}
