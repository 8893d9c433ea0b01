package dev.quarry.corpora;

import dev.quarry.engine.EngineConfig;
import java.nio.file.Path;
import java.util.Objects;

/** Builds a {@link Corpora} over a data folder with the embedded Lucene store. */
public final class CorporaBuilder {
  /** Open corpora kept in memory; idle ones beyond this are closed and reopen on demand. */
  public static final int DEFAULT_MAX_OPEN_CORPORA = 64;

  Path dataDir;
  EngineConfig engineConfig = EngineConfig.defaults();
  int maxOpenCorpora = DEFAULT_MAX_OPEN_CORPORA;

  CorporaBuilder() {}

  /** The data folder; corpora live in {@code dataDir/corpora/NAME}. Required. */
  public CorporaBuilder dataDir(Path dir) {
    if (this.dataDir != null) {
      throw new IllegalStateException("dataDir was already set to " + this.dataDir);
    }
    this.dataDir = Objects.requireNonNull(dir, "dataDir");
    return this;
  }

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

  /** Opens the data folder (locking it against a second process) and returns the corpora. */
  public Corpora build() {
    if (dataDir == null) {
      throw new IllegalStateException("dataDir is required");
    }
    throw new UnsupportedOperationException("TODO");
  }
}
