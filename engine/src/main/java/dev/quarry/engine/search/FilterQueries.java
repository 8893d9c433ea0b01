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
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Turns a search's source scope and metadata filters into non-scoring Lucene queries, so they
 * narrow the matches inside Lucene rather than dropping hits after the top-k.
 */
final class FilterQueries {
  private FilterQueries() {}

  /** The queries every result must match: one for the scope (unless it is everything), one per filter. */
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

  /** Exact ids as one term set, each {@code prefix*} as a prefix query (only called for a restricting scope). */
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
    };
  }

  /** Strings and booleans are indexed as terms (each list element too), numbers as double points. */
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

  /** Exclusive bounds become the next representable double inward; a bound set twice takes the tighter. */
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
