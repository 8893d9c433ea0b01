package dev.quarry.engine.search;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.util.SmallFloat;

/**
 * A chunk's combined length in one segment, encoded as a norm the way Lucene's CombinedFieldQuery
 * encodes it: each field's length decoded from its norm, weighted, added in field order as a float,
 * rounded and encoded again. Re-encoding loses precision, but it is a fixed function of the chunk's
 * own norms, so the result does not depend on segment layout. Not thread-safe; one per segment and
 * search, asked in increasing document order.
 */
final class CombinedNorms {
  /** Lengths as BM25 decodes them, by norm byte. */
  private static final float[] LENGTH_TABLE = new float[256];

  static {
    for (int i = 0; i < 256; i++) {
      LENGTH_TABLE[i] = SmallFloat.byte4ToInt((byte) i);
    }
  }

  private final NumericDocValues[] norms;
  private final float[] weights;
  private final boolean anyNorms;

  CombinedNorms(LeafReader leaf, List<CombinedFields.WeightedField> fields) throws IOException {
    this.norms = new NumericDocValues[fields.size()];
    this.weights = new float[fields.size()];
    boolean found = false;
    for (int f = 0; f < norms.length; f++) {
      norms[f] = leaf.getNormValues(fields.get(f).field());
      weights[f] = fields.get(f).weight();
      found |= norms[f] != null;
    }
    this.anyNorms = found;
  }

  /**
   * The encoded combined length of {@code doc}; 1 in a segment where no field has norms, as Lucene
   * scores it.
   */
  long normOf(int doc) throws IOException {
    if (!anyNorms) {
      return 1L;
    }
    float length = 0;
    for (int f = 0; f < norms.length; f++) {
      if (norms[f] != null && norms[f].advanceExact(doc)) {
        length += weights[f] * LENGTH_TABLE[Byte.toUnsignedInt((byte) norms[f].longValue())];
      }
    }
    return SmallFloat.intToByte4(Math.round(length));
  }
}
