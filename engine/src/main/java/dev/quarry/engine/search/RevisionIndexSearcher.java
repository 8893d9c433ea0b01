package dev.quarry.engine.search;

import dev.quarry.engine.revision.RevisionView;
import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;

/**
 * An IndexSearcher over a revision's visible chunks that scores with the revision's statistics
 * instead of Lucene's, which count every retained version. Cheap to create; one per search.
 */
final class RevisionIndexSearcher extends IndexSearcher {
  private final RevisionView view;

  RevisionIndexSearcher(RevisionView view, Similarity similarity) {
    super(view.reader());
    this.view = view;
    setSimilarity(similarity);
  }

  RevisionView view() {
    return view;
  }

  /** Ignores Lucene's figures (all versions) and answers with the revision's. */
  @Override
  public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq) throws IOException {
    return view.termStatistics(term);
  }

  @Override
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    return view.collectionStatistics(field);
  }
}
