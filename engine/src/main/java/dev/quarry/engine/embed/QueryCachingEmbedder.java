package dev.quarry.engine.embed;

import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.FilterEmbedder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An {@link Embedder} that remembers its most recent query vectors, so a query embedded ahead of
 * its search (a run reports that step as its own phase), a repeated query, or the next page of one
 * costs a lookup instead of a model call. A query's vector is a function of the query and the
 * weights only (each text runs alone), so a cached vector is exactly the one the model would give.
 * Passages pass through: their cache is {@link PassageEmbedder}'s.
 */
public final class QueryCachingEmbedder extends FilterEmbedder {
  /** Query vectors kept per model: 384 floats each, so about 1.6 MB for a 384-dimension model. */
  public static final int DEFAULT_QUERIES = 1024;

  private final QueryPriority priority;
  private final Map<String, float[]> recent;

  /** Written under {@code recent}'s lock only. */
  private long hits;

  private long misses;
  private long evictions;

  /**
   * @param priority told of each query the model embeds, so passage calls make room for it
   */
  public QueryCachingEmbedder(Embedder model, int queries, QueryPriority priority) {
    super(model);
    if (queries < 1) {
      throw new IllegalArgumentException("queries must be at least 1; got " + queries);
    }
    this.priority = priority;
    this.recent =
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            if (size() > queries) {
              evictions++;
              return true;
            }
            return false;
          }
        };
  }

  /**
   * The cached vector when there is one; a copy, so no caller can change what the next one gets.
   */
  @Override
  public float[] embedQuery(String query) {
    float[] v;
    synchronized (recent) {
      v = recent.get(query);
      if (v == null) {
        misses++;
      } else {
        hits++;
      }
    }
    if (v == null) {
      // Outside the lock: two threads may embed the same new query at once; both get the same
      // vector.
      priority.queryStarted();
      try {
        v = in.embedQuery(query);
      } finally {
        priority.queryEnded();
      }
      synchronized (recent) {
        recent.put(query, v);
      }
    }
    return v.clone();
  }

  /** The cache's counts so far: queries found and not, vectors pushed out, vectors held. */
  public CacheCounts cacheCounts() {
    synchronized (recent) {
      return new CacheCounts(hits, misses, evictions, recent.size());
    }
  }

  /** Whether {@code query}'s vector is cached (for tests). */
  boolean holds(String query) {
    synchronized (recent) {
      return recent.containsKey(query);
    }
  }
}
