package dev.quarry.extractors;

import java.util.Objects;

/**
 * One entry of a document's outline (PDF bookmarks).
 *
 * @param title the entry's text
 * @param level its depth, 1 for top-level entries
 * @param page the 1-based page it points to, or null when it points nowhere resolvable
 * @quarry.stable
 */
public record OutlineEntry(String title, int level, Integer page) {

  public OutlineEntry {
    Objects.requireNonNull(title, "title");
    if (level < 1) {
      throw new IllegalArgumentException("level must be at least 1, got " + level);
    }
    if (page != null && page < 1) {
      throw new IllegalArgumentException("page must be at least 1, got " + page);
    }
  }
}
