package dev.quarry.engine.chunk;

import dev.quarry.engine.PageRange;
import java.util.List;

/**
 * One chunk of a source's text: {@code text.substring(start, end)}, the pages it spans (null for
 * unpaged text) and its section: the headings above it, outermost first (empty for text without
 * headings, or before the first heading).
 */
public record ChunkSpan(int start, int end, PageRange pages, List<String> section) {
  public ChunkSpan {
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("bad chunk span " + start + ".." + end);
    }
    section = section == null ? List.of() : List.copyOf(section);
  }

  /** A span whose section is not known yet. */
  public ChunkSpan(int start, int end, PageRange pages) {
    this(start, end, pages, List.of());
  }

  /** This span in {@code newSection}. */
  ChunkSpan withSection(List<String> newSection) {
    return new ChunkSpan(start, end, pages, newSection);
  }
}
