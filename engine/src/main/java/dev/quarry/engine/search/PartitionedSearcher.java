package dev.quarry.engine.search;

import dev.quarry.engine.SearchConcurrency;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;

/**
 * Searches a revision's reader in parts of about equal size, cutting large segments into ranges of
 * documents (Lucene's intra-segment partitions), the parts run on the concurrency's executor and on
 * the searching thread. For scans whose collector does not depend on the order documents arrive in,
 * which is what {@link DenseScorer}'s is: its parts' best chunks merge in result order.
 */
final class PartitionedSearcher extends IndexSearcher {
  private final int parts;

  PartitionedSearcher(IndexReader reader, SearchConcurrency concurrency, int parts) {
    super(reader, concurrency.executor());
    this.parts = parts;
  }

  /**
   * Called lazily, on the first search (Lucene computes slices when first asked), so {@link #parts}
   * is set.
   */
  @Override
  protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
    assert parts > 0 : "slices computed before the constructor set parts";
    int docs = 0;
    for (LeafReaderContext leaf : leaves) {
      docs += leaf.reader().maxDoc();
    }
    int perPart = Math.max(1, (docs + parts - 1) / parts);
    return slices(leaves, perPart, Integer.MAX_VALUE, true);
  }
}
