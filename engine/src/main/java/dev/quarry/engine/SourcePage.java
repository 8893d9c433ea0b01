package dev.quarry.engine;

import java.util.List;

/**
 * A page of sources in name order; {@code nextCursor} is null on the last page.
 *
 * @quarry.stable
 */
public record SourcePage(List<SourceState> sources, String nextCursor) {
  public SourcePage {
    sources = List.copyOf(sources);
  }
}
