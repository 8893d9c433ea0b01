package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The exact semantic score of every document one revision of a Quarry corpus sees that holds a
 * stored vector (its chunks): {@link DenseDot} of the query vector and the document's vector, the
 * embedded store's arithmetic, so the same chunk gets the same float on both stores. Every such
 * document matches, whatever its score; which ones the caller may see (the scope, the grants, the
 * filters) it says with filters beside this query. A document's score depends only on its own
 * stored bytes and the query, never on the segment layout or the shard, so each shard's best in
 * (score, source, chunk) order, merged, are the corpus's best.
 *
 * <p>The vector is read from a {@code binary} field with doc values, in OpenSearch's form of them
 * (a count of values, then each value's length and bytes, all variable-length integers): exactly
 * one value of the query's dimensions.
 */
public final class RevisionDenseQuery extends Query {
  private final String field;
  private final float[] vector;
  private final long revision;

  /**
   * @param field the binary doc-values field holding each chunk's stored vector
   * @param vector the query vector, finite components
   * @param revision the revision whose visible documents match
   */
  public RevisionDenseQuery(String field, float[] vector, long revision) {
    Objects.requireNonNull(field, "field");
    if (vector.length == 0) {
      throw new IllegalArgumentException("vector must not be empty");
    }
    for (float v : vector) {
      if (!Float.isFinite(v)) {
        throw new IllegalArgumentException("vector components must be finite");
      }
    }
    if (revision < 0) {
      throw new IllegalArgumentException("revision must not be negative, got " + revision);
    }
    this.field = field;
    this.vector = vector.clone();
    this.revision = revision;
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new Weight(this) {
      private Scorer open(LeafReaderContext context) throws IOException {
        BinaryDocValues vectors = context.reader().getBinaryDocValues(field);
        if (vectors == null) {
          return null;
        }
        Bits visible = RevisionVisibility.of(context.reader(), revision).visible();
        return new LeafScorer(vectors, visible, vector);
      }

      @Override
      public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
        Scorer scorer = open(context);
        return scorer == null ? null : new DefaultScorerSupplier(scorer);
      }

      @Override
      public Explanation explain(LeafReaderContext context, int doc) throws IOException {
        Scorer scorer = open(context);
        if (scorer == null || scorer.iterator().advance(doc) != doc) {
          return Explanation.noMatch("no stored vector, or not seen at revision " + revision);
        }
        return Explanation.match(scorer.score(), "exact dot product at revision " + revision);
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        return false;
      }
    };
  }

  /** The visible documents with a vector, each scored as it is reached. */
  private static final class LeafScorer extends Scorer {
    private final BinaryDocValues vectors;
    private final TwoPhaseIterator visibleWithVector;
    private final float[] query;

    LeafScorer(BinaryDocValues vectors, Bits visible, float[] query) {
      this.vectors = vectors;
      this.query = query;
      this.visibleWithVector = new TwoPhaseIterator(vectors) {
        @Override
        public boolean matches() {
          return visible.get(vectors.docID());
        }

        @Override
        public float matchCost() {
          return 1;
        }
      };
    }

    @Override
    public int docID() {
      return vectors.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
      return TwoPhaseIterator.asDocIdSetIterator(visibleWithVector);
    }

    @Override
    public TwoPhaseIterator twoPhaseIterator() {
      return visibleWithVector;
    }

    @Override
    public float getMaxScore(int upTo) {
      // Quantization may lift a dot product of unit vectors a little above 1: no bound is promised.
      return Float.MAX_VALUE;
    }

    @Override
    public float score() throws IOException {
      BytesRef value = vectors.binaryValue();
      int at = value.offset;
      int[] read = new int[1];
      at = readVInt(value.bytes, at, read);
      if (read[0] != 1) {
        throw new IllegalArgumentException("a document holds " + read[0] + " vectors; one was expected");
      }
      at = readVInt(value.bytes, at, read);
      if (read[0] != query.length) {
        throw new IllegalArgumentException("a stored vector has " + read[0] + " components; the query has "
            + query.length);
      }
      return DenseDot.dot(query, value.bytes, at);
    }

    /** Reads OpenSearch's variable-length int at {@code at} into {@code out[0]}; returns where it ends. */
    private static int readVInt(byte[] bytes, int at, int[] out) {
      int value = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        byte b = bytes[at++];
        value |= (b & 0x7F) << shift;
        if (b >= 0) {
          out[0] = value;
          return at;
        }
      }
      throw new IllegalArgumentException("a stored vector's length is malformed");
    }
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String f) {
    return "quarry_dense(" + field + ", " + vector.length + " dimensions, revision " + revision + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(RevisionDenseQuery o) {
    return field.equals(o.field) && Arrays.equals(vector, o.vector) && revision == o.revision;
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), field, Arrays.hashCode(vector), revision);
  }
}
