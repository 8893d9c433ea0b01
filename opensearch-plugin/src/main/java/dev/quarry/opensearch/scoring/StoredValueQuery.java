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
 * Every document one revision of a Quarry corpus sees that holds a value of a {@code binary} field
 * with doc values (a chunk's stored vector, or its code), scored by a function of that value alone:
 * which documents the caller may see (the scope, the grants, the filters) it says with filters
 * beside this query. A document's score depends only on its own stored bytes and the query, never
 * on the segment layout or the shard, so each shard's best in (score, source, chunk) order, merged,
 * are the corpus's best.
 *
 * <p>The value is read in OpenSearch's form of binary doc values (a count of values, then each
 * value's length and bytes, all variable-length integers): exactly one value of {@link
 * #valueLength} bytes.
 */
abstract class StoredValueQuery extends Query {
  final String field;
  final long revision;

  StoredValueQuery(String field, long revision) {
    Objects.requireNonNull(field, "field");
    if (revision < 0) {
      throw new IllegalArgumentException("revision must not be negative, got " + revision);
    }
    this.field = field;
    this.revision = revision;
  }

  /** The length of the one value each scored document holds, in bytes. */
  abstract int valueLength();

  /** What the value is, for messages: "vector", "code". */
  abstract String valueName();

  /** The score of the value of {@link #valueLength} bytes at {@code offset} of {@code bytes}. */
  abstract float score(byte[] bytes, int offset);

  /** What a match's explanation says of its score. */
  abstract String scoreName();

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new Weight(this) {
      private Scorer open(LeafReaderContext context) throws IOException {
        BinaryDocValues values = context.reader().getBinaryDocValues(field);
        if (values == null) {
          return null;
        }
        Bits visible = RevisionVisibility.of(context.reader(), revision).visible();
        return new LeafScorer(values, visible);
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
          return Explanation.noMatch(
              "no stored " + valueName() + ", or not seen at revision " + revision);
        }
        return Explanation.match(scorer.score(), scoreName() + " at revision " + revision);
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        return false;
      }
    };
  }

  /** The visible documents with a value, each scored as it is reached. */
  private final class LeafScorer extends Scorer {
    private final BinaryDocValues values;
    private final TwoPhaseIterator visibleWithValue;

    /**
     * How a well-formed value starts: a count of one, then the length {@link #valueLength}, both
     * variable-length integers; compared byte for byte, so a document costs no decoding.
     */
    private final byte[] header;

    LeafScorer(BinaryDocValues values, Bits visible) {
      this.values = values;
      this.header = header(valueLength());
      this.visibleWithValue =
          new TwoPhaseIterator(values) {
            @Override
            public boolean matches() {
              return visible.get(values.docID());
            }

            @Override
            public float matchCost() {
              return 1;
            }
          };
    }

    @Override
    public int docID() {
      return values.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
      return TwoPhaseIterator.asDocIdSetIterator(visibleWithValue);
    }

    @Override
    public TwoPhaseIterator twoPhaseIterator() {
      return visibleWithValue;
    }

    @Override
    public float getMaxScore(int upTo) {
      // Neither a quantized dot product nor an estimate has a bound worth promising.
      return Float.MAX_VALUE;
    }

    @Override
    public float score() throws IOException {
      BytesRef value = values.binaryValue();
      if (!startsWithHeader(value)) {
        throw malformed(value);
      }
      return StoredValueQuery.this.score(value.bytes, value.offset + header.length);
    }

    private boolean startsWithHeader(BytesRef value) {
      return value.length == header.length + valueLength()
          && Arrays.equals(
              value.bytes, value.offset, value.offset + header.length, header, 0, header.length);
    }

    /** What is wrong with a value that does not start as {@link #header} says. */
    private IllegalArgumentException malformed(BytesRef value) {
      int[] read = new int[1];
      int end = value.offset + value.length;
      int at = readVInt(value.bytes, value.offset, end, read);
      if (read[0] != 1) {
        return new IllegalArgumentException(
            "a document holds " + read[0] + " " + valueName() + "s; one was expected");
      }
      readVInt(value.bytes, at, end, read);
      if (read[0] != valueLength()) {
        return new IllegalArgumentException(
            "a stored "
                + valueName()
                + " has "
                + read[0]
                + " bytes; the query reads "
                + valueLength());
      }
      return new IllegalArgumentException(
          "a stored "
              + valueName()
              + "'s value is "
              + value.length
              + " bytes long, not as its header says");
    }
  }

  /** The variable-length integers 1 and {@code length}, as OpenSearch writes them. */
  private static byte[] header(int length) {
    byte[] out = new byte[1 + 5];
    out[0] = 1;
    int at = 1;
    int rest = length;
    while ((rest & ~0x7F) != 0) {
      out[at++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    out[at++] = (byte) rest;
    return Arrays.copyOf(out, at);
  }

  /**
   * Reads OpenSearch's variable-length int at {@code at}, before {@code end}, into {@code out[0]};
   * returns where it ends.
   */
  private static int readVInt(byte[] bytes, int at, int end, int[] out) {
    int value = 0;
    for (int shift = 0; shift < 32; shift += 7) {
      if (at >= end) {
        throw new IllegalArgumentException("a stored value is shorter than its header");
      }
      byte b = bytes[at++];
      value |= (b & 0x7F) << shift;
      if (b >= 0) {
        out[0] = value;
        return at;
      }
    }
    throw new IllegalArgumentException("a stored value's length is malformed");
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }
}
