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

  Path dataDir;
  /**
   * Default engine settings, without embedding models: every corpus is lexical, and creating one
   * that names a model is refused. A host that wants hybrid passes models through {@link
   * #engineConfig} (the {@code quarry-embeddings} module's, docs/embedding.md).
   */
  EngineConfig engineConfig = EngineConfig.defaults();
  int maxOpenCorpora = DEFAULT_MAX_OPEN_CORPORA;
  Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
  Extractors extractors;
  WriteAdmission writeAdmission = WriteAdmission.ALWAYS;
  CorpusStore store;

  CorporaBuilder() {}

  /** What decides whether writes that add data may go ahead (default: {@link WriteAdmission#ALWAYS}). */
  public CorporaBuilder writeAdmission(WriteAdmission admission) {
    this.writeAdmission = Objects.requireNonNull(admission, "writeAdmission");
    return this;
  }

  /** The data folder; corpora live in {@code dataDir/corpora/NAME}. Required. */
  public CorporaBuilder dataDir(Path dir) {
    if (this.dataDir != null) {
      throw new IllegalStateException("dataDir was already set to " + this.dataDir);
    }
    this.dataDir = Objects.requireNonNull(dir, "dataDir");
    return this;
  }

  /** The engine settings, the embedding models among them (default: {@link EngineConfig#defaults()}, none). */
  public CorporaBuilder engineConfig(EngineConfig config) {
    this.engineConfig = Objects.requireNonNull(config, "engineConfig");
    return this;
  }

  public CorporaBuilder maxOpenCorpora(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxOpenCorpora must be at least 1; got " + n);
    }
    this.maxOpenCorpora = n;
    return this;
  }

  public CorporaBuilder idleTimeout(Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("idleTimeout must be positive; got " + d);
    }
    this.idleTimeout = d;
    return this;
  }

  /**
   * The extractors that turn document files into text for {@link Corpora#ingest}. Optional:
   * without them, ingestion is INGESTION_UNAVAILABLE. The caller keeps ownership and closes them
   * after closing the corpora.
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
   * docs/scale-out.md): the data folder is not needed for corpora then, and the write admission is
   * the store's own. The corpora own the store and close it.
   */
  public CorporaBuilder store(CorpusStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /** Opens the data folder (locking it against a second process) and returns the corpora. */
  public Corpora build() {
    if (store != null) {
      return new LocalCorpora(store, extractors == null ? null : new IngestPipeline(extractors));
    }
    if (dataDir == null) {
      throw new IllegalStateException("dataDir is required");
    }
    return new LocalCorpora(new LuceneCorpusStore(dataDir, engineConfig, maxOpenCorpora, idleTimeout),
        extractors == null ? null : new IngestPipeline(extractors), writeAdmission);
  }
}
