package dev.quarry.engine.search;

import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * Counts metadata values over every chunk a search matches (not only the returned ones): for each
 * value, the number of distinct sources with at least one matching chunk that holds it.
 *
 * <p>It reads the index a filter reads, so a value it reports, used as an equality filter, selects
 * exactly the sources it counted: strings, booleans and list elements from the field's terms,
 * numbers from its points. Nothing needs doc values, so corpora written before facets existed count
 * the same. Counts depend only on which chunks are visible at the searched revision, never on
 * segment layout, and the order of values is total (count, then value), so an answer at a revision
 * is the same every time.
 *
 * <p>Cost: one pass over the matches, then per field one pass over its postings and points in each
 * segment; memory grows with (value, source) pairs among the matches. One per search; not
 * thread-safe.
 */
final class FacetCounter {
  private final RevisionIndexSearcher searcher;

  /** Per segment (by leaf ordinal): the matching chunks, or null when none. */
  private final FixedBitSet[] matches;

  /** Per segment: each matching chunk's source as a number shared by all segments. */
  private final int[][] sourceOf;

  private FacetCounter(RevisionIndexSearcher searcher, FixedBitSet[] matches, int[][] sourceOf) {
    this.searcher = searcher;
    this.matches = matches;
    this.sourceOf = sourceOf;
  }

  /**
   * The counts of {@code facets} over the chunks {@code matching} finds, in the request's order.
   */
  static List<FacetCounts> count(
      RevisionIndexSearcher searcher, Query matching, List<SearchRequest.Facet> facets)
      throws IOException {
    if (facets.isEmpty()) {
      return List.of();
    }
    FacetCounter counter = matching == null ? empty(searcher) : collect(searcher, matching);
    List<FacetCounts> out = new ArrayList<>(facets.size());
    for (SearchRequest.Facet facet : facets) {
      out.add(counter.countField(facet));
    }
    return out;
  }

  private static FacetCounter empty(RevisionIndexSearcher searcher) {
    int leaves = searcher.getIndexReader().leaves().size();
    return new FacetCounter(searcher, new FixedBitSet[leaves], new int[leaves][]);
  }

  private static FacetCounter collect(RevisionIndexSearcher searcher, Query matching)
      throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    FixedBitSet[] matches = new FixedBitSet[leaves.size()];
    searcher.search(
        matching,
        new CollectorManager<MatchCollector, Void>() {
          @Override
          public MatchCollector newCollector() {
            return new MatchCollector(matches);
          }

          @Override
          public Void reduce(Collection<MatchCollector> collectors) {
            return null;
          }
        });
    Map<BytesRef, Integer> sourceIds = new HashMap<>();
    int[][] sourceOf = new int[leaves.size()][];
    for (LeafReaderContext context : leaves) {
      FixedBitSet bits = matches[context.ord];
      if (bits == null) {
        continue;
      }
      SortedDocValues sources = context.reader().getSortedDocValues(Fields.SOURCE);
      int[] ordToId = new int[sources == null ? 0 : sources.getValueCount()];
      Arrays.fill(ordToId, -1);
      int[] ids = new int[context.reader().maxDoc()];
      for (int doc = bits.nextSetBit(0);
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc =
              doc + 1 < bits.length() ? bits.nextSetBit(doc + 1) : DocIdSetIterator.NO_MORE_DOCS) {
        if (sources == null || !sources.advanceExact(doc)) {
          throw new IllegalStateException("chunk document without a source");
        }
        int ord = sources.ordValue();
        if (ordToId[ord] < 0) {
          ordToId[ord] =
              sourceIds.computeIfAbsent(
                  BytesRef.deepCopyOf(sources.lookupOrd(ord)), s -> sourceIds.size());
        }
        ids[doc] = ordToId[ord];
      }
      sourceOf[context.ord] = ids;
    }
    return new FacetCounter(searcher, matches, sourceOf);
  }

  private FacetCounts countField(SearchRequest.Facet facet) throws IOException {
    List<Object> values = new ArrayList<>();
    Map<Object, Integer> valueIds = new HashMap<>();
    Pairs pairs = new Pairs();
    for (LeafReaderContext context : searcher.getIndexReader().leaves()) {
      FixedBitSet bits = matches[context.ord];
      if (bits == null) {
        continue;
      }
      int[] sources = sourceOf[context.ord];
      LeafReader leaf = context.reader();
      Terms terms = leaf.terms(Fields.META_TERM_PREFIX + facet.field());
      if (terms != null) {
        TermsEnum te = terms.iterator();
        PostingsEnum postings = null;
        for (BytesRef term = te.next(); term != null; term = te.next()) {
          postings = te.postings(postings, PostingsEnum.NONE);
          int id = -1;
          for (int doc = postings.nextDoc();
              doc != PostingsEnum.NO_MORE_DOCS;
              doc = postings.nextDoc()) {
            if (bits.get(doc)) {
              if (id < 0) {
                id = idOf(BytesRef.deepCopyOf(term), values, valueIds);
              }
              pairs.add(id, sources[doc]);
            }
          }
        }
      }
      PointValues points = leaf.getPointValues(Fields.META_NUMBER_PREFIX + facet.field());
      if (points != null) {
        points.intersect(
            new PointValues.IntersectVisitor() {
              @Override
              public void visit(int doc) {
                throw new AssertionError("every cell crosses: values are always visited");
              }

              @Override
              public void visit(int doc, byte[] packedValue) {
                if (bits.get(doc)) {
                  pairs.add(
                      idOf(DoublePoint.decodeDimension(packedValue, 0), values, valueIds),
                      sources[doc]);
                }
              }

              @Override
              public PointValues.Relation compare(byte[] minPackedValue, byte[] maxPackedValue) {
                return PointValues.Relation.CELL_CROSSES_QUERY;
              }
            });
      }
    }
    long[] counts = pairs.distinctCountsPerValue(values.size());
    return FacetRanking.rank(facet.field(), values, counts, facet.size());
  }

  private static int idOf(Object value, List<Object> values, Map<Object, Integer> ids) {
    Integer id = ids.get(value);
    if (id == null) {
      id = values.size();
      ids.put(value, id);
      values.add(value);
    }
    return id;
  }

  /** (value, source) pairs, possibly repeated, as longs; distinct pairs are counted per value. */
  private static final class Pairs {
    private long[] pairs = new long[64];
    private int size;

    void add(int value, int source) {
      if (size == pairs.length) {
        pairs = Arrays.copyOf(pairs, size * 2);
      }
      pairs[size++] = ((long) value << 32) | source;
    }

    long[] distinctCountsPerValue(int values) {
      Arrays.sort(pairs, 0, size);
      long[] counts = new long[values];
      for (int i = 0; i < size; i++) {
        if (i == 0 || pairs[i] != pairs[i - 1]) {
          counts[(int) (pairs[i] >>> 32)]++;
        }
      }
      return counts;
    }
  }

  /**
   * Marks every match of the segments it visits in their bit sets; each segment is visited by one
   * collector.
   */
  private static final class MatchCollector extends SimpleCollector {
    private final FixedBitSet[] matches;
    private FixedBitSet current;

    MatchCollector(FixedBitSet[] matches) {
      this.matches = matches;
    }

    @Override
    public ScoreMode scoreMode() {
      return ScoreMode.COMPLETE_NO_SCORES;
    }

    @Override
    protected void doSetNextReader(LeafReaderContext context) {
      current = new FixedBitSet(Math.max(1, context.reader().maxDoc()));
      matches[context.ord] = current;
    }

    @Override
    public void collect(int doc) {
      current.set(doc);
    }
  }
}
