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
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;

/**
 * How one search scores: its clauses in a fixed order (text clauses, then title clauses, each in
 * term order), each with the BM25 scorer built from the revision's statistics, and the Lucene query
 * that finds candidates with the same per-clause scores. A term no visible chunk contains is left
 * out: it could add nothing to any score.
 */
final class ScoringPlan {
  private final List<ScoringClause> clauses;

  private ScoringPlan(List<ScoringClause> clauses) {
    this.clauses = List.copyOf(clauses);
  }

  /** One weighted term of one field, with its scorer at the searched revision. */
  record ScoringClause(Term term, float boost, Similarity.SimScorer scorer) {}

  /**
   * Builds the plan of {@code terms} at the searcher's revision; title clauses weigh
   * {@code titleWeight} each, and are left out when it is 0.
   */
  static ScoringPlan build(RevisionIndexSearcher searcher, Similarity similarity, QueryTerms terms,
      double titleWeight) throws IOException {
    List<ScoringClause> clauses = new ArrayList<>();
    addField(searcher, similarity, terms, Fields.TEXT, 1f, clauses);
    if (titleWeight > 0) {
      addField(searcher, similarity, terms, Fields.TITLE, (float) titleWeight, clauses);
    }
    return new ScoringPlan(clauses);
  }

  private static void addField(RevisionIndexSearcher searcher, Similarity similarity, QueryTerms terms,
      String field, float weight, List<ScoringClause> out) throws IOException {
    CollectionStatistics fieldStats = searcher.view().collectionStatistics(field);
    if (fieldStats == null) {
      return;
    }
    for (QueryTerms.QueryTerm queryTerm : terms.terms()) {
      Term term = new Term(field, queryTerm.bytes());
      TermStatistics termStats = searcher.view().termStatistics(term);
      if (termStats != null) {
        float boost = weight * queryTerm.occurrences();
        out.add(new ScoringClause(term, boost, similarity.scorer(boost, fieldStats, termStats)));
      }
    }
  }

  List<ScoringClause> clauses() {
    return clauses;
  }

  boolean isEmpty() {
    return clauses.isEmpty();
  }

  /**
   * The disjunction of every clause, restricted by {@code filters}. Lucene scores each clause with
   * the same scorer as {@link #clauses()} (the searcher supplies the revision's statistics); only
   * the order in which it adds them up may differ.
   */
  Query query(List<Query> filters) {
    BooleanQuery.Builder disjunction = new BooleanQuery.Builder();
    for (ScoringClause clause : clauses) {
      Query query = new TermQuery(clause.term());
      disjunction.add(clause.boost() == 1f ? query : new BoostQuery(query, clause.boost()),
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

  /** The text clauses alone, for highlighting: the only matches that can be marked in a chunk's text. */
  Query textQuery() {
    BooleanQuery.Builder disjunction = new BooleanQuery.Builder();
    for (ScoringClause clause : clauses) {
      if (clause.term().field().equals(Fields.TEXT)) {
        disjunction.add(new TermQuery(clause.term()), BooleanClause.Occur.SHOULD);
      }
    }
    return disjunction.build();
  }
}
