package dev.quarry.engine.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.lucene.util.BytesRef;

/**
 * Keeps the best chunks offered to it, in result order, with at most {@code maxChunksPerSource} per
 * source: the top {@code topK} without a cap, each source's best {@code cap} with one. Memory stays
 * bounded by what can still make the results however many chunks are offered, so a query whose
 * boundary is a tie among thousands of chunks costs time, not heap. Not thread-safe.
 */
final class TopChunks {
  private final int topK;
  private final Integer maxChunksPerSource;

  /** Without a cap: the best topK so far, worst at the head. */
  private final PriorityQueue<ScoredChunk> best;

  /** With a cap: each source's best chunks so far, worst at the head. */
  private final Map<BytesRef, PriorityQueue<ScoredChunk>> bestPerSource = new HashMap<>();

  TopChunks(int topK, Integer maxChunksPerSource) {
    this.topK = topK;
    this.maxChunksPerSource = maxChunksPerSource;
    this.best = new PriorityQueue<>(topK + 1, ScoredChunk.RESULT_ORDER.reversed());
  }

  /**
   * Chunks scoring below this can no longer enter the results; no chunk needs to be built for them.
   */
  float minCompetitiveScore() {
    if (maxChunksPerSource == null && best.size() == topK) {
      return best.peek().score();
    }
    return Float.NEGATIVE_INFINITY;
  }

  void offer(ScoredChunk chunk) {
    PriorityQueue<ScoredChunk> queue = best;
    int bound = topK;
    if (maxChunksPerSource != null) {
      queue =
          bestPerSource.computeIfAbsent(
              chunk.source(), s -> new PriorityQueue<>(ScoredChunk.RESULT_ORDER.reversed()));
      bound = maxChunksPerSource;
    }
    queue.add(chunk);
    if (queue.size() > bound) {
      queue.poll();
    }
  }

  /**
   * The first {@code topK} chunks in result order, at most {@code maxChunksPerSource} per source.
   */
  List<ScoredChunk> results() {
    List<ScoredChunk> all = new ArrayList<>(best);
    bestPerSource.values().forEach(all::addAll);
    all.sort(ScoredChunk.RESULT_ORDER);
    return all.size() <= topK ? all : List.copyOf(all.subList(0, topK));
  }
}
