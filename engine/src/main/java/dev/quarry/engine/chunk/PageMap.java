package dev.quarry.engine.chunk;

import dev.quarry.engine.PageRange;
import java.util.Arrays;

/** The validated page starts of a paged text: which 1-based page holds a character. */
final class PageMap {
  private final int[] pageStarts;

  private PageMap(int[] pageStarts) {
    this.pageStarts = pageStarts;
  }

  /**
   * Checks {@code pageStarts} against a text of {@code textLength} characters: page 1 starts at 0,
   * starts never decrease (equal starts are empty pages), and none lies past the end of the text.
   *
   * @throws IllegalArgumentException naming the first offending index and value
   */
  static PageMap of(int[] pageStarts, int textLength) {
    if (pageStarts.length == 0 || pageStarts[0] != 0) {
      throw new IllegalArgumentException(
          "pageStarts[0] must be 0; got "
              + (pageStarts.length == 0 ? "no page starts" : String.valueOf(pageStarts[0])));
    }
    for (int i = 1; i < pageStarts.length; i++) {
      if (pageStarts[i] < pageStarts[i - 1]) {
        throw new IllegalArgumentException(
            "pageStarts must not decrease; pageStarts["
                + i
                + "] = "
                + pageStarts[i]
                + " < pageStarts["
                + (i - 1)
                + "] = "
                + pageStarts[i - 1]);
      }
      if (pageStarts[i] > textLength) {
        throw new IllegalArgumentException(
            "pageStarts["
                + i
                + "] = "
                + pageStarts[i]
                + " lies past the end of the text ("
                + textLength
                + " characters)");
      }
    }
    return new PageMap(pageStarts.clone());
  }

  /**
   * The 1-based page holding the character at {@code offset}. A character at the start of empty
   * pages belongs to the last of them, the one whose content it begins.
   */
  int pageOf(int offset) {
    int i = Arrays.binarySearch(pageStarts, offset);
    if (i < 0) {
      return -i - 1; // the number of pages starting before offset
    }
    while (i + 1 < pageStarts.length && pageStarts[i + 1] == offset) {
      i++;
    }
    return i + 1;
  }

  /** The pages of the characters {@code [start, end)}, {@code end > start}. */
  PageRange range(int start, int end) {
    return new PageRange(pageOf(start), pageOf(end - 1));
  }

  /** The offset where the 0-based page {@code index} starts; {@code index < pageCount()}. */
  int start(int index) {
    return pageStarts[index];
  }

  int pageCount() {
    return pageStarts.length;
  }
}
