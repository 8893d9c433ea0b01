package dev.quarry.engine.search;

import dev.quarry.engine.revision.RevisionStatistics;
import dev.quarry.engine.revision.RevisionView;
import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;

/**
 * An IndexSearcher over a revision's visible chunks that scores with the revision's statistics
 * instead of Lucene's, which count every retained version: those of every visible chunk, or of the
 * visible chunks of the caller's granted sources only. Cheap to create; one per search.
 */
final class RevisionIndexSearcher extends IndexSearcher {
  private final RevisionView view;
  private final RevisionStatistics statistics;

  RevisionIndexSearcher(RevisionView view, RevisionStatistics statistics, Similarity similarity) {
    super(view.reader());
    this.view = view;
    this.statistics = statistics;
    setSimilarity(similarity);
  }

  RevisionView view() {
    return view;
  }

  /** The statistics this search scores with. */
  RevisionStatistics statistics() {
    return statistics;
  }

  /**
   * Ignores Lucene's figures (all versions) and answers with the revision's. A term that Lucene
   * finds but no counted chunk holds (only superseded versions, or sources outside the statistics,
   * do) gets the least statistics allowed, one document: the combined-field query asks for every
   * field of a term the plan kept, and takes the largest document frequency, which a field where
   * the term is visible always reaches, so the placeholder never changes a score.
   */
  @Override
  public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
      throws IOException {
    TermStatistics visible = statistics.termStatistics(term);
    return visible != null ? visible : new TermStatistics(term.bytes(), 1, 1);
  }

  @Override
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    return statistics.collectionStatistics(field);
  }
}
