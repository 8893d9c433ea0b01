package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;

/** A segment's list field as {@link CodesFormat} keeps it: each valued document and its list. */
final class StoredLists extends NumericDocValues {
  /** Where the field lies in the data file: its valued documents' count and two sections. */
  record Layout(int count, long docsOffset, long listsOffset) {}

  private final Layout layout;
  private final RandomAccessInput docs;
  private final RandomAccessInput lists;

  /** The place of the current document among the valued ones. */
  private int at = -1;

  private int doc = -1;

  StoredLists(Layout layout, IndexInput data) throws IOException {
    this.layout = layout;
    this.docs = data.randomAccessSlice(layout.docsOffset(), (long) layout.count() * Integer.BYTES);
    this.lists =
        data.randomAccessSlice(layout.listsOffset(), (long) layout.count() * Integer.BYTES);
  }

  @Override
  public long longValue() throws IOException {
    return lists.readInt((long) at * Integer.BYTES);
  }

  @Override
  public boolean advanceExact(int target) throws IOException {
    boolean valued = advance(target) == target;
    doc = target; // the contract: the target is current afterwards, valued or not
    return valued;
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
    // The first valued document at or after the target, searched from the current one.
    int lo = Math.max(at, 0);
    int hi = layout.count();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (docs.readInt((long) mid * Integer.BYTES) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    at = lo;
    doc = lo < layout.count() ? docs.readInt((long) lo * Integer.BYTES) : NO_MORE_DOCS;
    return doc;
  }

  @Override
  public long cost() {
    return layout.count();
  }
}
