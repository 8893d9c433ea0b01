package dev.quarry.engine.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TopDocs;

/**
 * Finds the top chunks in exact result order, with Lucene's fast top-k search for candidates.
 *
 * <p>Lucene's score of a chunk and its exact score ({@link ExactScorer}) add the same per-term
 * scores (the same floats: both compute each term's BM25F score as CombinedFieldQuery does) in
 * different orders, so they differ by at most {@link #slack} (a generous bound on float rounding).
 * Lucene collects the {@code n} best candidates by its own score; every chunk left out scored at
 * most the lowest collected, {@code t}, so its exact score is at most {@code t + slack}. When the
 * k-th result's exact score is above that, the candidates hold the exact top k. Otherwise (a tie or
 * near-tie at the boundary) a second pass collects every chunk whose Lucene score reaches the k-th
 * exact score minus the slack: a superset of every chunk that can rank in the top k. When fewer
 * than k results survive {@code maxChunksPerSource}, more candidates are collected until Lucene
 * runs out of matches. The answer thus never depends on docIDs or segment layout.
 */
final class ChunkRanker {
  /**
   * Candidates beyond topK, so near-ties at the boundary rarely need the second pass. Each one
   * lowers the score Lucene's top-k search must beat to skip a chunk, so it costs work on every
   * search; a per-source cap asks for four times topK instead, since capped chunks drop out.
   */
  static final int CANDIDATE_MARGIN = 10;

  /** Relative rounding bound: about 1500 float additions' worth, more than 256 terms need. */
  static final float RELATIVE_SLACK = 1e-4f;

  private ChunkRanker() {}

  static List<ScoredChunk> topChunks(
      RevisionIndexSearcher searcher,
      Query query,
      ExactScorer scorer,
      int topK,
      Integer maxChunksPerSource)
      throws IOException {
    int maxDoc = searcher.getIndexReader().maxDoc();
    long wanted = (maxChunksPerSource == null ? topK : (long) topK * 4) + CANDIDATE_MARGIN;
    int n = (int) Math.min(wanted, (long) maxDoc + 1);
    while (true) {
      TopDocs top = searcher.search(query, Math.max(1, n));
      ScoreDoc[] hits = top.scoreDocs;
      List<ScoredChunk> selected = rank(scorer, docIds(hits), topK, maxChunksPerSource);
      boolean everyMatchCollected = hits.length < n;
      if (everyMatchCollected) {
        return selected;
      }
      if (selected.size() == topK) {
        float lowestCollected = hits[hits.length - 1].score;
        float kth = selected.get(topK - 1).score();
        if (kth > lowestCollected + slack(lowestCollected)) {
          return selected;
        }
        int[] contenders = collectScoringAtLeast(searcher, query, kth - slack(kth));
        assert covers(contenders, selected)
            : "the second pass must hold every chunk of the first's top " + topK;
        return rank(scorer, contenders, topK, maxChunksPerSource);
      }
      n = (int) Math.min((long) n * 4, (long) maxDoc + 1);
    }
  }

  /** Whether {@code contenders} holds every chunk of {@code selected}. */
  private static boolean covers(int[] contenders, List<ScoredChunk> selected) {
    int[] sorted = contenders.clone();
    Arrays.sort(sorted);
    return selected.stream().allMatch(c -> Arrays.binarySearch(sorted, c.doc()) >= 0);
  }

  static float slack(float score) {
    return Math.abs(score) * RELATIVE_SLACK + Float.MIN_NORMAL;
  }

  private static List<ScoredChunk> rank(
      ExactScorer scorer, int[] docs, int topK, Integer maxChunksPerSource) throws IOException {
    TopChunks top = new TopChunks(topK, maxChunksPerSource);
    scorer.score(docs, top);
    return top.results();
  }

  private static int[] docIds(ScoreDoc[] hits) {
    int[] ids = new int[hits.length];
    for (int i = 0; i < hits.length; i++) {
      ids[i] = hits[i].doc;
    }
    return ids;
  }

  private static int[] collectScoringAtLeast(
      RevisionIndexSearcher searcher, Query query, float minScore) throws IOException {
    return searcher.search(
        query,
        new CollectorManager<AtLeastCollector, int[]>() {
          @Override
          public AtLeastCollector newCollector() {
            return new AtLeastCollector(minScore);
          }

          @Override
          public int[] reduce(Collection<AtLeastCollector> collectors) {
            return collectors.stream()
                .flatMapToInt(c -> Arrays.stream(c.docs, 0, c.size))
                .toArray();
          }
        });
  }

  /** Collects every document whose score reaches a floor, letting Lucene skip those that cannot. */
  private static final class AtLeastCollector extends SimpleCollector {
    private final float minScore;
    private Scorable scorer;
    private int docBase;
    private int[] docs = new int[64];
    private int size;

    AtLeastCollector(float minScore) {
      this.minScore = minScore;
    }

    @Override
    public ScoreMode scoreMode() {
      return ScoreMode.TOP_SCORES;
    }

    @Override
    protected void doSetNextReader(LeafReaderContext context) {
      docBase = context.docBase;
    }

    @Override
    public void setScorer(Scorable scorer) throws IOException {
      this.scorer = scorer;
      if (minScore > 0) {
        scorer.setMinCompetitiveScore(minScore);
      }
    }

    @Override
    public void collect(int doc) throws IOException {
      if (scorer.score() >= minScore) {
        if (size == docs.length) {
          docs = Arrays.copyOf(docs, size * 2);
        }
        docs[size++] = docBase + doc;
      }
    }
  }
}
