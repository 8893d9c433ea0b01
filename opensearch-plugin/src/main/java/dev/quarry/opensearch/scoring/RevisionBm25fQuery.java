package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

/**
 * BM25F over weighted fields with the statistics of one revision of a Quarry corpus, counted over
 * the documents that revision sees on every shard ({@link RevisionVisibility}), never the shard's
 * own (which count replaced and unpublished versions too, and differ between shards). A document's
 * score is a fixed function of its term frequencies, its norms and those statistics, computed in a
 * fixed order: each term's frequencies weighted and added field by field in the given field order,
 * scored against the document's combined norm, and the terms' scores added in the given term order
 * as a double, then rounded to a float. It is the arithmetic of Quarry's embedded store (its exact
 * scorer, combined norms and combined statistics), so the same chunk at the same revision gets the
 * same float on both stores; the stores' differential test holds the two to it.
 *
 * <p>The statistics travel as term statistics, the one thing OpenSearch sums over shards: asked of
 * the searcher with this shard's counts, they come back summed over every shard when the search
 * runs {@code dfs_query_then_fetch}; without that phase (an index of one shard) they come back as
 * they went, and this shard's counts are then the corpus's. Each is sent one above its count (the
 * searcher takes no zero), and a count of shards beside them says how much to take off again.
 *
 * <p>Given statistics sources (a caller's grants), the statistics count only the visible documents
 * of those sources, so a caller granted some sources scores as in a corpus holding only them.
 *
 * <p>Matches every document holding one of the terms in one of the fields: every such document
 * the revision sees when asked for {@code visibleOnly} (the visibility the statistics were counted
 * over, so the caller needs no filter of its own), else every one, and the caller filters the
 * revision. Once the collector has a score a document must reach, a document that holds only terms
 * whose largest possible scores add up to less is skipped unscored (MaxScore): it could not be
 * collected, so the answer is the same as when every match is scored.
 */
public final class RevisionBm25fQuery extends Query {
  /** Lengths as BM25 decodes them, by norm byte. */
  private static final float[] LENGTH_TABLE = new float[256];
  /** Stand-ins for statistics in the searcher's term statistics; no Quarry term holds U+0000. */
  static final BytesRef SHARDS = new BytesRef("\u0000quarry:shards");
  static final BytesRef LENGTHS = new BytesRef("\u0000quarry:lengths");

  static {
    for (int i = 0; i < 256; i++) {
      LENGTH_TABLE[i] = SmallFloat.byte4ToInt((byte) i);
    }
  }

  /** One scored field and the weight of one of its words. */
  public record WeightedField(String name, float weight) {
    public WeightedField {
      Objects.requireNonNull(name, "name");
      if (!(weight >= 1f) || Float.isInfinite(weight)) {
        throw new IllegalArgumentException("field weight must be finite and at least 1, got " + weight);
      }
    }
  }

  /** One query term and its weight (how often the query holds it). */
  public record BoostedTerm(String term, float boost) {
    public BoostedTerm {
      Objects.requireNonNull(term, "term");
      if (!(boost > 0f) || Float.isInfinite(boost)) {
        throw new IllegalArgumentException("term boost must be finite and positive, got " + boost);
      }
    }
  }

  private final List<WeightedField> fields;
  private final List<BoostedTerm> terms;
  private final float k1;
  private final float b;
  private final long revision;
  private final boolean visibleOnly;
  /** Sorted and distinct; empty for every source. */
  private final List<String> statisticsSources;

  /** Statistics over every visible document. */
  public RevisionBm25fQuery(List<WeightedField> fields, List<BoostedTerm> terms, float k1, float b, long revision,
      boolean visibleOnly) {
    this(fields, terms, k1, b, revision, visibleOnly, List.of());
  }

