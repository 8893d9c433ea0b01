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
 * Scores chunks exactly: the sum of every clause's BM25 score, added in the plan's fixed order, so
 * a chunk's score depends on its own frequencies and norms and the revision's statistics only,
 * never on segment layout or on the order in which Lucene's scorers happen to add clauses.
 */
final class ExactScorer {
  private final IndexReader reader;
  private final List<ScoringPlan.ScoringClause> clauses;
  private final String[] fields;
  private final int[] clauseField;

  ExactScorer(IndexReader reader, ScoringPlan plan) {
    this.reader = reader;
    this.clauses = plan.clauses();
    this.fields = clauses.stream().map(c -> c.term().field()).distinct().toArray(String[]::new);
    this.clauseField = new int[clauses.size()];
    for (int i = 0; i < clauses.size(); i++) {
      clauseField[i] = Arrays.asList(fields).indexOf(clauses.get(i).term().field());
    }
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

  private void scoreLeaf(LeafReaderContext context, int[] docs, int from, int to, TopChunks top)
      throws IOException {
    LeafReader leaf = context.reader();
    PostingsEnum[] postings = new PostingsEnum[clauses.size()];
    for (int i = 0; i < postings.length; i++) {
      Terms terms = leaf.terms(clauses.get(i).term().field());
      if (terms != null) {
        TermsEnum termsEnum = terms.iterator();
        if (termsEnum.seekExact(clauses.get(i).term().bytes())) {
          postings[i] = termsEnum.postings(null, PostingsEnum.FREQS);
        }
      }
    }
    NumericDocValues[] norms = new NumericDocValues[fields.length];
    for (int f = 0; f < fields.length; f++) {
      norms[f] = leaf.getNormValues(fields[f]);
    }
    long[] norm = new long[fields.length];
    SortedDocValues sources = leaf.getSortedDocValues(Fields.SOURCE);
    NumericDocValues chunks = leaf.getNumericDocValues(Fields.CHUNK);
    for (int d = from; d < to; d++) {
      int doc = docs[d] - context.docBase;
      for (int f = 0; f < fields.length; f++) {
        norm[f] = norms[f] != null && norms[f].advanceExact(doc) ? norms[f].longValue() : 1L;
      }
      double sum = 0;
      for (int i = 0; i < postings.length; i++) {
        PostingsEnum p = postings[i];
        if (p == null) {
          continue;
        }
        if (p.docID() < doc) {
          p.advance(doc);
        }
        if (p.docID() == doc) {
          sum += clauses.get(i).scorer().score(p.freq(), norm[clauseField[i]]);
        }
      }
      float score = (float) sum;
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
}
