package dev.quarry.engine;

/**
 * The 1-based pages a chunk spans, inclusive.
 *
 * @quarry.stable
 */
public record PageRange(int from, int to) {
  public PageRange {
    if (from < 1 || to < from) {
      throw new IllegalArgumentException("bad page range " + from + ".." + to);
    }
  }
}
