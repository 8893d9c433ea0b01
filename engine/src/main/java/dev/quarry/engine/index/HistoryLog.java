package dev.quarry.engine.index;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopDocs;

/** Reads pages of a corpus's history: entries in revision order, never splitting a revision. */
final class HistoryLog {
  private static final Sort ORDER =
      new Sort(
          new SortField(Fields.HISTORY_REV, SortField.Type.LONG),
          new SortField(Fields.HISTORY_ORD, SortField.Type.LONG));
  private static final int FETCH = 256;

  private HistoryLog() {}

  static HistoryPage page(
      DirectoryReader latest, long oldestRetained, long after, int limit, Predicate<String> visible)
      throws IOException {
    if (after < 0) {
      throw QuarryException.invalid("after", "after must be 0 or more; got " + after);
    }
    if (after < oldestRetained - 1) {
      throw new QuarryException(
          ErrorCode.CURSOR_EXPIRED,
          "history after revision "
              + after
              + " is no longer retained; the oldest retained revision is "
              + oldestRetained);
    }
    IndexSearcher searcher = new IndexSearcher(latest);
    var query = LongPoint.newRangeQuery(Fields.HISTORY_REV, after + 1, Long.MAX_VALUE);
    List<HistoryEntry> entries = new ArrayList<>();
    ScoreDoc last = null;
    Long lastRevision = null;
    while (true) {
      TopDocs top =
          last == null
              ? searcher.search(query, FETCH, ORDER)
              : searcher.searchAfter(last, query, FETCH, ORDER);
      if (top.scoreDocs.length == 0) {
        return new HistoryPage(entries, null);
      }
      for (ScoreDoc sd : top.scoreDocs) {
        last = sd;
        long revision = (Long) ((FieldDoc) sd).fields[0];
        boolean full = entries.size() >= limit;
        if (full && (lastRevision == null || revision != lastRevision)) {
          // A page never splits a revision; another entry lies beyond this one only if visible.
          Document d = searcher.storedFields().document(sd.doc);
          if (visible.test(d.get(Fields.HISTORY_SOURCE))) {
            return new HistoryPage(entries, lastRevision);
          }
          continue;
        }
        Document d = searcher.storedFields().document(sd.doc);
        String source = d.get(Fields.HISTORY_SOURCE);
        if (!visible.test(source)) {
          continue;
        }
        entries.add(toEntry(d));
        lastRevision = revision;
      }
      if (top.scoreDocs.length < FETCH) {
        return new HistoryPage(entries, null);
      }
    }
  }

  private static HistoryEntry toEntry(Document d) {
    IndexableField rev = d.getField(Fields.HISTORY_REV);
    return new HistoryEntry(
        rev.numericValue().longValue(),
        d.get(Fields.HISTORY_OP),
        d.get(Fields.HISTORY_SOURCE),
        d.get(Fields.HISTORY_SHA256),
        d.get(Fields.HISTORY_SUBJECT),
        Instant.ofEpochMilli(d.getField(Fields.HISTORY_AT).numericValue().longValue()));
  }
}
