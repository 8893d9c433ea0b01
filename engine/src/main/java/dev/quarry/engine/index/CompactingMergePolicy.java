package dev.quarry.engine.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Merges a corpus's small segments into one when its writer asks, once the corpus has been idle for
 * a while and when it closes ({@link IndexStore#compactSmallSegments}); otherwise the wrapped
 * policy decides.
 *
 * <p>Every group of writes commits a segment of its own (a receipt means durable and visible), and
 * Lucene's tiered policy leaves up to {@code segmentsPerTier} segments below its floor size (16 MB)
 * unmerged: a corpus filled by a few bulk requests stays at a handful of small segments for good.
 * Each one costs every search a term lookup per query term and field, in Lucene's weight, in the
 * exact scores and in the highlights, and a scorer set-up; merged into one, a search of a corpus of
 * 10,000 chunks took about a quarter less time over HTTP. A merge never changes an answer (scores
 * do not depend on segment layout), so only time decides when: an idle corpus has time to spare,
 * while merging the small segments of a corpus being written would rewrite them again at every
 * write. The work is bounded: only segments below the tiered policy's floor, of which the tiered
 * policy keeps at most {@code segmentsPerTier}.
 */
final class CompactingMergePolicy extends FilterMergePolicy {
  /** Segments below this size are merged: the floor of the tiered policy Quarry uses. */
  private final long smallSegmentBytes;

  CompactingMergePolicy(MergePolicy in, TieredMergePolicy quarrys) {
    super(in);
    this.smallSegmentBytes = (long) (quarrys.getFloorSegmentMB() * 1024 * 1024);
  }

  /**
   * {@link MergeTrigger#EXPLICIT} is {@code IndexWriter.maybeMerge()}, which only the writer thread
   * calls (idle, or closing): then one merge of every small segment not already merging, if there
   * are two or more.
   */
  @Override
  public MergeSpecification findMerges(
      MergeTrigger trigger, SegmentInfos infos, MergeContext context) throws IOException {
    if (trigger != MergeTrigger.EXPLICIT) {
      return super.findMerges(trigger, infos, context);
    }
    Set<SegmentCommitInfo> merging = context.getMergingSegments();
    List<SegmentCommitInfo> small = new ArrayList<>();
    for (SegmentCommitInfo info : infos) {
      if (!merging.contains(info) && size(info, context) < smallSegmentBytes) {
        small.add(info);
      }
    }
    if (small.size() < 2) {
      return super.findMerges(trigger, infos, context);
    }
    MergeSpecification spec = new MergeSpecification();
    spec.add(new OneMerge(small));
    return spec;
  }
}
