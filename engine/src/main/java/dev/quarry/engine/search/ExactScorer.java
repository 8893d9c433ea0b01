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
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Scores chunks exactly: the sum of every term's BM25F score, added in the plan's fixed order, so a
 * chunk's score depends on its own frequencies and norms and the revision's statistics only, never
 * on segment layout or on the order in which Lucene's scorers happen to add terms. Each term's
 * score is computed as Lucene's CombinedFieldQuery computes it: the weighted field frequencies
 * added in field order, scored against the chunk's combined norm ({@link CombinedNorms}).
 */
final class ExactScorer {
  /** Docs of one segment scored together: bounds the per-search frequencies to a block of them. */
  static final int BLOCK_DOCS = 512;

  private final IndexReader reader;
  private final List<ScoringPlan.ScoringTerm> terms;
  private final List<CombinedFields.WeightedField> fields;

  ExactScorer(IndexReader reader, ScoringPlan plan) {
    this.reader = reader;
    this.terms = plan.terms();
    this.fields = plan.fields().fields();
  }

  /**
   * Scores the chunks {@code docs} (ids in the reader, any order, no duplicates) into {@code top}.
   */
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
      int from = next;
      while (next < byDoc.length && (int) (byDoc[next] >>> 32) < end) {
        next++;
      }
      if (next == from) {
        continue;
      }
      int[] leafDocs = new int[next - from];
      for (int d = 0; d < leafDocs.length; d++) {
        leafDocs[d] = (int) (byDoc[from + d] >>> 32) - context.docBase;
      }
      float[] scores = leafScores(context.reader(), leafDocs);
      for (int d = 0; d < leafDocs.length; d++) {
        out[(int) byDoc[from + d]] = scores[d];
      }
    }
    return out;
  }

  private void scoreLeaf(LeafReaderContext context, int[] docs, int from, int to, TopChunks top)
      throws IOException {
    LeafReader leaf = context.reader();
    int[] leafDocs = new int[to - from];
    for (int d = 0; d < leafDocs.length; d++) {
      leafDocs[d] = docs[from + d] - context.docBase;
    }
    float[] scores = leafScores(leaf, leafDocs);
    SortedDocValues sources = null;
    NumericDocValues chunks = null;
    for (int d = 0; d < leafDocs.length; d++) {
      int doc = leafDocs[d];
      float score = scores[d];
      if (score < top.minCompetitiveScore()) {
        continue; // cannot enter the results, whatever its source and chunk
      }
      if (sources == null) {
        sources = leaf.getSortedDocValues(Fields.SOURCE);
        chunks = leaf.getNumericDocValues(Fields.CHUNK);
      }
      BytesRef source =
          sources != null && sources.advanceExact(doc)
              ? BytesRef.deepCopyOf(sources.lookupOrd(sources.ordValue()))
              : new BytesRef();
      int chunk = chunks != null && chunks.advanceExact(doc) ? (int) chunks.longValue() : 0;
      top.offer(new ScoredChunk(docs[from + d], score, source, chunk));
    }
  }

  /**
   * The exact scores of one segment's {@code docs} (in increasing order), term at a time over
   * blocks of at most {@link #BLOCK_DOCS} docs, one postings enum per field reused from term to
   * term. A term's weighted frequency is still added up field by field in field order, and a
   * chunk's term scores in the plan's term order, so each score is the same float as when every
   * term's postings are walked side by side.
   */
  private float[] leafScores(LeafReader leaf, int[] docs) throws IOException {
    int termCount = terms.size();
    TermsEnum[] termsEnums = new TermsEnum[fields.size()];
    TermState[][] states = new TermState[fields.size()][termCount];
    for (int f = 0; f < termsEnums.length; f++) {
      Terms fieldTerms = leaf.terms(fields.get(f).field());
      termsEnums[f] = fieldTerms == null ? null : fieldTerms.iterator();
      for (int t = 0; termsEnums[f] != null && t < termCount; t++) {
        if (termsEnums[f].seekExact(terms.get(t).bytes())) {
          states[f][t] = termsEnums[f].termState();
        }
      }
    }
    CombinedNorms norms = new CombinedNorms(leaf, fields);
    float[] scores = new float[docs.length];
    int block = Math.min(docs.length, BLOCK_DOCS);
    float[] freqs = new float[block * termCount];
    boolean[] matched = new boolean[block * termCount];
    for (int from = 0; from < docs.length; from += block) {
      int to = Math.min(docs.length, from + block);
      Arrays.fill(freqs, 0f);
      Arrays.fill(matched, false);
      for (int f = 0; f < termsEnums.length; f++) {
        float weight = fields.get(f).weight();
        PostingsEnum postings = null;
        for (int t = 0; t < termCount; t++) {
          if (states[f][t] == null) {
            continue;
          }
          termsEnums[f].seekExact(terms.get(t).bytes(), states[f][t]);
          postings = termsEnums[f].postings(postings, PostingsEnum.FREQS);
          for (int d = from; d < to; d++) {
            if (postings.docID() < docs[d]) {
              postings.advance(docs[d]);
            }
            if (postings.docID() == docs[d]) {
              int at = (d - from) * termCount + t;
              freqs[at] += weight * postings.freq();
              matched[at] = true;
            }
          }
        }
      }
      for (int d = from; d < to; d++) {
        long norm = norms.normOf(docs[d]);
        double sum = 0;
        for (int t = 0; t < termCount; t++) {
          int at = (d - from) * termCount + t;
          if (matched[at]) {
            sum += terms.get(t).scorer().score(freqs[at], norm);
          }
        }
        scores[d] = (float) sum;
      }
    }
    return scores;
  }
}
