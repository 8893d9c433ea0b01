package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;

/**
 * How one search scores: its terms in a fixed (byte) order, each scored with BM25F over the
 * combined fields ({@link CombinedFields}) by a scorer built from the revision's combined
 * statistics ({@link CombinedStatistics}), and the Lucene query that finds candidates with the same
 * per-term scores. A term no counted chunk contains in any field is left out: it could add nothing
 * to any score.
 */
final class ScoringPlan {
  private final CombinedFields fields;
  private final List<ScoringTerm> terms;

  private ScoringPlan(CombinedFields fields, List<ScoringTerm> terms) {
    this.fields = fields;
    this.terms = List.copyOf(terms);
  }

  /**
   * One query term with its weight (how often the query holds it) and its BM25F scorer at the
   * searched revision.
   *
   * @param inText whether a counted chunk holds it in its text: only those can be highlighted
   */
  record ScoringTerm(BytesRef bytes, float boost, Similarity.SimScorer scorer, boolean inText) {}

  /** Builds the plan of {@code terms} over {@code fields} at the searcher's revision. */
  static ScoringPlan build(RevisionIndexSearcher searcher, CombinedFields fields, QueryTerms terms)
      throws IOException {
    CollectionStatistics collection = CombinedStatistics.collection(searcher.statistics(), fields);
    if (collection == null) {
      return new ScoringPlan(fields, List.of());
    }
    List<ScoringTerm> scored = new ArrayList<>();
    for (QueryTerms.QueryTerm queryTerm : terms.terms()) {
      TermStatistics combined =
          CombinedStatistics.term(searcher.statistics(), fields, queryTerm.bytes());
      if (combined != null) {
        float boost = queryTerm.occurrences();
        boolean inText =
            searcher.statistics().termStatistics(new Term(Fields.TEXT, queryTerm.bytes())) != null;
        scored.add(
            new ScoringTerm(
                queryTerm.bytes(),
                boost,
                fields.similarity().scorer(boost, collection, combined),
                inText));
      }
    }
    return new ScoringPlan(fields, scored);
  }

  CombinedFields fields() {
    return fields;
  }

  List<ScoringTerm> terms() {
    return terms;
  }

  boolean isEmpty() {
    return terms.isEmpty();
  }

  /**
   * The disjunction of one combined-field query per term, restricted by {@code filters}. Lucene
   * scores each term exactly as {@link #terms()} does (the searcher supplies the revision's
   * per-field statistics, which the query merges as {@link CombinedStatistics} does); only the
   * order in which it adds the terms' scores up may differ.
   */
  Query query(List<Query> filters) {
    BooleanQuery.Builder disjunction = new BooleanQuery.Builder();
    for (ScoringTerm term : terms) {
      Query query = fields.query(term.bytes());
      disjunction.add(
          term.boost() == 1f ? query : new BoostQuery(query, term.boost()),
          BooleanClause.Occur.SHOULD);
    }
    if (filters.isEmpty()) {
      return disjunction.build();
    }
    BooleanQuery.Builder filtered = new BooleanQuery.Builder();
    filtered.add(disjunction.build(), BooleanClause.Occur.MUST);
    for (Query filter : filters) {
      filtered.add(filter, BooleanClause.Occur.FILTER);
    }
    return filtered.build();
  }

  /**
   * The terms some visible chunk holds in its text: the only matches that can be marked in a
   * chunk's text.
   */
  List<BytesRef> textTerms() {
    List<BytesRef> inText = new ArrayList<>(terms.size());
    for (ScoringTerm term : terms) {
      if (term.inText()) {
        inText.add(term.bytes());
      }
    }
    return inText;
  }
}
