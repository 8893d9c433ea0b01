package dev.quarry.engine;

import java.util.List;

/**
 * A page of history in revision order. {@code nextAfter} is the revision to pass as {@code after}
 * for the next page, or null when no entries follow.
 *
 * @quarry.stable
 */
public record HistoryPage(List<HistoryEntry> entries, Long nextAfter) {
  public HistoryPage {
    entries = List.copyOf(entries);
  }
}
