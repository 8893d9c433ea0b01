package dev.quarry.engine.chunk;

import dev.quarry.engine.PageRange;

/**
 * One chunk of a source's text: {@code text.substring(start, end)}, and the pages it spans (null
 * for unpaged text).
 */
public record ChunkSpan(int start, int end, PageRange pages) {
  public ChunkSpan {
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("bad chunk span " + start + ".." + end);
    }
  }
}
