package dev.quarry.engine.chunk;

import java.util.Arrays;

/**
 * A sliding window of tokens: the chunk being built, the overlap carried into it and the tokens
 * scanned past its end. Parallel primitive arrays, reused from chunk to chunk, so the window costs
 * nothing per token once it has grown to the size of a chunk.
 *
 * <p>A token is a span of non-whitespace: a whitespace-separated word, a single CJK character with
 * any punctuation after it, or a piece of an overlong run. Its flags say what kind of boundary
 * comes before it; its weight is its size in half-words.
 */
final class Tokens {
  /** The token begins a line. */
  static final int LINE_START = 1;

  /** A blank line (or a form feed) comes before the token. */
  static final int PARAGRAPH = 1 << 1;

  /** A sentence begins with the token. */
  static final int SENTENCE = 1 << 2;

  /** A page begins between the previous token and this one. */
  static final int PAGE = 1 << 3;

  /** The token is the marker of a Markdown heading ({@code ##}). */
  static final int HEADING = 1 << 4;

  /** The token is part of a heading line, its marker included. */
  static final int IN_HEADING = 1 << 5;

  /** Whitespace comes before the token: it starts a whitespace-separated word. */
  static final int RUN_START = 1 << 6;

  private static final int INITIAL_CAPACITY = 256;

  private int[] starts = new int[INITIAL_CAPACITY];
  private int[] ends = new int[INITIAL_CAPACITY];
  private int[] flags = new int[INITIAL_CAPACITY];

  /** The weight of all tokens before each one, since the start of the text. */
  private long[] weightBefore = new long[INITIAL_CAPACITY];

  /** The weight of all tokens up to and including the last one appended. */
  private long totalWeight;

  private int count;

  void append(int start, int end, int weight, int tokenFlags) {
    if (count == starts.length) {
      int capacity = count * 2;
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
      flags = Arrays.copyOf(flags, capacity);
      weightBefore = Arrays.copyOf(weightBefore, capacity);
    }
    starts[count] = start;
    ends[count] = end;
    flags[count] = tokenFlags;
    weightBefore[count] = totalWeight;
    totalWeight += weight;
    count++;
  }

  /** Drops the first {@code n} tokens; the window then starts at what was token {@code n}. */
  void removeFirst(int n) {
    int remaining = count - n;
    System.arraycopy(starts, n, starts, 0, remaining);
    System.arraycopy(ends, n, ends, 0, remaining);
    System.arraycopy(flags, n, flags, 0, remaining);
    System.arraycopy(weightBefore, n, weightBefore, 0, remaining);
    count = remaining;
  }

  int count() {
    return count;
  }

  int start(int i) {
    return starts[i];
  }

  int end(int i) {
    return ends[i];
  }

  boolean has(int i, int flag) {
    return (flags[i] & flag) != 0;
  }

  /** The weight in half-words of tokens {@code [from, to)}, {@code to <= count()}. */
  long weight(int from, int to) {
    long end = to == count ? totalWeight : weightBefore[to];
    return end - weightBefore[from];
  }
}
