package dev.quarry.engine.chunk;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.PageRange;
import java.util.List;

/**
 * One chunk of a source's text: {@code text.substring(start, end)}, the pages it spans (null for
 * unpaged text), its section: the headings above it, outermost first (empty for text without
 * headings, or before the first heading), and the rows of a table it holds (null outside tables).
 */
public record ChunkSpan(
    int start, int end, PageRange pages, List<String> section, ChunkTable table) {
  public ChunkSpan {
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("bad chunk span " + start + ".." + end);
    }
    section = section == null ? List.of() : List.copyOf(section);
  }

  /** A span outside tables. */
  public ChunkSpan(int start, int end, PageRange pages, List<String> section) {
    this(start, end, pages, section, null);
  }

  /** A span whose section is not known yet, outside tables. */
  public ChunkSpan(int start, int end, PageRange pages) {
    this(start, end, pages, List.of(), null);
  }

  /** This span in {@code newSection}. */
  ChunkSpan withSection(List<String> newSection) {
    return new ChunkSpan(start, end, pages, newSection, table);
  }
}
