package dev.quarry.engine.embed;

import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.Embedder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link Embedder} that remembers its most recent query vectors, so a query embedded ahead of
 * its search (a run reports that step as its own phase), a repeated query, or the next page of one
 * costs a lookup instead of a model call. A query's vector is a function of the query and the
 * weights only (each text runs alone), so a cached vector is exactly the one the model would give.
 * Passages pass through: their cache is {@link PassageEmbedder}'s.
 */
public final class QueryCachingEmbedder implements Embedder {
  /** Query vectors kept per model: 384 floats each, so about 1.6 MB for a 384-dimension model. */
  public static final int DEFAULT_QUERIES = 1024;

  private final Embedder model;
  private final Map<String, float[]> recent;
  /** Written under {@code recent}'s lock only. */
  private long hits;
  private long misses;
  private long evictions;

  public QueryCachingEmbedder(Embedder model, int queries) {
    if (queries < 1) {
      throw new IllegalArgumentException("queries must be at least 1; got " + queries);
    }
    this.model = model;
    this.recent = new LinkedHashMap<>(64, 0.75f, true) {
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

  @Override
  public String model() {
    return model.model();
  }

  @Override
  public String sha256() {
    return model.sha256();
  }

  @Override
  public int dimensions() {
    return model.dimensions();
  }

  @Override
  public int maxTokens() {
    return model.maxTokens();
  }

  @Override
  public int passageTokens(String text) {
    return model.passageTokens(text);
  }

  @Override
  public List<Embedding> embedPassages(List<String> texts) {
    return model.embedPassages(texts);
  }

  /** The cached vector when there is one; a copy, so no caller can change what the next one gets. */
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
      // Outside the lock: two threads may embed the same new query at once; both get the same vector.
      v = model.embedQuery(query);
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
