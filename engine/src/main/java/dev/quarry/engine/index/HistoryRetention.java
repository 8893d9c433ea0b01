package dev.quarry.engine.index;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Which history entries a corpus keeps past retention, and what a purge asks of them.
 *
 * <p>Entries older than the oldest retained revision are never read (history cursors below it are
 * {@code CURSOR_EXPIRED}) and are pruned, except each source's latest entry unless that is a purge:
 * a purge of a source with no live version is {@code DELETED} exactly when its latest entry is not
 * a purge ({@link #hasUnpurgedHistory}), so that answer depends on the history alone, never on when
 * pruning ran, and is the one the cluster store (which never prunes history) gives. A source
 * deleted long ago thus keeps one invisible entry until it is written again or purged.
 */
final class HistoryRetention {
  private static final Sort NEWEST_FIRST =
      new Sort(new SortField(Fields.HISTORY_REV, SortField.Type.LONG, true));
  private static final Set<String> SOURCE_AND_OPERATION =
      Set.of(Fields.HISTORY_SOURCE, Fields.HISTORY_OP);

  private HistoryRetention() {}

  /** Whether {@code source} has a history entry and its latest one is not a purge. */
  static boolean hasUnpurgedHistory(DirectoryReader latest, String source) throws IOException {
    IndexSearcher searcher = new IndexSearcher(latest);
    TopDocs top =
        searcher.search(new TermQuery(new Term(Fields.HISTORY_SOURCE, source)), 1, NEWEST_FIRST);
    if (top.scoreDocs.length == 0) {
      return false;
    }
    return !"purge"
        .equals(
            searcher
                .storedFields()
                .document(top.scoreDocs[0].doc, SOURCE_AND_OPERATION)
                .get(Fields.HISTORY_OP));
  }

  /** A source's newest entry among those being pruned. */
  private record Newest(long revision, boolean purge) {}

  /**
   * Deletes the history entries below {@code oldest} that {@code latest} holds from revision {@code
   * from} on, and every older entry of their sources, except each such source's newest one below
   * {@code oldest} unless it is a purge. Entries below {@code from} were pruned before (only kept
   * newest entries are left of them); a kept entry goes once a newer one of its source is pruned.
   */
  static void prune(IndexWriter writer, DirectoryReader latest, long from, long oldest)
      throws IOException {
    if (from >= oldest) {
      return;
    }
    Map<String, Newest> newest = newestPerSource(latest, from, oldest);
    for (Map.Entry<String, Newest> e : newest.entrySet()) {
      Newest n = e.getValue();
      // Strictly older entries always go; the newest too when it is a purge.
      long upTo = n.purge() ? n.revision() : n.revision() - 1;
      writer.deleteDocuments(
          new BooleanQuery.Builder()
              .add(
                  new TermQuery(new Term(Fields.HISTORY_SOURCE, e.getKey())),
                  BooleanClause.Occur.FILTER)
              .add(
                  LongPoint.newRangeQuery(Fields.HISTORY_REV, Long.MIN_VALUE, upTo),
                  BooleanClause.Occur.FILTER)
              .build());
    }
  }

  /** Per source, the newest entry with a revision in [{@code from}, {@code oldest}). */
  private static Map<String, Newest> newestPerSource(DirectoryReader latest, long from, long oldest)
      throws IOException {
    IndexSearcher searcher = new IndexSearcher(latest);
    Weight weight =
        searcher.createWeight(
            searcher.rewrite(LongPoint.newRangeQuery(Fields.HISTORY_REV, from, oldest - 1)),
            ScoreMode.COMPLETE_NO_SCORES,
            1f);
    Map<String, Newest> newest = new HashMap<>();
    for (LeafReaderContext ctx : latest.leaves()) {
      Scorer scorer = weight.scorer(ctx);
      if (scorer == null) {
        continue;
      }
      Bits live = ctx.reader().getLiveDocs();
      NumericDocValues revisions = ctx.reader().getNumericDocValues(Fields.HISTORY_REV);
      StoredFields stored = ctx.reader().storedFields();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if ((live != null && !live.get(doc)) || revisions == null || !revisions.advanceExact(doc)) {
          continue;
        }
        long revision = revisions.longValue();
        Document d = stored.document(doc, SOURCE_AND_OPERATION);
        newest.merge(
            d.get(Fields.HISTORY_SOURCE),
            new Newest(revision, "purge".equals(d.get(Fields.HISTORY_OP))),
            (a, b) -> a.revision() >= b.revision() ? a : b);
      }
    }
    return newest;
  }
}
