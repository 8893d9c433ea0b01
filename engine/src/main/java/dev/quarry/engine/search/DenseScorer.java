package dev.quarry.engine.search;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.SearchConcurrency;
import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.SignCodes;
import dev.quarry.engine.embed.VectorCodec;
import dev.quarry.engine.embed.VectorLists;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnByteVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Exact semantic scoring: the query vector against the stored vector of every visible chunk in
 * scope ({@link VectorCodec#dot}). A chunk's score depends on its own stored bytes and the query
 * only, and the top chunks are kept in result order (score, then source, then chunk), so the answer
 * is the same whatever the segment layout or the order in which segments are visited. A corpus that
 * opted into the approximate index asks Lucene's HNSW graph for its candidates ({@link
 * #approximateTop}) and scores those the same exact way.
 */
final class DenseScorer {
  private final RevisionIndexSearcher searcher;
  private final float[] query;
  private final SearchConcurrency concurrency;

  DenseScorer(RevisionIndexSearcher searcher, float[] query, SearchConcurrency concurrency) {
    this.searcher = searcher;
    this.query = query;
    this.concurrency = concurrency;
  }

  /**
   * The best {@code topK} chunks (at most {@code maxChunksPerSource} each) matching every filter.
   */
  List<ScoredChunk> top(List<Query> filters, int topK, Integer maxChunksPerSource)
      throws IOException {
    return collect(
        scanSearcher(),
        inScope(filters),
        () -> new Collector(new TopChunks(topK, maxChunksPerSource)),
        topK,
        maxChunksPerSource);
  }

  /**
   * The best {@code topK} chunks (at most {@code maxChunksPerSource} each) among the {@code
   * candidates} best by the query's estimate against each visible chunk's code ({@link SignCodes}
   * or {@link CentredCodes}, as the corpus's settings say; each segment's codes read in runs where
   * they lie, {@link SegmentCodes}), ties by source and chunk: the candidates are a function of the
   * revision's visible chunks in scope and the query, and each is then scored exactly as in {@link
   * #top}, so the answer does not depend on segments or merges either. It is the exact answer
   * whenever the exact top chunks are among the candidates. With an inverted file ({@link
   * FirstPassCodes#lists}), only the chunks filed in the lists the query reads ({@link
   * VectorLists#read}) are estimated, nearest list first.
   */
  List<ScoredChunk> codedTop(
      List<Query> filters,
      FirstPassCodes codes,
      int candidates,
      int topK,
      Integer maxChunksPerSource)
      throws IOException {
    assert candidates >= topK : candidates + " candidates for topK " + topK;
    Estimator estimates = codes.estimator(query);
    VectorLists lists = codes.lists();
    IndexSearcher scan = scanSearcher();
    List<FirstPass> parts;
    if (filters.isEmpty()) {
      // Nothing narrows the scope: the chunks in scope are exactly the visible documents that have
      // a code (only chunks have one), so the pass walks the segments' codes slot by slot,
      // skipping deleted documents, instead of a query's postings and a collector per call; in the
      // scan's parts (ranges of documents on the concurrency's threads) when the scan is cut, and
      // their candidates merge as the collectors' do below. With an inverted file, it walks the
      // lists the query reads, chosen from the visible chunks each list holds.
      int[] read =
          lists == null
              ? null
              : lists.read(
                  query,
                  codes.probes(),
                  visibleInLists(searcher, lists.count(), codes.field(), estimates),
                  candidates);
      List<Callable<FirstPass>> walks = new ArrayList<>();
      for (IndexSearcher.LeafSlice slice : scan == searcher ? wholeIndex() : scan.getSlices()) {
        walks.add(
            () -> {
              FirstPass part =
                  new FirstPass(
                      candidates, codes.field(), estimates, lists == null ? 0 : lists.count());
              for (IndexSearcher.LeafReaderContextPartition range : slice.partitions) {
                part.scan(range.ctx, range.minDocId, range.maxDocId, read);
              }
              return part;
            });
      }
      parts = scan.getTaskExecutor().invokeAll(walks);
    } else {
      // The scope's query finds the chunks in scope; with an inverted file each part first files
      // them by list (the counts decide which lists the query reads, so they are those of the
      // chunks in scope: the caller's grants, sources and filter), then estimates the ones filed
      // in the lists read.
      parts =
          scan.search(
              inScope(filters),
              new CollectorManager<FirstPass, List<FirstPass>>() {
                @Override
                public FirstPass newCollector() {
                  return new FirstPass(
                      candidates, codes.field(), estimates, lists == null ? 0 : lists.count());
                }

                @Override
                public List<FirstPass> reduce(Collection<FirstPass> collectors) {
                  return new ArrayList<>(collectors);
                }
              });
      if (lists != null) {
        long[] inScope = new long[lists.count() + 1];
        for (FirstPass p : parts) {
          p.addFiled(inScope);
        }
        int[] read = lists.read(query, codes.probes(), l -> inScope[l], candidates);
        List<Callable<FirstPass>> estimating = new ArrayList<>();
        for (FirstPass p : parts) {
          estimating.add(
              () -> {
                p.estimateFiled(read);
                return p;
              });
        }
        parts = scan.getTaskExecutor().invokeAll(estimating);
      }
    }
    LongArrays found = new LongArrays(); // each entry packed by BestEstimates.pack
    for (FirstPass p : parts) {
      p.entries(found);
    }
    int[] docs = chosen(found, candidates);
    float[] exact = scoresInParts(scan, docs);
    // Only the chunks that can still be in the answer need their source and chunk read: without a
    // cap, those scoring at least the topK-th best score (ties included); with one, all of them.
    int[] keep = docs;
    float[] keptScores = exact;
    if (maxChunksPerSource == null && docs.length > topK) {
      float[] sorted = exact.clone();
      Arrays.sort(sorted);
      float bound = sorted[sorted.length - topK];
      int n = 0;
      for (float f : exact) {
        n += f >= bound ? 1 : 0;
      }
      keep = new int[n];
      keptScores = new float[n];
      for (int i = 0, j = 0; i < docs.length; i++) {
        if (exact[i] >= bound) {
          keep[j] = docs[i];
          keptScores[j++] = exact[i];
        }
      }
    }
    List<ScoredChunk> identified = identify(keep, keptScores);
    TopChunks top = new TopChunks(topK, maxChunksPerSource);
    identified.forEach(top::offer);
    return top.results();
  }

  /**
   * The visible chunks a list holds over the revision's segments (asked for {@code lists}: the
   * chunks filed in none): a function of the revision's visible chunks, not of segments.
   */
  private static IntToLongFunction visibleInLists(
      IndexSearcher searcher, int lists, String field, Estimator estimates) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    SegmentCodes.Reader[] segments = new SegmentCodes.Reader[leaves.size()];
    SegmentCodes.Buffer buffer = new SegmentCodes.Buffer(); // counting lists reads no code
    for (int i = 0; i < segments.length; i++) {
      LeafReader leaf = leaves.get(i).reader();
      segments[i] =
          SegmentCodes.of(leaf, field, estimates.codeBytes(), estimates.bits(), lists)
              .reader(leaf, buffer);
    }
    return list -> {
      long n = 0;
      try {
        for (int i = 0; i < segments.length; i++) {
          n += segments[i].visible(list, leaves.get(i).reader().getLiveDocs());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return n;
    };
  }

  /** The revision's every segment, whole, as one slice: a scan not cut into parts. */
  private IndexSearcher.LeafSlice[] wholeIndex() {
    List<IndexSearcher.LeafReaderContextPartition> all = new ArrayList<>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      all.add(IndexSearcher.LeafReaderContextPartition.createForEntireSegment(leaf));
    }
    return new IndexSearcher.LeafSlice[] {new IndexSearcher.LeafSlice(all)};
  }

  /**
   * A query's estimate against stored codes: only ranks chunks for the first pass.
   *
   * @param codeBytes the length of a stored code
   * @param bits planes a word of the codes, when the estimate reads each code's level sum; else 0
   * @param ofSlot the estimate against the code in a slot of a segment's codes
   */
  record Estimator(int codeBytes, int bits, SlotEstimate ofSlot) {
    /**
     * The estimate against the code in {@code slot} of the codes {@code codes} reads ({@link
     * SegmentCodes}), which has it loaded.
     */
    float estimate(SegmentCodes.Reader codes, int slot) {
      return ofSlot.estimate(codes, slot);
    }

    /**
     * The estimates against the codes in the slots from {@code first} to {@code end} (exclusive) of
     * {@code codes}, which has them loaded, into {@code out} from 0.
     */
    void estimateRun(SegmentCodes.Reader codes, int first, int end, float[] out) {
      ofSlot.estimateRun(codes, first, end, out);
    }
  }

  /** An estimate against the code in a slot of a segment's codes, loaded by a reader. */
  interface SlotEstimate {
    float estimate(SegmentCodes.Reader codes, int slot);

    /**
     * The same estimates a run of loaded slots at a time ({@link Estimator#estimateRun}), into
     * {@code out} from 0: one loop the compiler keeps whole, with the query's arrays at hand, where
     * a call a slot goes through the walk's visitor first.
     */
    void estimateRun(SegmentCodes.Reader codes, int first, int end, float[] out);
  }

  /** The estimate against sign codes ({@link SignCodes}), a slot or a run at a time. */
  private record SignSlots(SignCodes.Query query) implements SlotEstimate {
    @Override
    public float estimate(SegmentCodes.Reader codes, int slot) {
      return query.estimate(codes.words, codes.at(slot));
    }

    @Override
    public void estimateRun(SegmentCodes.Reader codes, int first, int end, float[] out) {
      SignCodes.Query q = query;
      long[] words = codes.words;
      for (int s = first; s < end; s++) {
        out[s - first] = q.estimate(words, codes.at(s));
      }
    }
  }

  /** The estimate against centred codes ({@link CentredCodes}), a slot or a run at a time. */
  private record CentredSlots(CentredCodes.Query query) implements SlotEstimate {
    @Override
    public float estimate(SegmentCodes.Reader codes, int slot) {
      return query.estimate(
          codes.words,
          codes.at(slot),
          codes.factors[codes.factorAt(slot)],
          codes.codes.levelSum(slot));
    }

    @Override
    public void estimateRun(SegmentCodes.Reader codes, int first, int end, float[] out) {
      CentredCodes.Query q = query;
      long[] words = codes.words;
      float[] factors = codes.factors;
      SegmentCodes segment = codes.codes;
      for (int s = first; s < end; s++) {
        out[s - first] =
            q.estimate(words, codes.at(s), factors[codes.factorAt(s)], segment.levelSum(s));
      }
    }
  }

  /**
   * The codes a corpus's first pass reads: their field, how a query estimates against them, and the
   * corpus's inverted file (null without one) with the lists a search reads at least.
   */
  record FirstPassCodes(
      String field, Function<float[], Estimator> estimators, VectorLists lists, int probes) {
    Estimator estimator(float[] query) {
      return estimators.apply(query);
    }

    /** The corpus's codes as its settings name them. */
    static FirstPassCodes of(CorpusSettings.Embedding embedding) {
      CorpusSettings.FirstPass pass = embedding.firstPass();
      VectorLists lists = pass.hasLists() ? VectorLists.of(embedding.sha256(), pass.lists()) : null;
      if (pass.code() == CorpusSettings.FirstPass.Code.SIGN) {
        return new FirstPassCodes(
            Fields.VECTOR_CODE,
            query -> {
              SignCodes.Query q = new SignCodes.Query(query);
              return new Estimator(q.codeBytes(), 0, new SignSlots(q));
            },
            lists,
            pass.probes());
      }
      CentredCodes codes =
          CentredCodes.of(embedding.sha256(), pass.centre(), pass.seed(), pass.bits());
      return new FirstPassCodes(
          Fields.VECTOR_CENTRED_CODE,
          query -> {
            CentredCodes.Query q = codes.query(query);
            return new Estimator(q.codeBytes(), codes.bits(), new CentredSlots(q));
          },
          lists,
          pass.probes());
    }
  }

  /**
   * The {@code candidates} best of {@code found} by estimate, ties at the boundary by source, then
   * chunk: a function of the chunks and their estimates, not of document ids or segments.
   */
  private int[] chosen(LongArrays found, int candidates) throws IOException {
    int count = found.size();
    long[] entries = found.values;
    if (count <= candidates) {
      int[] all = new int[count];
      for (int i = 0; i < count; i++) {
        all[i] = BestEstimates.docOf(entries[i]);
      }
      return all;
    }
    // Packed entries sort as their estimates do (ties by doc, which only orders them here).
    Arrays.sort(entries, 0, count);
    float boundary = BestEstimates.estimateOf(entries[count - candidates]);
    List<Integer> above = new ArrayList<>();
    List<Integer> tied = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      float estimate = BestEstimates.estimateOf(entries[i]);
      if (estimate > boundary) {
        above.add(BestEstimates.docOf(entries[i]));
      } else if (estimate == boundary) {
        tied.add(BestEstimates.docOf(entries[i]));
      }
    }
    int[] tiedDocs = tied.stream().mapToInt(Integer::intValue).toArray();
    List<ScoredChunk> ties = identify(tiedDocs, new float[tiedDocs.length]);
    ties.sort(ScoredChunk.RESULT_ORDER);
    int[] out = new int[candidates];
    int n = 0;
    for (int d : above) {
      out[n++] = d;
    }
    for (int i = 0; n < candidates; i++) {
      out[n++] = ties.get(i).doc();
    }
    return out;
  }

  /** Each of {@code docs} (ids in the searcher's reader) with its score, source and chunk. */
  private List<ScoredChunk> identify(int[] docs, float[] scores) throws IOException {
    Integer[] order = new Integer[docs.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Integer.compare(docs[x], docs[y]));
    List<ScoredChunk> out = new ArrayList<>(docs.length);
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    int leaf = -1;
    SortedDocValues sources = null;
    NumericDocValues chunks = null;
    for (int i : order) {
      int previous = leaf;
      while (leaf < 0 || docs[i] >= leaves.get(leaf).docBase + leaves.get(leaf).reader().maxDoc()) {
        leaf++;
      }
      LeafReaderContext context = leaves.get(leaf);
      if (leaf != previous) {
        sources = context.reader().getSortedDocValues(Fields.SOURCE);
        chunks = context.reader().getNumericDocValues(Fields.CHUNK);
      }
      int doc = docs[i] - context.docBase;
      BytesRef source =
          sources != null && sources.advanceExact(doc)
              ? BytesRef.deepCopyOf(sources.lookupOrd(sources.ordValue()))
              : new BytesRef();
      int chunk = chunks != null && chunks.advanceExact(doc) ? (int) chunks.longValue() : 0;
      out.add(new ScoredChunk(docs[i], scores[i], source, chunk));
    }
    return out;
  }

  /**
   * The best {@code topK} chunks (at most {@code maxChunksPerSource} each) among the {@code
   * candidates} nearest ones the approximate index finds in scope: which chunks are found depends
   * on the HNSW graph (so on merges), but each found chunk's score is exact, as in {@link #top}.
   */
  List<ScoredChunk> approximateTop(
      List<Query> filters, int candidates, int topK, Integer maxChunksPerSource)
      throws IOException {
    Query nearest =
        new KnnByteVectorQuery(
            Fields.VECTOR_GRAPH, VectorCodec.encode(query), candidates, inScope(filters));
    return collect(
        searcher,
        nearest,
        () -> new Collector(new TopChunks(topK, maxChunksPerSource)),
        topK,
        maxChunksPerSource);
  }

  /** Every chunk an exact semantic search scores: each visible chunk that matches every filter. */
  static Query inScope(List<Query> filters) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(new TermQuery(new Term(Fields.KIND, Fields.KIND_CHUNK)), BooleanClause.Occur.FILTER);
    for (Query f : filters) {
      b.add(f, BooleanClause.Occur.FILTER);
    }
    return b.build();
  }

  /**
   * What scans every chunk in scope: the revision's searcher, or one that runs it in parts on
   * {@link #concurrency}'s threads when the revision is large enough to gain from it.
   */
  private IndexSearcher scanSearcher() {
    int parts = concurrency.partsFor(searcher.getIndexReader().maxDoc());
    return parts > 1
        ? new PartitionedSearcher(searcher.getIndexReader(), concurrency, parts)
        : searcher;
  }

  /**
   * Scores every chunk {@code matching} matches (visible ones: live docs are the revision's) with
   * the collectors {@code collectors} makes, one per part of the scan, and merges their best.
   */
  private List<ScoredChunk> collect(
      IndexSearcher scan,
      Query matching,
      Supplier<? extends TopCollector> collectors,
      int topK,
      Integer maxChunksPerSource)
      throws IOException {
    List<TopChunks> perCollector =
        scan.search(
            matching,
            new CollectorManager<TopCollector, List<TopChunks>>() {
              @Override
              public TopCollector newCollector() {
                return collectors.get();
              }

              @Override
              public List<TopChunks> reduce(Collection<TopCollector> collectors) {
                List<TopChunks> all = new ArrayList<>();
                collectors.forEach(c -> all.add(c.top));
                return all;
              }
            });
    TopChunks merged = new TopChunks(topK, maxChunksPerSource);
    for (TopChunks t : perCollector) {
      t.results().forEach(merged::offer);
    }
    return merged.results();
  }

  /**
   * {@link #scores} of the first pass's candidates, in as many parts as {@code scan} has slices
   * (runs of the candidates in document order, each part reading its run's vectors on the scan's
   * threads): a score is a function of its chunk and the query alone, so the parts change nothing
   * but where the reads are done, and a few candidates are not worth a part.
   */
  private float[] scoresInParts(IndexSearcher scan, int[] docs) throws IOException {
    long[] byDoc = byDoc(docs);
    float[] out = new float[docs.length];
    int parts = Math.max(1, Math.min(scan.getSlices().length, docs.length / MIN_SCORES_A_PART));
    List<Callable<Void>> scoring = new ArrayList<>(parts);
    for (int p = 0; p < parts; p++) {
      int from = (int) ((long) docs.length * p / parts);
      int to = (int) ((long) docs.length * (p + 1) / parts);
      scoring.add(
          () -> {
            score(byDoc, from, to, out); // each part writes its own places of out
            return null;
          });
    }
    scan.getTaskExecutor().invokeAll(scoring);
    return out;
  }

  /** The fewest candidates {@link #scoresInParts} gives a part of their own. */
  private static final int MIN_SCORES_A_PART = 128;

  /**
   * The exact semantic scores of {@code docs} (ids in the searcher's reader), in the same order.
   */
  float[] scores(int[] docs) throws IOException {
    float[] out = new float[docs.length];
    score(byDoc(docs), 0, docs.length, out);
    return out;
  }

  /** Each of {@code docs} packed with its index, (doc, index), in document order. */
  private static long[] byDoc(int[] docs) {
    long[] byDoc = new long[docs.length];
    for (int i = 0; i < docs.length; i++) {
      byDoc[i] = (long) docs[i] << 32 | i;
    }
    Arrays.sort(byDoc);
    return byDoc;
  }

  /**
   * Writes the exact score of each chunk of {@code byDoc} from {@code from} to {@code to} (packed
   * as {@link #byDoc} packs them) at its index in {@code out}: in document order, so each segment's
   * doc values are read forward.
   */
  private void score(long[] byDoc, int from, int to, float[] out) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    int leaf = 0;
    BinaryDocValues vectors = null;
    for (int k = from; k < to; k++) {
      int global = (int) (byDoc[k] >>> 32);
      while (global >= leaves.get(leaf).docBase + leaves.get(leaf).reader().maxDoc()) {
        leaf++;
        vectors = null;
      }
      LeafReaderContext context = leaves.get(leaf);
      if (vectors == null) {
        vectors = context.reader().getBinaryDocValues(Fields.VECTOR);
      }
      int doc = global - context.docBase;
      out[(int) byDoc[k]] =
          vectors != null && vectors.advanceExact(doc)
              ? VectorCodec.dot(query, vectors.binaryValue())
              : 0f;
    }
  }

  /**
   * Scores every collected chunk that has the {@code field} doc value and keeps the best: the score
   * of a chunk is {@link #score} of that value, which depends on it and the query alone.
   */
  private abstract static class TopCollector extends SimpleCollector {
    final TopChunks top;
    private final String field;
    private int docBase;
    private BinaryDocValues values;
    private SortedDocValues sources;
    private NumericDocValues chunks;

    TopCollector(TopChunks top, String field) {
      this.top = top;
      this.field = field;
    }

    abstract float score(BytesRef value);

    @Override
    public ScoreMode scoreMode() {
      return ScoreMode.COMPLETE_NO_SCORES;
    }

    @Override
    protected void doSetNextReader(LeafReaderContext context) throws IOException {
      LeafReader leaf = context.reader();
      docBase = context.docBase;
      values = leaf.getBinaryDocValues(field);
      sources = leaf.getSortedDocValues(Fields.SOURCE);
      chunks = leaf.getNumericDocValues(Fields.CHUNK);
    }

    @Override
    public void collect(int doc) throws IOException {
      if (values == null || !values.advanceExact(doc)) {
        return; // written before the corpus had vectors: never, for a corpus is created with its
        // model
      }
      float score = score(values.binaryValue());
      if (score < top.minCompetitiveScore()) {
        return;
      }
      BytesRef source =
          sources != null && sources.advanceExact(doc)
              ? BytesRef.deepCopyOf(sources.lookupOrd(sources.ordValue()))
              : new BytesRef();
      int chunk = chunks != null && chunks.advanceExact(doc) ? (int) chunks.longValue() : 0;
      top.offer(new ScoredChunk(docBase + doc, score, source, chunk));
    }
  }

  /** The exact score: the query against each chunk's stored vector. */
  private final class Collector extends TopCollector {
    Collector(TopChunks top) {
      super(top, Fields.VECTOR);
    }

    @Override
    float score(BytesRef vector) {
      return VectorCodec.dot(query, vector);
    }
  }

  /** A growable array of longs. */
  private static final class LongArrays {
    long[] values = new long[16];
    private int size;

    void add(long v) {
      values = ArrayUtil.grow(values, size + 1);
      values[size++] = v;
    }

    long get(int i) {
      return values[i];
    }

    int size() {
      return size;
    }
  }

  /**
   * The first pass of one part of a scan: every chunk's estimate against its code, keeping the best
   * {@code candidates} by estimate as primitive entries, and every chunk tied with the least of
   * them (its source is read only if the tie decides a candidate, in {@link #chosen}). Holds every
   * chunk whose estimate is at least the least kept one. With an inverted file, only the chunks of
   * the lists the query reads are estimated.
   */
  private static final class FirstPass extends SimpleCollector {
    private final String field;
    private final Estimator estimates;

    /** The corpus's lists; 0 without an inverted file. */
    private final int listCount;

    /**
     * With an inverted file, the chunks in scope a collector saw, each as (leaf's place in {@link
     * #filedLeaves} << 32 | doc), by list (the last for chunks filed in none), until the lists read
     * are known ({@link #estimateFiled}).
     */
    private final List<LeafReaderContext> filedLeaves = new ArrayList<>();

    private final LongArrays[] filed;

    /** The chunks kept: at least the best {@code candidates} by estimate, and every tie. */
    private final BestEstimates best;

    private int docBase;
    private SegmentCodes.Reader codes;

    /** This part's reader of each segment's codes, kept while it runs. */
    private final Map<LeafReaderContext, SegmentCodes.Reader> readers = new IdentityHashMap<>();

    /** Where this part's readers copy the codes they read. */
    private final SegmentCodes.Buffer buffer = new SegmentCodes.Buffer();

    /** The estimates of the run of slots the walk visits. */
    private final float[] runEstimates = new float[SegmentCodes.BLOCK];

    FirstPass(int candidates, String field, Estimator estimates, int listCount) {
      this.field = field;
      this.estimates = estimates;
      this.listCount = listCount;
      this.best = new BestEstimates(candidates);
      this.filed = listCount == 0 ? null : new LongArrays[listCount + 1];
    }

    @Override
    public ScoreMode scoreMode() {
      return ScoreMode.COMPLETE_NO_SCORES;
    }

    @Override
    protected void doSetNextReader(LeafReaderContext context) throws IOException {
      useLeaf(context);
      if (filed != null
          && (filedLeaves.isEmpty() || filedLeaves.get(filedLeaves.size() - 1) != context)) {
        filedLeaves.add(context);
      }
    }

    /**
     * Every visible document of {@code leaf} from {@code from} (inclusive) to {@code to}
     * (exclusive) that has a code, in slot order: with an inverted file, those of the lists {@code
     * read}, in that order (and of none).
     */
    void scan(LeafReaderContext leaf, int from, int to, int[] read) throws IOException {
      useLeaf(leaf);
      int maxDoc = Math.min(to, leaf.reader().maxDoc());
      if (from >= maxDoc) {
        return;
      }
      Bits live = leaf.reader().getLiveDocs();
      SegmentCodes.Reader reading = codes;
      float[] run = runEstimates;
      reading.forEachRun(
          read,
          from,
          maxDoc,
          (first, end) -> {
            estimates.estimateRun(reading, first, end, run);
            int[] docs = reading.docs;
            int loaded = reading.first;
            for (int s = first; s < end; s++) {
              int doc = docs[s - loaded];
              if (live == null || live.get(doc)) {
                offer(run[s - first], doc);
              }
            }
          });
    }

    @Override
    public void collect(int doc) throws IOException {
      int slot = codes.slotOf(doc);
      if (slot < 0) {
        return;
      }
      if (filed == null) {
        codes.loadNear(slot);
        offer(estimates.estimate(codes, slot), doc);
        return;
      }
      int list = codes.listOf(doc);
      if (filed[list] == null) {
        filed[list] = new LongArrays();
      }
      filed[list].add((long) (filedLeaves.size() - 1) << 32 | doc);
    }

    /** Reads {@code context}'s codes (kept by the corpus's lists, if any) from now on. */
    private void useLeaf(LeafReaderContext context) throws IOException {
      docBase = context.docBase;
      SegmentCodes.Reader reader = readers.get(context);
      if (reader == null) {
        reader =
            SegmentCodes.of(
                    context.reader(), field, estimates.codeBytes(), estimates.bits(), listCount)
                .reader(context.reader(), buffer);
        readers.put(context, reader);
      }
      codes = reader;
    }

    /** Adds the chunks this collector filed in each list to {@code counts}. */
    void addFiled(long[] counts) {
      for (int l = 0; l < filed.length; l++) {
        counts[l] += filed[l] == null ? 0 : filed[l].size();
      }
    }

    /** Estimates every chunk filed in the lists {@code read} (in that order) and in none. */
    void estimateFiled(int[] read) throws IOException {
      for (int i = 0; i <= read.length; i++) {
        int l = i == read.length ? listCount : read[i];
        if (filed[l] == null) {
          continue;
        }
        int leaf = -1;
        for (int e = 0; e < filed[l].size(); e++) {
          long entry = filed[l].get(e);
          if ((int) (entry >>> 32) != leaf) {
            leaf = (int) (entry >>> 32);
            useLeaf(filedLeaves.get(leaf));
          }
          int slot = codes.slotOf((int) entry);
          codes.loadNear(slot);
          offer(estimates.estimate(codes, slot), (int) entry);
        }
      }
    }

    private void offer(float estimate, int doc) {
      best.offer(estimate, docBase + doc);
    }

    /** Adds every kept entry, packed ({@link BestEstimates#pack}). */
    void entries(LongArrays out) {
      best.addTo(out::add);
    }
  }
}
