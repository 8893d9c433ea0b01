package dev.quarry.app.server;

import dev.quarry.corpora.Corpora;
import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.SearchCaches;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Function;

/**
 * The server's caches as metrics, each under the {@code cache} label naming its kind (never a
 * corpus): lookups that found an entry and not ({@code quarry.cache.gets}, {@code
 * result=hit|miss}), entries pushed out to stay within the bound ({@code quarry.cache.evictions})
 * and entries held ({@code quarry.cache.size}).
 *
 * <ul>
 *   <li>{@code open-corpora}: the corpora kept open (embedded store only); a miss opens a corpus,
 *       an eviction closes one for {@code maxOpenCorpora} or for being idle.
 *   <li>{@code passage-embeddings}: passage vectors by model and text, shared by every corpus; a
 *       hit is a passage indexed without running the model. Counted per passage.
 *   <li>{@code query-embeddings}: recent query vectors, every model's together; a hit is a semantic
 *       or hybrid search that ran no model.
 *   <li>{@code revision-views}: the revisions searched lately in each open corpus with their
 *       scoring statistics, all corpora together (embedded store only); a hit is a search that
 *       reused them.
 *   <li>{@code term-statistics}: those revisions' statistics of the terms searched, all views
 *       together (embedded store only); a hit is a term whose statistics were not counted again.
 *   <li>{@code segment-visibility}: which documents of a segment a revision sees, every open
 *       corpus's segments together (embedded store only); a hit is a segment not scanned again.
 *   <li>{@code lucene-queries}: Lucene's query cache, one per process (embedded store only).
 * </ul>
 *
 * <p>Read from the caches' own counts at each scrape (a lock taken briefly per cache, or counters
 * kept as the caches work); thread-safe.
 */
final class CacheMetrics implements MeterBinder {
  static final String OPEN_CORPORA = "open-corpora";
  static final String PASSAGE_EMBEDDINGS = "passage-embeddings";
  static final String QUERY_EMBEDDINGS = "query-embeddings";
  static final String REVISION_VIEWS = "revision-views";
  static final String TERM_STATISTICS = "term-statistics";
  static final String SEGMENT_VISIBILITY = "segment-visibility";
  static final String LUCENE_QUERIES = "lucene-queries";

  private final Corpora corpora;
  private final EmbeddingModels models;
  private final SearchCaches searchCaches;

  /**
   * @param corpora whose open-corpora cache is counted, or null to leave that cache out (corpora on
   *     a cluster keep none); never read before a scrape, since a server may start before its
   *     corpora are reachable
   * @param models whose embedding caches are counted; null or without models: none
   * @param searchCaches the counts of the caches the embedded store's searches use, or null to
   *     leave them out (corpora on a cluster search there)
   */
  CacheMetrics(Corpora corpora, EmbeddingModels models, SearchCaches searchCaches) {
    this.corpora = corpora;
    this.models = models;
    this.searchCaches = searchCaches;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (corpora != null) {
      bind(registry, OPEN_CORPORA, corpora, c -> c.openCorporaCache().orElse(CacheCounts.NONE));
    }
    if (models != null && !models.names().isEmpty()) {
      bind(registry, PASSAGE_EMBEDDINGS, models, EmbeddingModels::passageCache);
      bind(registry, QUERY_EMBEDDINGS, models, EmbeddingModels::queryCache);
    }
    if (searchCaches != null) {
      bind(registry, REVISION_VIEWS, searchCaches, SearchCaches::revisionViews);
      bind(registry, TERM_STATISTICS, searchCaches, SearchCaches::termStatistics);
      bind(registry, SEGMENT_VISIBILITY, searchCaches, SearchCaches::segmentVisibility);
      bind(registry, LUCENE_QUERIES, searchCaches, c -> SearchCaches.luceneQueries());
    }
  }

  /**
   * Registers one cache's meters. Micrometer holds {@code source} weakly: it must be an object the
   * server keeps (the corpora, the process's models), never one made for the purpose.
   */
  private static <T> void bind(
      MeterRegistry registry, String cache, T source, Function<T, CacheCounts> counts) {
    String gets =
        "cache lookups, by whether they found an entry (hit) or not, so the work was done (miss)";
    FunctionCounter.builder("quarry.cache.gets", source, s -> counts.apply(s).hits())
        .tags("cache", cache, "result", "hit")
        .description(gets)
        .register(registry);
    FunctionCounter.builder("quarry.cache.gets", source, s -> counts.apply(s).misses())
        .tags("cache", cache, "result", "miss")
        .description(gets)
        .register(registry);
    FunctionCounter.builder("quarry.cache.evictions", source, s -> counts.apply(s).evictions())
        .tag("cache", cache)
        .description("entries pushed out of a cache to stay within its bound")
        .register(registry);
    Gauge.builder("quarry.cache.size", source, s -> counts.apply(s).size())
        .tag("cache", cache)
        .description("entries a cache holds now")
        .register(registry);
  }
}
