package dev.quarry.app.server;

import dev.quarry.corpora.OpenCorpusFootprint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which open corpora get a {@code corpus} label of their own in the metrics: at most {@code max},
 * the largest on disk, chosen so that series stay put. A corpus keeps its label while it stays
 * open, and gives it up only to a corpus more than {@link #DISPLACING_FACTOR} times its size, so
 * two corpora of about the same size do not swap labels at every scrape as they grow; a label freed
 * by a corpus that closed (idle, evicted or deleted) goes to the largest corpus without one. Every
 * other open corpus is counted under {@link #OTHER}.
 *
 * <p>Thread-safe.
 */
final class CorpusLabels {
  /**
   * The label value of the corpora without their own: a corpus name starts with a lowercase letter
   * or a digit ({@code [a-z0-9][a-z0-9._-]{0,63}}), so no corpus can be called this.
   */
  static final String OTHER = "_other";

  /**
   * How much larger an unlabelled corpus must be to take the label of the smallest labelled one.
   */
  static final int DISPLACING_FACTOR = 2;

  /** Ordered largest first, then by name, so that a choice among equals is the same every time. */
  private static final Comparator<OpenCorpusFootprint> LARGEST_FIRST =
      Comparator.comparingLong(OpenCorpusFootprint::bytes)
          .reversed()
          .thenComparing(OpenCorpusFootprint::name);

  private final int max;
  private final Set<String> named = new LinkedHashSet<>();

  /**
   * @param max how many corpora get a label of their own; at least 1
   */
  CorpusLabels(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1; got " + max);
    }
    this.max = max;
  }

  /** The corpora among {@code open} that have a label of their own after this reading. */
  synchronized Set<String> choose(List<OpenCorpusFootprint> open) {
    Map<String, OpenCorpusFootprint> byName = new HashMap<>();
    for (OpenCorpusFootprint c : open) {
      byName.put(c.name(), c);
    }
    named.retainAll(byName.keySet());
    List<OpenCorpusFootprint> unnamed = new ArrayList<>();
    for (OpenCorpusFootprint c : open) {
      if (!named.contains(c.name())) {
        unnamed.add(c);
      }
    }
    unnamed.sort(LARGEST_FIRST);
    for (OpenCorpusFootprint c : unnamed) {
      if (named.size() < max) {
        named.add(c.name());
        continue;
      }
      OpenCorpusFootprint smallest =
          named.stream().map(byName::get).max(LARGEST_FIRST).orElseThrow();
      if (c.bytes() <= DISPLACING_FACTOR * smallest.bytes()) {
        break; // the rest are smaller still
      }
      named.remove(smallest.name());
      named.add(c.name());
    }
    return Set.copyOf(named);
  }
}
