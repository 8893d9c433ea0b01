package dev.quarry.engine.search;

import java.util.function.LongConsumer;
import org.apache.lucene.util.IntroSelector;

/**
 * The chunks a part of the coded first pass keeps: every entry (estimate, document) whose estimate
 * is at least the {@code candidates}-th best offered, ties with it included, and nothing below it
 * once they are given ({@link #addTo}), the candidates' choice ({@code DenseScorer#chosen}) reading
 * nothing else. That set is a function of the entries offered, whatever their order.
 *
 * <p>Entries are appended to a buffer twice as long as the candidates; when it fills, a selection
 * (Lucene's {@link IntroSelector}) finds the {@code candidates}-th best and drops what lies below
 * it, and its estimate becomes the bound under which later entries are refused (as Tantivy's {@code
 * TopNComputer} does). Each entry costs an append, and the selection a constant amortized over the
 * many it drops, where a heap costs each entry that beats its least a walk down the heap.
 */
final class BestEstimates {
  private final int candidates;

  /** Entries packed ({@link #pack}), the first {@link #size} of them kept. */
  private long[] buffer;

  private int size;

  /**
   * The least estimate kept once a selection ran; every estimate below it is refused, since the
   * buffer then held {@code candidates} entries at least as good.
   */
  private float least = Float.NEGATIVE_INFINITY;

  BestEstimates(int candidates) {
    if (candidates <= 0) {
      throw new IllegalArgumentException("candidates " + candidates);
    }
    this.candidates = candidates;
    this.buffer = new long[2 * candidates];
  }

  /** Offers the document {@code doc} at {@code estimate}. */
  void offer(float estimate, int doc) {
    if (estimate < least) {
      return;
    }
    buffer[size++] = pack(estimate, doc);
    if (size == buffer.length) {
      cut();
    }
  }

  /** Gives {@code out} every kept entry, packed ({@link #pack}): as few as a selection keeps. */
  void addTo(LongConsumer out) {
    if (size > candidates) {
      cut();
    }
    for (int i = 0; i < size; i++) {
      out.accept(buffer[i]);
    }
  }

  /**
   * Keeps only the entries at least as good as the {@code candidates}-th best, ties with it
   * included, and refuses every worse one from now on.
   */
  private void cut() {
    int k = size - candidates; // packed entries are distinct: the one of rank k is unique
    new PackedSelector(buffer).select(0, size, k);
    float bound = estimateOf(buffer[k]);
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (estimateOf(buffer[i]) >= bound) {
        buffer[kept++] = buffer[i];
      }
    }
    assert kept >= candidates : kept + " kept of " + candidates;
    size = kept;
    least = bound;
    if (size > buffer.length - candidates) {
      // Ties with the bound fill the buffer: room for as many again before the next cut.
      long[] wider = new long[2 * size];
      System.arraycopy(buffer, 0, wider, 0, size);
      buffer = wider;
    }
  }

  /** The doc of a packed entry. */
  static int docOf(long packed) {
    return (int) packed;
  }

  /**
   * Packs so that a smaller long is a smaller estimate (the doc only orders equal estimates, so
   * that entries are distinct).
   */
  static long pack(float estimate, int doc) {
    int bits = Float.floatToIntBits(estimate);
    int key = bits >= 0 ? bits : bits ^ 0x7fffffff;
    return ((long) key << 32) | (doc & 0xffffffffL);
  }

  /** The estimate of a packed entry. */
  static float estimateOf(long packed) {
    int key = (int) (packed >> 32);
    return Float.intBitsToFloat(key >= 0 ? key : key ^ 0x7fffffff);
  }

  /** Selects among packed entries, smallest first. */
  private static final class PackedSelector extends IntroSelector {
    private final long[] entries;
    private long pivot;

    PackedSelector(long[] entries) {
      this.entries = entries;
    }

    @Override
    protected void setPivot(int i) {
      pivot = entries[i];
    }

    @Override
    protected int comparePivot(int j) {
      return Long.compare(pivot, entries[j]);
    }

    @Override
    protected void swap(int i, int j) {
      long t = entries[i];
      entries[i] = entries[j];
      entries[j] = t;
    }
  }
}
