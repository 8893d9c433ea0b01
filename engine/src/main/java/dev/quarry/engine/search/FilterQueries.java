package dev.quarry.engine.search;

import dev.quarry.engine.Filter;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.Fields;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Turns a search's source scope and metadata filters into non-scoring Lucene queries, so they
 * narrow the matches inside Lucene rather than dropping hits after the top-k.
 */
final class FilterQueries {
  private FilterQueries() {}

  /**
   * The queries every result must match: one for the scope (unless it is everything), one per
   * filter.
   */
  static List<Query> of(SourceScope scope, List<Filter> filters) {
    List<Query> queries = new ArrayList<>(filters.size() + 1);
    if (!scope.isAll()) {
      queries.add(scope(scope));
    }
    for (Filter filter : filters) {
      queries.add(filter(filter));
    }
    return queries;
  }

  /**
   * Exact ids as one term set, each {@code prefix*} as a prefix query (only called for a
   * restricting scope).
   */
  static Query scope(SourceScope scope) {
    List<BytesRef> ids = new ArrayList<>();
    List<Query> anyOf = new ArrayList<>();
    for (String entry : scope.entries()) {
      if (entry.endsWith("*")) {
        anyOf.add(new PrefixQuery(new Term(Fields.SOURCE, entry.substring(0, entry.length() - 1))));
      } else {
        ids.add(new BytesRef(entry));
      }
    }
    if (!ids.isEmpty()) {
      anyOf.add(new TermInSetQuery(Fields.SOURCE, ids));
    }
    return anyOf(anyOf);
  }

  static Query filter(Filter filter) {
    return switch (filter) {
      case Filter.Equals equals -> equality(equals.field(), equals.value());
      case Filter.In in -> membership(in.field(), in.values());
      case Filter.Range range -> range(range);
      case Filter.Exists exists -> exists(exists.field());
      case Filter.Prefix prefix ->
          new PrefixQuery(new Term(Fields.META_TERM_PREFIX + prefix.field(), prefix.prefix()));
      case Filter.SectionPrefix section ->
          new TermQuery(new Term(Fields.SECTION_PATH, Fields.sectionPath(section.headings())));
      case Filter.AllOf all -> allOf(all.filters());
      case Filter.AnyOf any -> anyOf(any.filters().stream().map(FilterQueries::filter).toList());
      case Filter.Not not -> not(filter(not.filter()));
    };
  }

  /**
   * Any term of the field (strings, booleans, list elements) or any number. Neither kind of field
   * has norms or doc values, so Lucene's FieldExistsQuery cannot answer; an open range over each
   * can, and Lucene rewrites it to the field's postings or point tree.
   */
  private static Query exists(String field) {
    return anyOf(
        List.of(
            new TermRangeQuery(Fields.META_TERM_PREFIX + field, null, null, true, true),
            DoublePoint.newRangeQuery(
                Fields.META_NUMBER_PREFIX + field,
                Double.NEGATIVE_INFINITY,
                Double.POSITIVE_INFINITY)));
  }

  private static Query allOf(List<Filter> filters) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (Filter f : filters) {
      builder.add(filter(f), BooleanClause.Occur.FILTER);
    }
    return builder.build();
  }

  /**
   * Every visible chunk except those {@code excluded} matches. Lucene matches nothing with a
   * negative clause alone, so the positive side is every live document: the reader of a revision
   * has exactly the chunks visible at that revision live.
   */
  static Query not(Query excluded) {
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER)
        .add(excluded, BooleanClause.Occur.MUST_NOT)
        .build();
  }

  /**
   * Strings and booleans are indexed as terms (each list element too), numbers as double points.
   */
  private static Query equality(String field, Object value) {
    if (value instanceof Number number) {
      return DoublePoint.newExactQuery(Fields.META_NUMBER_PREFIX + field, number.doubleValue());
    }
    return new TermQuery(new Term(Fields.META_TERM_PREFIX + field, String.valueOf(value)));
  }

  private static Query membership(String field, List<Object> values) {
    List<BytesRef> terms = new ArrayList<>();
    List<Double> numbers = new ArrayList<>();
    for (Object value : values) {
      if (value instanceof Number number) {
        numbers.add(number.doubleValue());
      } else {
        terms.add(new BytesRef(String.valueOf(value)));
      }
    }
    List<Query> anyOf = new ArrayList<>(2);
    if (!terms.isEmpty()) {
      anyOf.add(new TermInSetQuery(Fields.META_TERM_PREFIX + field, terms));
    }
    if (!numbers.isEmpty()) {
      anyOf.add(DoublePoint.newSetQuery(Fields.META_NUMBER_PREFIX + field, numbers));
    }
    return anyOf(anyOf);
  }

  /**
   * Exclusive bounds become the next representable double inward; a bound set twice takes the
   * tighter.
   */
  static Query range(Filter.Range range) {
    double lower = Double.NEGATIVE_INFINITY;
    double upper = Double.POSITIVE_INFINITY;
    if (range.gte() != null) {
      lower = range.gte();
    }
    if (range.gt() != null) {
      lower = Math.max(lower, DoublePoint.nextUp(range.gt()));
    }
    if (range.lte() != null) {
      upper = range.lte();
    }
    if (range.lt() != null) {
      upper = Math.min(upper, DoublePoint.nextDown(range.lt()));
    }
    if (Double.isNaN(lower) || Double.isNaN(upper) || Double.compare(lower, upper) > 0) {
      return new MatchNoDocsQuery("empty range on " + range.field());
    }
    return DoublePoint.newRangeQuery(Fields.META_NUMBER_PREFIX + range.field(), lower, upper);
  }

  private static Query anyOf(List<Query> queries) {
    if (queries.isEmpty()) {
      return new MatchNoDocsQuery("no value to match");
    }
    if (queries.size() == 1) {
      return queries.get(0);
    }
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (Query query : queries) {
      builder.add(query, BooleanClause.Occur.SHOULD);
    }
    return builder.build();
  }
}
