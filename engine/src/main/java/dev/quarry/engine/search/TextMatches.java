package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Where a search's words occur in its result chunks: the {@code [start, end)} range of every
 * occurrence of the plan's text terms in each chunk's text, read from the offsets the text postings
 * store (no re-analysis, and the chunk texts the caller has read already give only their lengths).
 * Each segment's terms are looked up once for all the results in it.
 *
 * <p>The ranges are those Lucene's UnifiedHighlighter marks over the same offsets with the whole
 * chunk as one passage: every occurrence that lies within the text, in order; overlapping ones (CJK
 * bigrams share a character) merged so the ranges never overlap, touching ones kept apart, as they
 * are separate words.
 */
final class TextMatches {
  private TextMatches() {}

  /**
   * For each of {@code docs} (ids in {@code reader}, no duplicates), the ranges of every match of
   * {@code terms} in its text, whose length is {@code textLengths} at the same index; empty when
   * none.
   */
  static List<List<int[]>> of(
      IndexReader reader, List<BytesRef> terms, int[] docs, int[] textLengths) throws IOException {
    List<List<int[]>> found = new ArrayList<>(docs.length);
    for (int i = 0; i < docs.length; i++) {
      found.add(new ArrayList<>());
    }
    Integer[] byDoc = new Integer[docs.length];
    for (int i = 0; i < docs.length; i++) {
      byDoc[i] = i;
    }
    Arrays.sort(byDoc, Comparator.comparingInt(i -> docs[i]));
    int next = 0;
    for (LeafReaderContext leaf : reader.leaves()) {
      int end = leaf.docBase + leaf.reader().maxDoc();
      int from = next;
      while (next < byDoc.length && docs[byDoc[next]] < end) {
        next++;
      }
      if (next > from) {
        collect(leaf, terms, docs, textLengths, Arrays.copyOfRange(byDoc, from, next), found);
      }
    }
    List<List<int[]>> out = new ArrayList<>(docs.length);
    for (List<int[]> ranges : found) {
      out.add(ranges.isEmpty() ? List.of() : merge(ranges));
    }
    return out;
  }

  /**
   * Adds the matches in one segment's docs (indexes into {@code docs}, in increasing doc order).
   */
  private static void collect(
      LeafReaderContext leaf,
      List<BytesRef> terms,
      int[] docs,
      int[] textLengths,
      Integer[] inLeaf,
      List<List<int[]>> found)
      throws IOException {
    Terms text = leaf.reader().terms(Fields.TEXT);
    if (text == null) {
      return;
    }
    TermsEnum termsEnum = text.iterator();
    PostingsEnum postings = null;
    for (BytesRef term : terms) {
      if (!termsEnum.seekExact(term)) {
        continue;
      }
      postings = termsEnum.postings(postings, PostingsEnum.OFFSETS);
      for (int i : inLeaf) {
        int doc = docs[i] - leaf.docBase;
        if (postings.docID() < doc) {
          postings.advance(doc);
        }
        if (postings.docID() != doc) {
          continue;
        }
        int length = textLengths[i];
        for (int p = postings.freq(); p > 0; p--) {
          postings.nextPosition();
          int start = postings.startOffset();
          int stop = postings.endOffset();
          if (start == -1) {
            throw new IllegalArgumentException(
                "field '" + Fields.TEXT + "' was indexed without offsets");
          }
          // What lies past the text (or runs past its end) cannot be marked in it.
          if (start < stop && stop <= length) {
            found.get(i).add(new int[] {start, stop});
          }
        }
      }
    }
  }

  /** The ranges in order, overlapping ones merged; touching ones stay apart. */
  static List<int[]> merge(List<int[]> ranges) {
    int[][] sorted = ranges.toArray(new int[0][]);
    Arrays.sort(sorted, Comparator.<int[]>comparingInt(r -> r[0]).thenComparingInt(r -> r[1]));
    List<int[]> merged = new ArrayList<>(sorted.length);
    for (int[] range : sorted) {
      int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range[0] < last[1]) {
        last[1] = Math.max(last[1], range[1]);
      } else {
        merged.add(new int[] {range[0], range[1]});
      }
    }
    return merged;
  }
}
