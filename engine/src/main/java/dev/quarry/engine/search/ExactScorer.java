package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Scores chunks exactly: the sum of every term's BM25F score, added in the plan's fixed order, so a
 * chunk's score depends on its own frequencies and norms and the revision's statistics only, never
 * on segment layout or on the order in which Lucene's scorers happen to add terms. Each term's score
 * is computed as Lucene's CombinedFieldQuery computes it: the weighted field frequencies added in
 * field order, scored against the chunk's combined norm ({@link CombinedNorms}).
 */
final class ExactScorer {
  private final IndexReader reader;
  private final List<ScoringPlan.ScoringTerm> terms;
  private final List<CombinedFields.WeightedField> fields;

  ExactScorer(IndexReader reader, ScoringPlan plan) {
    this.reader = reader;
    this.terms = plan.terms();
    this.fields = plan.fields().fields();
  }

  /** Scores the chunks {@code docs} (ids in the reader, any order, no duplicates) into {@code top}. */
  void score(int[] docs, TopChunks top) throws IOException {
    int[] sorted = docs.clone();
    Arrays.sort(sorted);
    List<LeafReaderContext> leaves = reader.leaves();
    int next = 0;
    for (LeafReaderContext context : leaves) {
      int end = context.docBase + context.reader().maxDoc();
      int from = next;
      while (next < sorted.length && sorted[next] < end) {
        next++;
      }
      if (next > from) {
        scoreLeaf(context, sorted, from, next, top);
      }
    }
  }

  /**
   * The exact scores of {@code docs} (ids in the reader, no duplicates), in the same order; 0 for a
   * chunk that holds none of the terms.
   */
  float[] scores(int[] docs) throws IOException {
    // Each doc with its position, sorted by doc: postings only move forward.
    long[] byDoc = new long[docs.length];
    for (int i = 0; i < docs.length; i++) {
      byDoc[i] = ((long) docs[i] << 32) | i;
    }
    Arrays.sort(byDoc);
    float[] out = new float[docs.length];
    int next = 0;
    for (LeafReaderContext context : reader.leaves()) {
      int end = context.docBase + context.reader().maxDoc();
      if (next == byDoc.length || (int) (byDoc[next] >>> 32) >= end) {
        continue;
      }
      LeafScores leaf = new LeafScores(context.reader());
      for (; next < byDoc.length && (int) (byDoc[next] >>> 32) < end; next++) {
        out[(int) byDoc[next]] = leaf.score((int) (byDoc[next] >>> 32) - context.docBase);
      }
    }
    return out;
  }

  private void scoreLeaf(LeafReaderContext context, int[] docs, int from, int to, TopChunks top)
      throws IOException {
    LeafReader leaf = context.reader();
    LeafScores scores = new LeafScores(leaf);
    SortedDocValues sources = leaf.getSortedDocValues(Fields.SOURCE);
    NumericDocValues chunks = leaf.getNumericDocValues(Fields.CHUNK);
    for (int d = from; d < to; d++) {
      int doc = docs[d] - context.docBase;
      float score = scores.score(doc);
      if (score < top.minCompetitiveScore()) {
        continue; // cannot enter the results, whatever its source and chunk
      }
      BytesRef source = sources != null && sources.advanceExact(doc)
          ? BytesRef.deepCopyOf(sources.lookupOrd(sources.ordValue()))
          : new BytesRef();
      int chunk = chunks != null && chunks.advanceExact(doc) ? (int) chunks.longValue() : 0;
      top.offer(new ScoredChunk(docs[d], score, source, chunk));
    }
  }

  /** One segment's postings of the plan's terms and its combined norms; docs are scored in increasing order. */
  private final class LeafScores {
    private final PostingsEnum[][] postings = new PostingsEnum[terms.size()][fields.size()];
    private final float[] weights = new float[fields.size()];
    private final CombinedNorms norms;

    LeafScores(LeafReader leaf) throws IOException {
      for (int f = 0; f < fields.size(); f++) {
        Terms fieldTerms = leaf.terms(fields.get(f).field());
        TermsEnum termsEnum = fieldTerms == null ? null : fieldTerms.iterator();
        for (int t = 0; termsEnum != null && t < terms.size(); t++) {
          if (termsEnum.seekExact(terms.get(t).bytes())) {
            postings[t][f] = termsEnum.postings(null, PostingsEnum.FREQS);
          }
        }
      }
      for (int f = 0; f < weights.length; f++) {
        weights[f] = fields.get(f).weight();
      }
      norms = new CombinedNorms(leaf, fields);
    }

    /** The exact score of {@code doc} (in the segment), at or after the last doc scored. */
    float score(int doc) throws IOException {
      long norm = norms.normOf(doc);
      double sum = 0;
      for (int t = 0; t < postings.length; t++) {
        float freq = 0;
        boolean matched = false;
        for (int f = 0; f < weights.length; f++) {
          PostingsEnum p = postings[t][f];
          if (p == null) {
            continue;
          }
          if (p.docID() < doc) {
            p.advance(doc);
          }
          if (p.docID() == doc) {
            freq += weights[f] * p.freq();
            matched = true;
          }
        }
        if (matched) {
          sum += terms.get(t).scorer().score(freq, norm);
        }
      }
      return (float) sum;
    }
  }
}
