package dev.quarry.engine.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;

/**
 * A passage formatter that returns the matches themselves, as {@code [start, end)} ranges in
 * order, instead of marked-up text. Overlapping matches (CJK bigrams share a character) are merged
 * so the ranges never overlap; touching ones stay apart, as they are separate words.
 */
final class MatchOffsetsFormatter extends PassageFormatter {

  @Override
  public Object format(Passage[] passages, String content) {
    List<int[]> matches = new ArrayList<>();
    for (Passage passage : passages) {
      for (int i = 0; i < passage.getNumMatches(); i++) {
        int start = Math.max(0, passage.getMatchStarts()[i]);
        int end = Math.min(content.length(), passage.getMatchEnds()[i]);
        if (start < end) {
          matches.add(new int[] {start, end});
        }
      }
    }
    return merge(matches);
  }

  static List<int[]> merge(List<int[]> ranges) {
    int[][] sorted = ranges.toArray(new int[0][]);
    Arrays.sort(sorted, Comparator.<int[]>comparingInt(r -> r[0]).thenComparingInt(r -> r[1]));
    List<int[]> merged = new ArrayList<>(sorted.length);
    for (int[] range : sorted) {
      int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range[0] < last[1]) {
        last[1] = Math.max(last[1], range[1]);
      } else {
        merged.add(new int[] {range[0], range[1]});
      }
    }
    return merged;
  }
}
