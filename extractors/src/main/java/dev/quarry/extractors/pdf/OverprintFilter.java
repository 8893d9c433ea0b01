package dev.quarry.extractors.pdf;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Recognises a glyph drawn a second time at (nearly) the same place, as producers draw "fake bold"
 * text, so it is extracted once. It answers exactly what PDFBox's own {@code
 * suppressDuplicateOverlappingText} answers (the same character already shown at an x in {@code [x
 * - t, x + t)} and a y in {@code [y - t, y + t)}, with {@code t} a third of the glyph's width per
 * character), but from a grid of cells instead of PDFBox's per-character {@code TreeMap<Float,
 * TreeSet<Float>>}, whose range views cost about a fifth of all PDF extraction time in a profile of
 * the shared collection.
 *
 * <p>The grid is one open-addressing table keyed by (character, cell x, cell y) over flat arrays of
 * points, because this runs once per glyph: a map of maps of boxed cell keys, its first form, still
 * cost a tenth of PDF extraction time in a profile, mostly boxing, hashing and resizing.
 *
 * <p>One per page ({@link #clear()} between pages); not thread safe.
 */
final class OverprintFilter {
  /** Grid cell side in PDF units: a third of a glyph's width is mostly well below it. */
  static final float CELL = 8f;

  /**
   * Past this many cells along an axis (huge glyphs), the character's points are scanned instead.
   */
  static final int MAX_CELLS_PER_AXIS = 16;

  /** The cell of every non-finite coordinate; no finite window reaches it. */
  private static final long NON_FINITE_CELL = Long.MIN_VALUE / 4;

  private static final int NONE = -1;

  /** Each character shown on this page, by its number here (0, 1, ...). */
  private final Map<String, Integer> characterNumbers = new HashMap<>();

  /**
   * Per character number, its last point, the head of its chain through {@link #nextOfCharacter}.
   */
  private int[] lastOfCharacter = new int[64];

  // The points shown on this page, as parallel arrays; each is in the chain of its cell and of its
  // character.
  private float[] xs = new float[256];
  private float[] ys = new float[256];
  private int[] nextInCell = new int[256];
  private int[] nextOfCharacter = new int[256];
  private int points;

  // The cell table: slot i holds (slotCharacter, slotCx, slotCy) and the last point in that cell,
  // and is in use on this page when slotPage[i] == page, so a new page needs no wiping.
  private int[] slotCharacter = new int[1024];
  private long[] slotCx = new long[1024];
  private long[] slotCy = new long[1024];
  private int[] slotLast = new int[1024];
  private int[] slotPage = new int[1024];
  private int usedSlots;
  private int page = 1;

  /**
   * Whether {@code character} at ({@code x}, {@code y}) with half-window {@code tolerance} repeats
   * one already shown; when it does not, it is remembered as shown.
   */
  boolean isRepeat(String character, float x, float y, float tolerance) {
    int number = numberOf(character);
    float xLow = x - tolerance;
    float xHigh = x + tolerance;
    float yLow = y - tolerance;
    float yHigh = y + tolerance;
    if (xLow < xHigh && yLow < yHigh) { // else an empty window (or NaN): nothing repeats
      long cx0 = cell(xLow);
      long cx1 = cell(xHigh);
      long cy0 = cell(yLow);
      long cy1 = cell(yHigh);
      boolean finite =
          Float.isFinite(xLow)
              && Float.isFinite(xHigh)
              && Float.isFinite(yLow)
              && Float.isFinite(yHigh);
      if (!finite || cx1 - cx0 >= MAX_CELLS_PER_AXIS || cy1 - cy0 >= MAX_CELLS_PER_AXIS) {
        for (int p = lastOfCharacter[number]; p != NONE; p = nextOfCharacter[p]) {
          if (within(p, xLow, xHigh, yLow, yHigh)) {
            return true;
          }
        }
      } else {
        for (long cx = cx0; cx <= cx1; cx++) {
          for (long cy = cy0; cy <= cy1; cy++) {
            int slot = find(number, cx, cy);
            if (slot != NONE) {
              for (int p = slotLast[slot]; p != NONE; p = nextInCell[p]) {
                if (within(p, xLow, xHigh, yLow, yHigh)) {
                  return true;
                }
              }
            }
          }
        }
      }
    }
    add(number, x, y);
    return false;
  }

  /** Forgets every glyph: a new page starts. */
  void clear() {
    characterNumbers.clear();
    points = 0;
    usedSlots = 0;
    page++;
    if (page == 0) { // wrapped after four billion pages: stamps of old pages could look current
      Arrays.fill(slotPage, 0);
      page = 1;
    }
  }

  /**
   * Java's {@code subMap(low, high)} and {@code subSet(low, high)}: low included, high excluded.
   */
  private boolean within(int p, float xLow, float xHigh, float yLow, float yHigh) {
    return xs[p] >= xLow && xs[p] < xHigh && ys[p] >= yLow && ys[p] < yHigh;
  }

  private int numberOf(String character) {
    Integer known = characterNumbers.get(character);
    if (known != null) {
      return known;
    }
    int number = characterNumbers.size();
    characterNumbers.put(character, number);
    if (number == lastOfCharacter.length) {
      lastOfCharacter = Arrays.copyOf(lastOfCharacter, number * 2);
    }
    lastOfCharacter[number] = NONE;
    return number;
  }

  private void add(int number, float x, float y) {
    if (points == xs.length) {
      int capacity = points * 2;
      xs = Arrays.copyOf(xs, capacity);
      ys = Arrays.copyOf(ys, capacity);
      nextInCell = Arrays.copyOf(nextInCell, capacity);
      nextOfCharacter = Arrays.copyOf(nextOfCharacter, capacity);
    }
    int p = points++;
    xs[p] = x;
    ys[p] = y;
    nextOfCharacter[p] = lastOfCharacter[number];
    lastOfCharacter[number] = p;
    long cx = cell(x);
    long cy = cell(y);
    int slot = find(number, cx, cy);
    if (slot == NONE) {
      if (2 * (usedSlots + 1) > slotPage.length) {
        growTable();
      }
      slot = freeSlot(number, cx, cy);
      slotCharacter[slot] = number;
      slotCx[slot] = cx;
      slotCy[slot] = cy;
      slotLast[slot] = NONE;
      slotPage[slot] = page;
      usedSlots++;
    }
    nextInCell[p] = slotLast[slot];
    slotLast[slot] = p;
  }

  /** The slot of the cell, or {@link #NONE} when no point of the character is in it. */
  private int find(int number, long cx, long cy) {
    int mask = slotPage.length - 1;
    for (int slot = hash(number, cx, cy) & mask; slotPage[slot] == page; slot = (slot + 1) & mask) {
      if (slotCharacter[slot] == number && slotCx[slot] == cx && slotCy[slot] == cy) {
        return slot;
      }
    }
    return NONE;
  }

  /** The first slot not in use on this page along the cell's probe sequence. */
  private int freeSlot(int number, long cx, long cy) {
    int mask = slotPage.length - 1;
    int slot = hash(number, cx, cy) & mask;
    while (slotPage[slot] == page) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Doubles the cell table and puts this page's cells back in. */
  private void growTable() {
    int[] oldCharacter = slotCharacter;
    long[] oldCx = slotCx;
    long[] oldCy = slotCy;
    int[] oldLast = slotLast;
    int[] oldPage = slotPage;
    int capacity = oldPage.length * 2;
    slotCharacter = new int[capacity];
    slotCx = new long[capacity];
    slotCy = new long[capacity];
    slotLast = new int[capacity];
    slotPage = new int[capacity];
    for (int i = 0; i < oldPage.length; i++) {
      if (oldPage[i] == page) {
        int slot = freeSlot(oldCharacter[i], oldCx[i], oldCy[i]);
        slotCharacter[slot] = oldCharacter[i];
        slotCx[slot] = oldCx[i];
        slotCy[slot] = oldCy[i];
        slotLast[slot] = oldLast[i];
        slotPage[slot] = page;
      }
    }
  }

  private static int hash(int number, long cx, long cy) {
    long h =
        (cx * 0x9E3779B97F4A7C15L) ^ (cy * 0xC2B2AE3D27D4EB4FL) ^ (number * 0x165667B19E3779F9L);
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return (int) (h ^ (h >>> 32));
  }

  /** The cell of a coordinate; non-finite coordinates share one cell and never fall in a window. */
  private static long cell(float coordinate) {
    return Float.isFinite(coordinate) ? (long) Math.floor(coordinate / CELL) : NON_FINITE_CELL;
  }
}
