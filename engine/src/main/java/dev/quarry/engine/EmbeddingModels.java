package dev.quarry.engine;

import dev.quarry.engine.embed.PassageEmbedder;
import dev.quarry.engine.embed.QueryCachingEmbedder;
import dev.quarry.engine.embed.QueryPriority;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The embedding models a process can run, by model name, and the one pool that embeds passages with
 * them. Thread-safe.
 *
 * @quarry.stable
 */
public final class EmbeddingModels {
  /** No models: every corpus is lexical. */
  public static final EmbeddingModels NONE = new EmbeddingModels(Map.of(), null);

  private final Map<String, Embedder> byName;
  private final PassageEmbedder passages;

  private EmbeddingModels(Map<String, Embedder> byName, QueryPriority priority) {
    this.byName = byName;
    this.passages = byName.isEmpty() ? null : PassageEmbedder.withDefaults(priority);
  }

  /**
   * The process's bounded pool (with its cache) that embeds passages for every corpus. The engine's
   * own: its type is internal (not exported by the engine's module).
   */
  @SuppressWarnings("exports")
  public PassageEmbedder passages() {
    if (passages == null) {
      throw new IllegalStateException("no embedding models");
    }
    return passages;
  }

  /**
   * The given models, each under its own {@link Embedder#model()} name, each with a cache of its
   * recent query vectors ({@link QueryCachingEmbedder}).
   */
  public static EmbeddingModels of(Embedder... embedders) {
    // Queries and passages share the same cores: passage calls make room for queries.
    QueryPriority priority = new QueryPriority(Runtime.getRuntime().availableProcessors());
    Map<String, Embedder> m = new TreeMap<>();
    for (Embedder e : embedders) {
      if (m.put(
              e.model(),
              new QueryCachingEmbedder(e, QueryCachingEmbedder.DEFAULT_QUERIES, priority))
          != null) {
        throw new IllegalArgumentException("two embedders are named " + e.model());
      }
    }
    return new EmbeddingModels(Map.copyOf(m), priority);
  }

  public Optional<Embedder> find(String model) {
    return Optional.ofNullable(byName.get(model));
  }

  /**
   * {@code settings} bound to the weights of the model they name, for a corpus being created.
   *
   * @throws QuarryException INVALID_REQUEST on {@code settings.embedding.model} for a model this
   *     process does not run
   */
  public CorpusSettings resolve(CorpusSettings settings) {
    if (!settings.hasEmbedding()) {
      return settings;
    }
    Embedder e = byName.get(settings.embedding().model());
    if (e == null && byName.isEmpty()) {
      throw QuarryException.invalid(
          "settings.embedding.model",
          "embedding model '"
              + settings.embedding().model()
              + "' is not available: this server runs no embedding models, so its corpora are lexical");
    }
    if (e == null) {
      throw QuarryException.invalid(
          "settings.embedding.model",
          "unknown embedding model '"
              + settings.embedding().model()
              + "'; this server runs "
              + names());
    }
    return settings.withEmbedding(settings.embedding().withSha256(e.sha256()));
  }

  /**
   * The embedder of an existing corpus, or null for a lexical corpus.
   *
   * @throws QuarryException EMBEDDING_UNAVAILABLE when this process lacks the corpus's model or
   *     runs different weights under its name (the stored vectors would not compare)
   */
  public Embedder embedderOf(CorpusInfo info) {
    CorpusSettings.Embedding wanted = info.settings().embedding();
    if (wanted == null) {
      return null;
    }
    Embedder e = byName.get(wanted.model());
    if (e == null) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "corpus '"
              + info.name()
              + "' needs embedding model '"
              + wanted.model()
              + "', which this server does not run");
    }
    if (wanted.sha256() != null && !wanted.sha256().equals(e.sha256())) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "corpus '"
              + info.name()
              + "' was embedded with other weights of model '"
              + wanted.model()
              + "' (SHA-256 "
              + wanted.sha256()
              + "); this server runs "
              + e.sha256());
    }
    return e;
  }

  /**
   * The counts of the passage cache ({@link PassageEmbedder}), shared by every corpus; {@link
   * CacheCounts#NONE} without models.
   */
  public CacheCounts passageCache() {
    return passages == null ? CacheCounts.NONE : passages.cacheCounts();
  }

  /** The counts of the query caches ({@link QueryCachingEmbedder}), every model's together. */
  public CacheCounts queryCache() {
    CacheCounts total = CacheCounts.NONE;
    for (Embedder e : byName.values()) {
      if (e instanceof QueryCachingEmbedder q) {
        total = total.plus(q.cacheCounts());
      }
    }
    return total;
  }

  /** Model names, sorted. */
  public Set<String> names() {
    return new TreeSet<>(byName.keySet());
  }
}
