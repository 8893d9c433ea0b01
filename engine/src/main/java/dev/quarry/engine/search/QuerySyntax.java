package dev.quarry.engine.search;

import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.index.Fields;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.QueryBuilder;

/**
 * A query string read in one of the two syntaxes: what it scores and what it requires.
 *
 * <p>{@link SearchRequest.Syntax#PLAIN} reads every character as text: the query scores as written
 * and requires nothing. {@link SearchRequest.Syntax#OPERATORS} also reads three operators: {@code
 * "a phrase"} (the chunk must hold the words in that order, in its text or its title), {@code
 * +word} (must hold the word) and {@code -word} or {@code -"a phrase"} (must not hold it). A {@code
 * +} or {@code -} is an operator only at the start of the query or after white space and directly
 * before a word or a quote ({@code well-known}, {@code C++} and {@code a - b} are text); a quote
 * without its closing quote is ignored. Operators only decide which chunks match: the score is
 * BM25F over every word that is not excluded (phrase and required words included), exactly as the
 * plain syntax scores the same words, so scores stay exact and reproducible.
 *
 * <p>Public for its reading of the query ({@link #clauses}), which every store shares so that a
 * query means the same on each.
 *
 * @param scoringText the words that score (and that a semantic search embeds)
 * @param constraints non-scoring queries every match must satisfy (each one a filter clause)
 */
public record QuerySyntax(String scoringText, List<Query> constraints) {
  /**
   * Operators honoured in one query; further ones are read as plain words. Each becomes two phrase
   * queries (text and title), and the bound keeps a query with every filter under Lucene's 1024
   * clauses.
   */
  public static final int MAX_OPERATORS = 32;

  public QuerySyntax {
    constraints = List.copyOf(constraints);
  }

  static QuerySyntax of(SearchRequest request, List<Analyzer> analyzers) {
    if (request.syntax() != SearchRequest.Syntax.OPERATORS) {
      return new QuerySyntax(request.query(), List.of());
    }
    return parse(request.query(), analyzers);
  }

  /** What a clause of the query does. */
  public enum Occur {
    SHOULD,
    MUST,
    MUST_NOT
  }

  /** One word or phrase of the query, with its operator. */
  public record Clause(Occur occur, String text, boolean phrase) {}

  /** The clauses of {@code query} in the operator syntax, in order. Never fails. */
  public static List<Clause> clauses(String query) {
    List<Clause> out = new ArrayList<>();
    int operators = 0;
    int i = 0;
    int n = query.length();
    while (i < n) {
      if (Character.isWhitespace(query.charAt(i))) {
        i++;
        continue;
      }
      Occur occur = Occur.SHOULD;
      char c = query.charAt(i);
      if ((c == '+' || c == '-')
          && i + 1 < n
          && !Character.isWhitespace(query.charAt(i + 1))
          && operators < MAX_OPERATORS) {
        occur = c == '+' ? Occur.MUST : Occur.MUST_NOT;
        i++;
      }
      if (query.charAt(i) == '"') {
        int close = query.indexOf('"', i + 1);
        if (close >= 0 && (occur != Occur.SHOULD || operators < MAX_OPERATORS)) {
          out.add(
              new Clause(
                  occur == Occur.SHOULD ? Occur.MUST : occur, query.substring(i + 1, close), true));
          operators++;
          i = close + 1;
          continue;
        }
        i++; // an unbalanced quote (or one past the bound) is ignored; what follows is read as
        // words
        if (i >= n || Character.isWhitespace(query.charAt(i))) {
          continue;
        }
      }
      int end = i;
      while (end < n && !Character.isWhitespace(query.charAt(end))) {
        end++;
      }
      if (occur != Occur.SHOULD) {
        operators++;
      }
      out.add(new Clause(occur, query.substring(i, end), false));
      i = end;
    }
    return out;
  }

  static QuerySyntax parse(String query, Analyzer analyzer) {
    return parse(query, List.of(analyzer));
  }

  /**
   * As {@link #parse(String, Analyzer)}, with a phrase or word matched as any of {@code analyzers}
   * reads it (an auto corpus's languages: a chunk holds the terms of its own language only).
   */
  static QuerySyntax parse(String query, List<Analyzer> analyzers) {
    StringBuilder scoring = new StringBuilder();
    List<Query> constraints = new ArrayList<>();
    List<QueryBuilder> builders = analyzers.stream().map(QueryBuilder::new).toList();
    for (Clause clause : clauses(query)) {
      if (clause.occur() != Occur.MUST_NOT) {
        scoring.append(scoring.isEmpty() ? "" : " ").append(clause.text());
      }
      if (clause.occur() == Occur.SHOULD) {
        continue;
      }
      Query inTextOrTitle = inTextOrTitle(builders, clause.text());
      if (inTextOrTitle == null) {
        continue; // no word the analyzer keeps (stop words, punctuation): nothing to require or
        // exclude
      }
      constraints.add(
          clause.occur() == Occur.MUST ? inTextOrTitle : FilterQueries.not(inTextOrTitle));
    }
    return new QuerySyntax(scoring.toString(), constraints);
  }

  /**
   * The words of {@code text} in order in the text or the title, as any of the builders reads them;
   * null without words.
   */
  private static Query inTextOrTitle(List<QueryBuilder> builders, String text) {
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    Query only = null;
    int found = 0;
    for (QueryBuilder builder : builders) {
      Query q = inTextOrTitle(builder, text);
      if (q != null) {
        any.add(q, BooleanClause.Occur.SHOULD);
        only = q;
        found++;
      }
    }
    return found <= 1 ? only : any.build();
  }

  /**
   * The words of {@code text} in order (stop words leave their gap) in the text or the title; null
   * without words.
   */
  private static Query inTextOrTitle(QueryBuilder builder, String text) {
    Query inText = builder.createPhraseQuery(Fields.TEXT, text);
    Query inTitle = builder.createPhraseQuery(Fields.TITLE, text);
    if (inText == null) {
      return null;
    }
    return new BooleanQuery.Builder()
        .add(inText, BooleanClause.Occur.SHOULD)
        .add(inTitle, BooleanClause.Occur.SHOULD)
        .build();
  }
}
