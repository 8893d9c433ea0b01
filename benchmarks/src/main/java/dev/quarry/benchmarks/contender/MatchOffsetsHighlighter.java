package dev.quarry.benchmarks.contender;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.search.uhighlight.WholeBreakIterator;

/**
 * A UnifiedHighlighter that returns, for each hit, the {@code [start, end)} offsets of every match
 * in the whole field (one passage spanning the text, offsets read from the postings): what a search
 * response's {@code highlights} hold. Not thread-safe; one per search.
 */
final class MatchOffsetsHighlighter extends UnifiedHighlighter {
  /**
   * Chunks are a few thousand characters (250 words); this never cuts one short. Not
   * Integer.MAX_VALUE: the highlighter sizes buffers by it.
   */
  private static final int MAX_LENGTH = 1 << 20;

  MatchOffsetsHighlighter(IndexSearcher searcher, Analyzer analyzer) {
    super(
        UnifiedHighlighter.builder(searcher, analyzer)
            .withBreakIterator(WholeBreakIterator::new)
            .withMaxLength(MAX_LENGTH)
            .withMaxNoHighlightPassages(0)
            .withFormatter(new MatchOffsetsFormatter()));
  }

  /** The match offsets in {@code field} of each doc in {@code docIds}, in the same order. */
  @SuppressWarnings("unchecked")
  List<int[]>[] matches(String field, Query query, int[] docIds) throws IOException {
    Object[] perDoc =
        highlightFieldsAsObjects(new String[] {field}, query, docIds, new int[] {1}).get(field);
    List<int[]>[] matches = new List[docIds.length];
    for (int i = 0; i < docIds.length; i++) {
      matches[i] = perDoc[i] == null ? List.of() : (List<int[]>) perDoc[i];
    }
    return matches;
  }

  private static final class MatchOffsetsFormatter extends PassageFormatter {
    @Override
    public Object format(Passage[] passages, String content) {
      List<int[]> offsets = new ArrayList<>();
      for (Passage passage : passages) {
        int[] starts = passage.getMatchStarts();
        int[] ends = passage.getMatchEnds();
        for (int m = 0; m < passage.getNumMatches(); m++) {
          offsets.add(new int[] {starts[m], ends[m]});
        }
      }
      return offsets;
    }
  }
}
