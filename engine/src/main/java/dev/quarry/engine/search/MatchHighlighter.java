package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.search.uhighlight.WholeBreakIterator;

/**
 * Lucene's UnifiedHighlighter over the offsets stored in the text postings (no re-analysis), with
 * the whole chunk as one passage and {@link MatchOffsetsFormatter} returning every match's range.
 * One per search: it is bound to the searcher of the searched revision.
 */
final class MatchHighlighter extends UnifiedHighlighter {
  private static final String[] FIELDS = {Fields.TEXT};
  private static final int[] ONE_PASSAGE = {1};

  MatchHighlighter(IndexSearcher searcher, Analyzer analyzer) {
    super(UnifiedHighlighter.builder(searcher, analyzer)
        .withBreakIterator(WholeBreakIterator::new)
        .withFormatter(new MatchOffsetsFormatter())
        // Chunks are highlighted whole, however long; the default stops at 10,000 characters.
        .withMaxLength(Integer.MAX_VALUE - 1)
        .withMaxNoHighlightPassages(0));
  }

  /** For each of {@code docs}, the ranges of every match of {@code textQuery} in its text (empty when none). */
  List<List<int[]>> matches(Query textQuery, int[] docs) throws IOException {
    Map<String, Object[]> byField = highlightFieldsAsObjects(FIELDS, textQuery, docs, ONE_PASSAGE);
    Object[] perDoc = byField.get(Fields.TEXT);
    List<List<int[]>> out = new ArrayList<>(docs.length);
    for (int i = 0; i < docs.length; i++) {
      Object value = perDoc == null ? null : perDoc[i];
      @SuppressWarnings("unchecked")
      List<int[]> ranges = value == null ? List.of() : (List<int[]>) value;
      out.add(ranges);
    }
    return out;
  }
}
