package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * One passage found, with its provenance. Text positions count UTF-16 code units, {@code [start, end)}.
 *
 * @param highlights ranges of query-term matches inside {@code text}; null when highlighting was off
 * @param pages the pages the passage spans, for paged formats; else null
 */
public record Hit(String source, long sourceRevision, int chunk, double score, String text, List<List<Integer>> highlights,
    String title, String mediaType, Pages pages, Offsets offsets, String contentSha256, Map<String, Object> metadata) {
  public record Pages(int from, int to) {}

  public record Offsets(int start, int end) {}
}
