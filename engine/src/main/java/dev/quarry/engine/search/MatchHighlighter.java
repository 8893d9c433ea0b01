package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageScorer;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.search.uhighlight.WholeBreakIterator;

/**
 * Lucene's UnifiedHighlighter over the offsets stored in the text postings (no re-analysis), with
 * the whole chunk as one passage and {@link MatchOffsetsFormatter} returning every match's range.
 * The chunk texts come from the caller, who has read them already, so stored fields are read
 * once per hit. One per search and not thread-safe: it is bound to the searched revision.
 */
final class MatchHighlighter extends UnifiedHighlighter {
  /**
   * Scores the one passage of a chunk without looking at it: there is nothing to choose between.
   * Lucene's scorer would fill a fresh 32 KB term hash for every highlighted chunk.
   */
  private static final PassageScorer ONLY_PASSAGE = new PassageScorer() {
    @Override
    public float score(Passage passage, int contentLength) {
      return 1f;
    }
  };

  private Map<Integer, String> texts = Map.of();

  MatchHighlighter(IndexSearcher searcher, Analyzer analyzer) {
    super(UnifiedHighlighter.builder(searcher, analyzer)
        .withBreakIterator(WholeBreakIterator::new)
        .withFormatter(new MatchOffsetsFormatter())
        // Chunks are highlighted whole, however long; the default stops at 10,000 characters.
        .withMaxLength(Integer.MAX_VALUE - 1)
        .withMaxNoHighlightPassages(0)
        .withScorer(ONLY_PASSAGE));
  }

  /**
   * For each of {@code docs}, the ranges of every match of {@code textQuery} in its text (empty
   * when none); {@code texts} holds each doc's stored text.
   */
  List<List<int[]>> matches(Query textQuery, int[] docs, Map<Integer, String> texts) throws IOException {
    this.texts = texts;
    Map<String, Object[]> byField =
        highlightFieldsAsObjects(new String[] {Fields.TEXT}, textQuery, docs, new int[] {1});
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

  /**
   * The text field always indexes offsets in its postings. Saying so spares the highlighter its
   * default lookup, which merges the field infos of every segment on each search.
   */
  @Override
  protected OffsetSource getOffsetSource(String field) {
    return Fields.TEXT.equals(field) ? OffsetSource.POSTINGS : super.getOffsetSource(field);
  }

  /** Hands the highlighter the texts already read instead of reading stored fields again. */
  @Override
  protected List<CharSequence[]> loadFieldValues(String[] fields, DocIdSetIterator docs, int cacheCharsThreshold)
      throws IOException {
    List<CharSequence[]> values = new ArrayList<>();
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      CharSequence[] perField = new CharSequence[fields.length];
      for (int f = 0; f < fields.length; f++) {
        perField[f] = Fields.TEXT.equals(fields[f]) ? texts.get(doc) : null;
      }
      values.add(perField);
    }
    return values;
  }
}
