package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.EngineConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Random index writer configurations, as Lucene's {@code RandomIndexWriter} chooses them: merge
 * policy and its parameters, RAM buffer and flush points by document count. Layout independence is
 * then tested across the layouts these produce rather than the one the defaults happen to give.
 */
public final class RandomWriterConfigs {
  private RandomWriterConfigs() {}

  /** A corpus index whose writer uses a configuration chosen by {@code random}. */
  public static CorpusIndex open(Path dir, CorpusInfo info, EngineConfig config, Random random)
      throws IOException {
    return LuceneCorpusIndex.open(dir, info, config, tuning(random));
  }

  /**
   * A tuning for the engine's writer; the choices are made now, so one tuning is one configuration.
   */
  static WriterTuning tuning(Random random) {
    MergePolicy policy = mergePolicy(random, false);
    int maxBufferedDocs = maxBufferedDocs(random);
    double ramBufferMb = ramBufferMb(random);
    return new WriterTuning() {
      @Override
      public MergePolicy mergePolicy(TieredMergePolicy quarrys) {
        return policy;
      }

      @Override
      public void configure(IndexWriterConfig config) {
        config.setMaxBufferedDocs(maxBufferedDocs);
        config.setRAMBufferSizeMB(ramBufferMb);
      }

      @Override
      public String toString() {
        return policy + ", maxBufferedDocs " + maxBufferedDocs + ", ramBufferMb " + ramBufferMb;
      }
    };
  }

  /**
   * A merge policy: tiered, log by documents or by bytes, each with small random parameters so
   * merges happen often; with {@code allowNone}, sometimes no merging at all.
   */
  public static MergePolicy mergePolicy(Random random, boolean allowNone) {
    switch (random.nextInt(allowNone ? 4 : 3)) {
      case 0 -> {
        TieredMergePolicy tiered = new TieredMergePolicy();
        tiered.setSegmentsPerTier(2 + random.nextInt(9));
        tiered.setMaxMergeAtOnce(2 + random.nextInt(9));
        tiered.setFloorSegmentMB(0.01 + random.nextDouble());
        // A purge must be able to rewrite every segment holding a deleted document.
        tiered.setForceMergeDeletesPctAllowed(0);
        return tiered;
      }
      case 1 -> {
        LogDocMergePolicy log = new LogDocMergePolicy();
        log.setMergeFactor(2 + random.nextInt(9));
        log.setMinMergeDocs(1 + random.nextInt(20));
        return log;
      }
      case 2 -> {
        LogByteSizeMergePolicy log = new LogByteSizeMergePolicy();
        log.setMergeFactor(2 + random.nextInt(9));
        log.setMinMergeMB(0.001 + random.nextDouble() / 10);
        return log;
      }
      default -> {
        return NoMergePolicy.INSTANCE;
      }
    }
  }

  /** Flush after this many buffered documents: often tiny, so a revision spans several segments. */
  public static int maxBufferedDocs(Random random) {
    return random.nextBoolean() ? 2 + random.nextInt(10) : 10 + random.nextInt(500);
  }

  /** A RAM buffer from tiny (flush on nearly every batch) to Lucene's default. */
  public static double ramBufferMb(Random random) {
    return random.nextBoolean()
        ? 0.1 + random.nextDouble()
        : IndexWriterConfig.DEFAULT_RAM_BUFFER_SIZE_MB;
  }
}
