package dev.quarry.engine.index;

import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Expert, for tests: changes a corpus's index writer configuration before the writer opens, as
 * Lucene's {@code RandomIndexWriter} does, so that "an answer never depends on segment layout" is
 * tested under many merge policies, buffer sizes and flush points instead of assumed. Production
 * uses {@link #NONE}.
 */
interface WriterTuning {
  /** Quarry's own configuration, unchanged. */
  WriterTuning NONE = new WriterTuning() {};

  /**
   * The merge policy to put under the retention and erasing wrappers, which stay whatever this
   * returns.
   *
   * @param quarrys the policy Quarry uses
   */
  default MergePolicy mergePolicy(TieredMergePolicy quarrys) {
    return quarrys;
  }

  /** Changes buffers and flush points; called once Quarry's own settings are in {@code config}. */
  default void configure(IndexWriterConfig config) {}
}
