package dev.quarry.engine.search;

import java.util.Comparator;
import org.apache.lucene.util.BytesRef;

/**
 * A matching chunk with its exact score at the searched revision.
 *
 * @param doc the document id in the revision view's reader
 * @param source the source id's UTF-8 bytes (byte order is Unicode code point order)
 */
public record ScoredChunk(int doc, float score, BytesRef source, int chunk) {

  /** Result order: score descending, then source in code point order, then chunk ascending. */
  static final Comparator<ScoredChunk> RESULT_ORDER =
      Comparator.comparing(ScoredChunk::score, Comparator.reverseOrder())
          .thenComparing(ScoredChunk::source)
          .thenComparingInt(ScoredChunk::chunk);
}
