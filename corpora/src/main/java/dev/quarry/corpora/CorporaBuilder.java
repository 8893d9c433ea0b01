package dev.quarry.corpora;

import dev.quarry.corpora.ingest.IngestPipeline;
import dev.quarry.corpora.registry.LuceneCorpusStore;
import dev.quarry.engine.EngineConfig;
import dev.quarry.extractors.Extractors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Builds a {@link Corpora} over a data folder with the embedded Lucene store, or over another
 * {@link CorpusStore} ({@link #store}, such as the cluster store of {@code quarry-cluster-store}).
 *
 * @quarry.stable
 */
public final class CorporaBuilder {
  /** Open corpora kept in memory; idle ones beyond this are closed and reopen on demand. */
  public static final int DEFAULT_MAX_OPEN_CORPORA = 64;

  /** An open corpus untouched this long closes its writer and reader. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

  // The settings of the embedded store stay null until set, so that build() can tell them from
  // their defaults and refuse them beside a store that would not read them.
  Path dataDir;

  /**
   * Unset: default engine settings, without embedding models: every corpus is lexical, and creating
   * one that names a model is refused. A host that wants hybrid passes models through {@link
   * #engineConfig} (the {@code quarry-embeddings} module's, docs/embedding.md).
   */
  EngineConfig engineConfig;

  Integer maxOpenCorpora;
  Duration idleTimeout;
  WriteAdmission writeAdmission;
  Extractors extractors;
  CorpusStore store;

  CorporaBuilder() {}

  /**
   * What decides whether writes that add data may go ahead in the data folder (default: {@link
   * WriteAdmission#ALWAYS}). Embedded store only: a free-disk floor guards the disk the corpora are
   * written to, which with a {@link #store} is the store's.
   */
  public CorporaBuilder writeAdmission(WriteAdmission admission) {
    this.writeAdmission = Objects.requireNonNull(admission, "writeAdmission");
    return this;
  }

  /**
   * The data folder; corpora live in {@code dataDir/corpora/NAME}. Required, unless a {@link
   * #store} is set.
   */
  public CorporaBuilder dataDir(Path dir) {
    if (this.dataDir != null) {
      throw new IllegalStateException("dataDir was already set to " + this.dataDir);
    }
    this.dataDir = Objects.requireNonNull(dir, "dataDir");
    return this;
  }

  /**
   * The engine settings, the embedding models among them (default: {@link EngineConfig#defaults()},
   * none). Embedded store only: a {@link #store} is built with its own.
   */
  public CorporaBuilder engineConfig(EngineConfig config) {
    this.engineConfig = Objects.requireNonNull(config, "engineConfig");
    return this;
  }

  /**
   * Embedded store only (default {@link #DEFAULT_MAX_OPEN_CORPORA}): a {@link #store} is built with
   * its own.
   */
  public CorporaBuilder maxOpenCorpora(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxOpenCorpora must be at least 1; got " + n);
    }
    this.maxOpenCorpora = n;
    return this;
  }

  /** Embedded store only (default {@link #DEFAULT_IDLE_TIMEOUT}). */
  public CorporaBuilder idleTimeout(Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("idleTimeout must be positive; got " + d);
    }
    this.idleTimeout = d;
    return this;
  }

  /**
   * The extractors that turn document files into text for {@link Corpora#ingest}. Optional: without
   * them, ingestion is INGESTION_UNAVAILABLE. The caller keeps ownership and closes them after
   * closing the corpora.
   */
  public CorporaBuilder extractors(Extractors extractors) {
    if (this.extractors != null) {
      throw new IllegalStateException("extractors was already set to " + this.extractors);
    }
    this.extractors = Objects.requireNonNull(extractors, "extractors");
    return this;
  }

  /**
   * Keeps corpora in {@code store} instead of the data folder (an OpenSearch cluster,
   * docs/scale-out.md). The store is built with its own engine settings and bound on open corpora,
   * and its writes are guarded by its own disk (the cluster's watermarks), so the settings of the
   * embedded store ({@link #dataDir}, {@link #engineConfig}, {@link #maxOpenCorpora}, {@link
   * #idleTimeout}, {@link #writeAdmission}) are refused beside it rather than silently ignored. The
   * corpora own the store and close it.
   */
  public CorporaBuilder store(CorpusStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /**
   * Opens the data folder (locking it against a second process), or takes the {@link #store}, and
   * returns the corpora.
   *
   * @throws IllegalStateException when neither a data folder nor a store is set, or when a store is
   *     set together with a setting of the embedded store
   */
  public Corpora build() {
    IngestPipeline ingestion = extractors == null ? null : new IngestPipeline(extractors);
    if (store != null) {
      refuseBesideStore("dataDir", dataDir);
      refuseBesideStore("engineConfig", engineConfig);
      refuseBesideStore("maxOpenCorpora", maxOpenCorpora);
      refuseBesideStore("idleTimeout", idleTimeout);
      refuseBesideStore("writeAdmission", writeAdmission);
      return new LocalCorpora(store, ingestion, WriteAdmission.ALWAYS);
    }
    if (dataDir == null) {
      throw new IllegalStateException("dataDir is required");
    }
    return new LocalCorpora(
        new LuceneCorpusStore(
            dataDir,
            engineConfig == null ? EngineConfig.defaults() : engineConfig,
            maxOpenCorpora == null ? DEFAULT_MAX_OPEN_CORPORA : maxOpenCorpora,
            idleTimeout == null ? DEFAULT_IDLE_TIMEOUT : idleTimeout),
        ingestion,
        writeAdmission == null ? WriteAdmission.ALWAYS : writeAdmission);
  }

  private static void refuseBesideStore(String setting, Object value) {
    if (value != null) {
      throw new IllegalStateException(
          setting
              + " is a setting of the embedded store, which a store set with "
              + "store(...) does not read; set it on that store or leave it out");
    }
  }
}
