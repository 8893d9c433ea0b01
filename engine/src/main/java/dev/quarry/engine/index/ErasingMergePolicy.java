package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterCodecReader;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOSupplier;

/**
 * Drops a segment once every one of its documents is hard-deleted (purged, or pruned history and
 * idempotency records), even where the wrapped retention policy would keep it.
 *
 * <p>{@link org.apache.lucene.index.SoftDeletesRetentionMergePolicy} keeps a fully deleted segment
 * while any of its documents matches the retention query, and it looks at hard-deleted documents
 * too: a segment holding only the purged versions of a source (some of them superseded within
 * retention) would stay on disk, text and terms included, and a forced merge of deletes does not
 * rewrite it. A hard-deleted document is never visible at any revision, so such a segment holds
 * nothing to retain.
 */
final class ErasingMergePolicy extends FilterMergePolicy {
  ErasingMergePolicy(MergePolicy retention) {
    super(retention);
  }

  @Override
  public boolean keepFullyDeletedSegment(IOSupplier<CodecReader> readerIOSupplier)
      throws IOException {
    if (FilterCodecReader.unwrap(readerIOSupplier.get()) instanceof SegmentReader segment
        && noneLive(segment.getHardLiveDocs(), segment.maxDoc())) {
      return false;
    }
    return super.keepFullyDeletedSegment(readerIOSupplier);
  }

  private static boolean noneLive(Bits hardLiveDocs, int maxDoc) {
    if (hardLiveDocs == null) {
      return maxDoc == 0;
    }
    for (int doc = 0; doc < maxDoc; doc++) {
      if (hardLiveDocs.get(doc)) {
        return false;
      }
    }
    return true;
  }
}