  /**
   * @param fields the fields in the order their frequencies are added
   * @param terms the terms in the order their scores are added
   * @param revision the revision whose visible documents the statistics count
   * @param visibleOnly whether only the documents the revision sees match
   * @param statisticsSources the sources whose visible documents the statistics count (exact ids,
   *     and prefixes ending in {@code *}): a caller's grants, so that no score depends on a
   *     document it may not see; empty for every source. It never changes which documents match.
   */
  public RevisionBm25fQuery(List<WeightedField> fields, List<BoostedTerm> terms, float k1, float b, long revision,
      boolean visibleOnly, List<String> statisticsSources) {
    if (fields.isEmpty() || terms.isEmpty()) {
      throw new IllegalArgumentException("fields and terms must not be empty");
    }
    if (fields.stream().map(WeightedField::name).distinct().count() != fields.size()
        || terms.stream().map(BoostedTerm::term).distinct().count() != terms.size()) {
      throw new IllegalArgumentException("fields and terms must be distinct");
    }
    if (revision < 0) {
      throw new IllegalArgumentException("revision must not be negative, got " + revision);
    }
    // BM25Similarity checks k1 and b.
    new BM25Similarity(k1, b);
    this.fields = List.copyOf(fields);
    this.terms = List.copyOf(terms);
    this.k1 = k1;
    this.b = b;
    this.revision = revision;
    this.visibleOnly = visibleOnly;
    for (String source : statisticsSources) {
      if (source.isEmpty()) {
        throw new IllegalArgumentException("a statistics source must not be empty");
      }
    }
    this.statisticsSources = statisticsSources.stream().distinct().sorted().toList();
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    // What the revision sees (which documents match) and what the statistics count (of those, the
    // ones of the statistics' sources): the same unless the caller was granted only some sources.
    RevisionVisibility[] visible = new RevisionVisibility[leaves.size()];
    RevisionVisibility[] visibility = new RevisionVisibility[leaves.size()];
    for (int l = 0; l < visibility.length; l++) {
      visible[l] = RevisionVisibility.of(leaves.get(l).reader(), revision);
      visibility[l] = statisticsSources.isEmpty() ? visible[l]
          : RevisionVisibility.of(leaves.get(l).reader(), revision, statisticsSources);
    }
    long shards = exchange(searcher, new Term(fields.get(0).name(), SHARDS), 0, 0, 0).docFreq();
    // The combined field's statistics, merged from the fields' as the embedded store merges them.
    long docCount = 0;
    long sumLength = 0;
    for (WeightedField field : fields) {
      long fieldDocs = 0;
      long fieldLength = 0;
      for (int l = 0; l < visibility.length; l++) {
        RevisionVisibility.FieldCounts counts = visibility[l].fieldCounts(leaves.get(l).reader(), field.name());
        fieldDocs += counts.docCount();
        fieldLength += counts.sumLength();
      }
      Counts summed = exchange(searcher, new Term(field.name(), LENGTHS), fieldDocs, fieldLength, shards);
      if (summed.docFreq() > 0) {
        docCount = Math.max(docCount, summed.docFreq());
        // long += double truncates after each field, as CombinedFieldQuery's sum does.
        sumLength += (double) field.weight() * Math.max(summed.totalTermFreq(), summed.docFreq());
      }
    }
    // Each (term, field) looked up once per segment: its visible documents now, its postings when scored.
    BytesRef[] bytes = terms.stream().map(t -> new BytesRef(t.term())).toArray(BytesRef[]::new);
    TermState[][][] states = new TermState[leaves.size()][terms.size()][fields.size()];
    long[][] localDocFreqs = new long[terms.size()][fields.size()];
    for (int l = 0; l < leaves.size(); l++) {
      LeafReader leaf = leaves.get(l).reader();
      for (int f = 0; f < fields.size(); f++) {
        Terms fieldTerms = leaf.terms(fields.get(f).name());
        TermsEnum termsEnum = fieldTerms == null ? null : fieldTerms.iterator();
        for (int t = 0; termsEnum != null && t < bytes.length; t++) {
          if (termsEnum.seekExact(bytes[t])) {
            states[l][t][f] = termsEnum.termState();
            localDocFreqs[t][f] += visibility[l].docFreq(leaf, fields.get(f).name(), termsEnum);
          }
        }
      }
    }
    Similarity.SimScorer[] scorers = new Similarity.SimScorer[terms.size()];
    BM25Similarity similarity = new BM25Similarity(k1, b);
    CollectionStatistics collection = docCount == 0 ? null
        : new CollectionStatistics("combined", docCount, docCount, sumLength, docCount);
    for (int t = 0; t < scorers.length; t++) {
      long docFreq = 0;
      // Every shard hands over every term, also one that sees no document: the shards' count
      // taken off the sums assumes each shard added one to each of them.
      for (int f = 0; f < fields.size(); f++) {
        long local = localDocFreqs[t][f];
        docFreq = Math.max(docFreq, exchange(searcher, new Term(fields.get(f).name(), bytes[t]), local, local, shards)
            .docFreq());
      }
      // A term no visible chunk holds adds nothing to any score: the embedded store leaves it out too.
      if (docFreq > 0 && collection != null) {
        scorers[t] = similarity.scorer(terms.get(t).boost() * boost, collection,
            new TermStatistics(bytes[t], docFreq, docFreq));
      }
    }
    boolean anyTerm = Arrays.stream(scorers).anyMatch(Objects::nonNull);
    float[] bounds = new float[scorers.length];
    for (int t = 0; t < scorers.length; t++) {
      // BM25 grows with the frequency (also in float arithmetic): no document scores the term above this.
      for (int norm = 0; scorers[t] != null && norm < 256; norm++) {
        bounds[t] = Math.max(bounds[t], scorers[t].score(Float.MAX_VALUE, norm));
      }
    }
    return new Weight(this) {
      private LeafScorer open(LeafReaderContext context) throws IOException {
        assert leaves.get(context.ord).reader() == context.reader() : "a segment of another reader";
        Bits matchable = visibleOnly ? visible[context.ord].visible() : null;
        return anyTerm ? LeafScorer.open(context.reader(), fields, bytes, states[context.ord], scorers, bounds, matchable)
            : null;
      }

      @Override
      public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
        LeafScorer scorer = open(context);
        return scorer == null ? null : new DefaultScorerSupplier(scorer);
      }

      @Override
      public Explanation explain(LeafReaderContext context, int doc) throws IOException {
        LeafScorer scorer = open(context);
        if (scorer == null || scorer.iterator().advance(doc) != doc) {
          return Explanation.noMatch(visibleOnly ? "no term in any field, or not seen at revision " + revision
              : "no term in any field");
        }
        return Explanation.match(scorer.score(), "BM25F at revision " + revision + "'s statistics, combined norm "
            + scorer.combinedNorm());
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        // Which terms match at all depends on every segment's documents (a term no visible
        // document holds is left out), not on this segment's alone.
        return false;
      }
    };
  }

  /** A count and a sum of one statistic, over this shard or over every shard. */
  private record Counts(long docFreq, long totalTermFreq) {}

  /**
   * Hands this shard's {@code docFreq} and {@code totalTermFreq} for {@code term} to the searcher and
   * returns what it gives back, less what the shards added: the same counts, or their sums over the
   * shards after a DFS phase. Each count goes one above itself (the searcher takes no zero), so
   * {@code shards} (the shards that answered, itself counted this way with {@code shards} 0) comes off
   * each sum again.
   */
  private static Counts exchange(IndexSearcher searcher, Term term, long docFreq, long totalTermFreq, long shards)
      throws IOException {
    TermStatistics stats = searcher.termStatistics(term, Math.toIntExact(docFreq + 1), totalTermFreq + 1);
    assert stats.docFreq() >= shards && stats.totalTermFreq() >= shards;
    return new Counts(stats.docFreq() - shards, stats.totalTermFreq() - shards);
  }

  /**
   * The scorer of one segment: a disjunction of the (term, field) postings lists of the terms that
   * can still make a document competitive (all of them until the collector says what is).
   */
  private static final class LeafScorer extends Scorer {
    /** Bounds are added as doubles in another order than scores: a margin far above the rounding that may differ. */
    private static final double BOUND_MARGIN = 1 + 1e-5;

    private final List<WeightedField> fields;
    private final Similarity.SimScorer[] scorers;
    /** Postings by term, then field; null where the segment lacks the pair. */
    private final PostingsEnum[][] postings;
    private final NumericDocValues[] norms;
    private final boolean anyNorms;
    /** The documents that may match; null when any may. */
    private final Bits visible;
    /** The terms with postings here, by their largest possible score, smallest first. */
    private final int[] byBound;
    /** {@code boundSums[i]}: the largest possible scores of the first i terms of {@link #byBound}, added. */
    private final double[] boundSums;
    /** How many terms of {@link #byBound} cannot make a document competitive on their own. */
    private int nonEssential;
    /** The postings of the other terms, which lead the iteration. */
    private PostingsEnum[] essential;
    private int doc = -1;

    private LeafScorer(List<WeightedField> fields, Similarity.SimScorer[] scorers, PostingsEnum[][] postings,
        NumericDocValues[] norms, float[] bounds, Bits visible) {
      this.fields = fields;
      this.scorers = scorers;
      this.postings = postings;
      this.norms = norms;
      this.visible = visible;
      this.anyNorms = Arrays.stream(norms).anyMatch(Objects::nonNull);
      this.byBound = IntStream.range(0, postings.length)
          .filter(t -> Arrays.stream(postings[t]).anyMatch(Objects::nonNull)).boxed()
          .sorted(Comparator.comparingDouble(t -> bounds[t])).mapToInt(Integer::intValue).toArray();
      this.boundSums = new double[byBound.length + 1];
      for (int i = 0; i < byBound.length; i++) {
        boundSums[i + 1] = boundSums[i] + bounds[byBound[i]];
      }
      this.essential = essentialPostings();
    }

    private PostingsEnum[] essentialPostings() {
      List<PostingsEnum> lead = new ArrayList<>();
      for (int i = nonEssential; i < byBound.length; i++) {
        for (PostingsEnum p : postings[byBound[i]]) {
          if (p != null) {
            lead.add(p);
          }
        }
      }
      return lead.toArray(new PostingsEnum[0]);
    }

    @Override
    public void setMinCompetitiveScore(float minScore) {
      int before = nonEssential;
      while (nonEssential < byBound.length && boundSums[nonEssential + 1] * BOUND_MARGIN < minScore) {
        nonEssential++;
      }
      if (nonEssential != before) {
        essential = essentialPostings();
      }
    }

    /**
     * The scorer of {@code leaf}, from the states its terms were found at ({@code states[term][field]},
     * null where the segment lacks the pair); null when none of the scored terms is here.
     */
    static LeafScorer open(LeafReader leaf, List<WeightedField> fields, BytesRef[] terms, TermState[][] states,
        Similarity.SimScorer[] scorers, float[] bounds, Bits visible) throws IOException {
      PostingsEnum[][] postings = new PostingsEnum[terms.length][fields.size()];
      NumericDocValues[] norms = new NumericDocValues[fields.size()];
      boolean any = false;
      for (int f = 0; f < fields.size(); f++) {
        norms[f] = leaf.getNormValues(fields.get(f).name());
        TermsEnum termsEnum = null;
        for (int t = 0; t < terms.length; t++) {
          if (scorers[t] != null && states[t][f] != null) {
            if (termsEnum == null) {
              termsEnum = leaf.terms(fields.get(f).name()).iterator();
            }
            termsEnum.seekExact(terms[t], states[t][f]);
            postings[t][f] = termsEnum.postings(null, PostingsEnum.FREQS);
            any = true;
          }
        }
      }
      return any ? new LeafScorer(fields, scorers, postings, norms, bounds, visible) : null;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public DocIdSetIterator iterator() {
      return new DocIdSetIterator() {
        @Override
        public int docID() {
          return doc;
        }

        @Override
        public int nextDoc() throws IOException {
          return advance(doc + 1);
        }

        @Override
        public int advance(int target) throws IOException {
          while (true) {
            int min = NO_MORE_DOCS;
            for (PostingsEnum p : essential) {
              int at = p.docID();
              if (at < target) {
                at = p.advance(target);
              }
              min = Math.min(min, at);
            }
            if (min == NO_MORE_DOCS || visible == null || visible.get(min)) {
              return doc = min;
            }
            target = min + 1;
          }
        }

        @Override
        public long cost() {
          long cost = 0;
          for (PostingsEnum[] byField : postings) {
            for (PostingsEnum p : byField) {
              cost += p == null ? 0 : p.cost();
            }
          }
          return cost;
        }
      };
    }

    @Override
    public float getMaxScore(int upTo) {
      return (float) (boundSums[byBound.length] * BOUND_MARGIN);
    }

    /** The combined length of the current document, encoded as a norm as Lucene's CombinedFieldQuery encodes it. */
    long combinedNorm() throws IOException {
      if (!anyNorms) {
        return 1L;
      }
      float length = 0;
      for (int f = 0; f < norms.length; f++) {
        if (norms[f] != null && norms[f].advanceExact(doc)) {
          length += fields.get(f).weight() * LENGTH_TABLE[Byte.toUnsignedInt((byte) norms[f].longValue())];
        }
      }
      return SmallFloat.intToByte4(Math.round(length));
    }

    @Override
    public float score() throws IOException {
      long norm = combinedNorm();
      double sum = 0;
      for (int t = 0; t < postings.length; t++) {
        float freq = 0f;
        boolean matched = false;
        for (int f = 0; f < postings[t].length; f++) {
          PostingsEnum p = postings[t][f];
          if (p != null && p.docID() < doc) {
            p.advance(doc); // a term that no longer leads the iteration
          }
          if (p != null && p.docID() == doc) {
            freq += fields.get(f).weight() * p.freq();
            matched = true;
          }
        }
        if (matched) {
          sum += scorers[t].score(freq, norm);
        }
      }
      return (float) sum;
    }
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "quarry_bm25f(fields=" + fields + ", terms=" + terms + ", k1=" + k1 + ", b=" + b + ", revision=" + revision
        + ", visibleOnly=" + visibleOnly + ", statisticsSources=" + statisticsSources + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(RevisionBm25fQuery o) {
    return fields.equals(o.fields) && terms.equals(o.terms) && Float.compare(k1, o.k1) == 0
        && Float.compare(b, o.b) == 0 && revision == o.revision && visibleOnly == o.visibleOnly
        && statisticsSources.equals(o.statisticsSources);
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), fields, terms, k1, b, revision, visibleOnly, statisticsSources);
  }
}
