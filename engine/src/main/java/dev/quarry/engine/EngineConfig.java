package dev.quarry.engine;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Engine-wide settings shared by every corpus of a process. Build with {@link #builder()}; each
 * default is a named constant.
 *
 * @quarry.stable
 */
public final class EngineConfig {
  /** Pinned search reaches at least this many latest revisions (SPEC: at least 1,000). */
  public static final int DEFAULT_RETAINED_REVISIONS = 1000;

  /** Idempotency keys are honoured this long after the mutation that recorded them. */
  public static final Duration DEFAULT_IDEMPOTENCY_RETENTION = Duration.ofHours(24);

  /** Mutations waiting for a corpus's writer beyond this many are refused with CAPACITY. */
  public static final int DEFAULT_MAX_QUEUED_MUTATIONS = 1024;

  /** One group commit takes at most this many queued mutations, to bound receipt latency. */
  public static final int DEFAULT_MAX_GROUP_SIZE = 256;

  /** Lucene's indexing buffer per corpus writer; large buffers mostly help bulk batches. */
  public static final double DEFAULT_RAM_BUFFER_MB = 64;

  private final int retainedRevisions;
  private final Duration idempotencyRetention;
  private final int maxQueuedMutations;
  private final int maxGroupSize;
  private final double ramBufferMb;
  private final Clock clock;
  private final EmbeddingModels embeddingModels;
  private final EngineListener listener;
  private final SearchConcurrency searchConcurrency;
  private final SearchCaches searchCaches = new SearchCaches();

  private EngineConfig(Builder b) {
    this.listener = b.listener;
    this.retainedRevisions = b.retainedRevisions;
    this.idempotencyRetention = b.idempotencyRetention;
    this.maxQueuedMutations = b.maxQueuedMutations;
    this.maxGroupSize = b.maxGroupSize;
    this.ramBufferMb = b.ramBufferMb;
    this.clock = b.clock;
    this.embeddingModels = b.embeddingModels;
    this.searchConcurrency = b.searchConcurrency;
  }

  public static EngineConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public int retainedRevisions() {
    return retainedRevisions;
  }

  public Duration idempotencyRetention() {
    return idempotencyRetention;
  }

  public int maxQueuedMutations() {
    return maxQueuedMutations;
  }

  public int maxGroupSize() {
    return maxGroupSize;
  }

  public double ramBufferMb() {
    return ramBufferMb;
  }

  public Clock clock() {
    return clock;
  }

  /**
   * Told of commits, refreshes, searches and merges (for metrics); {@link EngineListener#NONE} by
   * default.
   */
  public EngineListener listener() {
    return listener;
  }

  /**
   * The counts of the caches searches use, shared by every corpus opened with this configuration.
   */
  public SearchCaches searchCaches() {
    return searchCaches;
  }

  /**
   * The threads a search may split an exact semantic scan across ({@link
   * SearchConcurrency#commonPool()} by default).
   */
  public SearchConcurrency searchConcurrency() {
    return searchConcurrency;
  }

  /** The embedding models this process runs; a corpus whose model is not here cannot be opened. */
  public EmbeddingModels embeddingModels() {
    return embeddingModels;
  }

  /** Builder for {@link EngineConfig}; setters reject out-of-range values naming the parameter. */
  public static final class Builder {
    private EngineListener listener = EngineListener.NONE;
    private int retainedRevisions = DEFAULT_RETAINED_REVISIONS;
    private Duration idempotencyRetention = DEFAULT_IDEMPOTENCY_RETENTION;
    private int maxQueuedMutations = DEFAULT_MAX_QUEUED_MUTATIONS;
    private int maxGroupSize = DEFAULT_MAX_GROUP_SIZE;
    private double ramBufferMb = DEFAULT_RAM_BUFFER_MB;
    private Clock clock = Clock.systemUTC();
    private EmbeddingModels embeddingModels = EmbeddingModels.NONE;
    private SearchConcurrency searchConcurrency = SearchConcurrency.commonPool();

    private Builder() {}

    public Builder retainedRevisions(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("retainedRevisions must be at least 1; got " + n);
      }
      this.retainedRevisions = n;
      return this;
    }

    public Builder idempotencyRetention(Duration d) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("idempotencyRetention must be positive; got " + d);
      }
      this.idempotencyRetention = d;
      return this;
    }

    public Builder maxQueuedMutations(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxQueuedMutations must be at least 1; got " + n);
      }
      this.maxQueuedMutations = n;
      return this;
    }

    public Builder maxGroupSize(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxGroupSize must be at least 1; got " + n);
      }
      this.maxGroupSize = n;
      return this;
    }

    public Builder ramBufferMb(double mb) {
      if (!(mb >= 1 && mb <= 2048)) {
        throw new IllegalArgumentException("ramBufferMb must be between 1 and 2048; got " + mb);
      }
      this.ramBufferMb = mb;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder embeddingModels(EmbeddingModels models) {
      this.embeddingModels = Objects.requireNonNull(models, "embeddingModels");
      return this;
    }

    /**
     * Expert: where a search's exact semantic scan runs ({@link
     * SearchConcurrency#SEARCHING_THREAD_ONLY} to never split it).
     */
    public Builder searchConcurrency(SearchConcurrency concurrency) {
      this.searchConcurrency = Objects.requireNonNull(concurrency, "searchConcurrency");
      return this;
    }

    /** Expert: what is told of the engine's work, for metrics. */
    public Builder listener(EngineListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public EngineConfig build() {
      return new EngineConfig(this);
    }
  }
}
