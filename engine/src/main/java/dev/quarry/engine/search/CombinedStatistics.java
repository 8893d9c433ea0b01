package dev.quarry.engine.search;

import dev.quarry.engine.revision.RevisionStatistics;
import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.util.BytesRef;

/**
 * The statistics of the combined field at a revision, merged from the revision's per-field
 * statistics exactly as {@link org.apache.lucene.sandbox.search.CombinedFieldQuery} merges them, so
 * that Quarry's exact scores and Lucene's candidate scores share one idf and one average length:
 *
 * <ul>
 *   <li>a term's document frequency is the largest of its fields' (a lower bound of the chunks
 *       holding it in any field, which the idf takes as it is); its total frequency the weighted
 *       sum;
 *   <li>the document count and maxDoc are the largest of the fields'; the summed length is the
 *       weighted sum of the fields' summed lengths, truncated to a whole number after each field.
 * </ul>
 *
 * The per-field figures are the revision's over the chunks the search counts ({@link
 * RevisionStatistics}: every visible chunk, or those of the caller's granted sources), so the
 * merged ones depend on those chunks only, never on segment layout.
 */
final class CombinedStatistics {
  private CombinedStatistics() {}

  /**
   * The combined field's statistics at the view's revision, or null when no field has a visible
   * chunk.
   */
  static CollectionStatistics collection(RevisionStatistics view, CombinedFields fields)
      throws IOException {
    long maxDoc = 0;
    long docCount = 0;
    long sumDocFreq = 0;
    long sumTotalTermFreq = 0;
    for (CombinedFields.WeightedField field : fields.fields()) {
      CollectionStatistics stats = view.collectionStatistics(field.field());
      if (stats != null) {
        maxDoc = Math.max(maxDoc, stats.maxDoc());
        docCount = Math.max(docCount, stats.docCount());
        sumDocFreq = Math.max(sumDocFreq, stats.sumDocFreq());
        // long += double truncates after each field, as CombinedFieldQuery's sum does.
        sumTotalTermFreq += (double) field.weight() * stats.sumTotalTermFreq();
      }
    }
    return docCount == 0
        ? null
        : new CollectionStatistics("combined", maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
  }

  /**
   * The term's combined statistics at the view's revision, or null when no visible chunk has it in
   * any field.
   */
  static TermStatistics term(RevisionStatistics view, CombinedFields fields, BytesRef term)
      throws IOException {
    long docFreq = 0;
    long totalTermFreq = 0;
    for (CombinedFields.WeightedField field : fields.fields()) {
      TermStatistics stats = view.termStatistics(new Term(field.field(), term));
      if (stats != null) {
        docFreq = Math.max(docFreq, stats.docFreq());
        totalTermFreq += (double) field.weight() * stats.totalTermFreq();
      }
    }
    return docFreq == 0 ? null : new TermStatistics(term, docFreq, Math.max(1, totalTermFreq));
  }
}
