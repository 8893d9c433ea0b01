package dev.quarry.extractors.pdf;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Recognises a glyph drawn a second time at (nearly) the same place, as producers draw "fake
 * bold" text, so it is extracted once. It answers exactly what PDFBox's own
 * {@code suppressDuplicateOverlappingText} answers (the same character already shown at an x in
 * {@code [x - t, x + t)} and a y in {@code [y - t, y + t)}, with {@code t} a third of the glyph's
 * width per character), but from a grid of cells in a hash map instead of PDFBox's per-character
 * {@code TreeMap<Float, TreeSet<Float>>}, whose range views cost about a fifth of all PDF
 * extraction time in a profile of the shared collection.
 *
 * <p>One per page ({@link #clear()} between pages); not thread safe.
 */
final class OverprintFilter {
  /** Grid cell side in PDF units: a third of a glyph's width is mostly well below it. */
  static final float CELL = 8f;
  /** Past this many cells along an axis (huge glyphs), the character's points are scanned instead. */
  static final int MAX_CELLS_PER_AXIS = 16;

  private final Map<String, Map<Long, Points>> byCharacter = new HashMap<>();

  /**
   * Whether {@code character} at ({@code x}, {@code y}) with half-window {@code tolerance} repeats
   * one already shown; when it does not, it is remembered as shown.
   */
  boolean isRepeat(String character, float x, float y, float tolerance) {
    Map<Long, Points> cells = byCharacter.computeIfAbsent(character, c -> new HashMap<>());
    float xLow = x - tolerance;
    float xHigh = x + tolerance;
    float yLow = y - tolerance;
    float yHigh = y + tolerance;
    if (xLow < xHigh && yLow < yHigh) { // else an empty window (or NaN): nothing repeats
      long cx0 = cell(xLow);
      long cx1 = cell(xHigh);
      long cy0 = cell(yLow);
      long cy1 = cell(yHigh);
      boolean finite = Float.isFinite(xLow) && Float.isFinite(xHigh) && Float.isFinite(yLow) && Float.isFinite(yHigh);
      if (!finite || cx1 - cx0 >= MAX_CELLS_PER_AXIS || cy1 - cy0 >= MAX_CELLS_PER_AXIS) {
        for (Points points : cells.values()) {
          if (points.anyWithin(xLow, xHigh, yLow, yHigh)) {
            return true;
          }
        }
      } else {
        for (long cx = cx0; cx <= cx1; cx++) {
          for (long cy = cy0; cy <= cy1; cy++) {
            Points points = cells.get(key(cx, cy));
            if (points != null && points.anyWithin(xLow, xHigh, yLow, yHigh)) {
              return true;
            }
          }
        }
      }
    }
    cells.computeIfAbsent(key(cell(x), cell(y)), k -> new Points()).add(x, y);
    return false;
  }

  /** Forgets every glyph: a new page starts. */
  void clear() {
    byCharacter.clear();
  }

  /** The cell of a coordinate; non-finite coordinates share one cell and never fall in a window. */
  private static long cell(float coordinate) {
    return Float.isFinite(coordinate) ? (long) Math.floor(coordinate / CELL) : Long.MIN_VALUE / 4;
  }

  private static long key(long cx, long cy) {
    return (cx << 32) ^ (cy & 0xFFFFFFFFL);
  }

  /** The points of one character in one cell, as parallel growable arrays. */
  private static final class Points {
    private float[] xs = new float[2];
    private float[] ys = new float[2];
    private int size;

    void add(float x, float y) {
      if (size == xs.length) {
        xs = Arrays.copyOf(xs, size * 2);
        ys = Arrays.copyOf(ys, size * 2);
      }
      xs[size] = x;
      ys[size] = y;
      size++;
    }

    /** Java's {@code subMap(low, high)} and {@code subSet(low, high)}: low included, high excluded. */
    boolean anyWithin(float xLow, float xHigh, float yLow, float yHigh) {
      for (int i = 0; i < size; i++) {
        if (xs[i] >= xLow && xs[i] < xHigh && ys[i] >= yLow && ys[i] < yHigh) {
          return true;
        }
      }
      return false;
    }
  }
}
