package dev.quarry.engine.search;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchCaches;
import dev.quarry.engine.SearchConcurrency;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.revision.RevisionStatistics;
import dev.quarry.engine.revision.RevisionView;
import dev.quarry.engine.revision.RevisionViews;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TaskExecutor;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;

/**
 * Searches a corpus at one revision: reproducibly scored with that revision's statistics.
 *
 * <p>A search sees exactly the chunks visible at its revision ({@link RevisionViews}), scores them
 * with BM25F over text and title ({@link CombinedFields}) and the revision's statistics, ranks them
 * by exact score in a fixed summation order ({@link ChunkRanker}), and breaks ties by source then
 * chunk. The same request at the same revision therefore answers the same, whatever was written or
 * merged since.
 *
 * <p>Thread-safe; one per open corpus (it caches per-revision visibility and statistics).
 */
public final class RevisionSearcher {
  private final CorpusInfo info;
  private final Analyzer analyzer;
  private final CombinedFields fields;
  private final RevisionViews views;

  /** The corpus's embedding model, or null for a lexical corpus. */
  private final Embedder embedder;

  /** Where an exact semantic scan runs. */
  private final SearchConcurrency concurrency;

  public RevisionSearcher(CorpusInfo info, Analyzer analyzer) {
    this(info, analyzer, null);
  }

  /**
   * @param embedder the model of an embedding corpus ({@link CorpusInfo#settings()} names it), null
   *     for a lexical corpus
   */
  public RevisionSearcher(CorpusInfo info, Analyzer analyzer, Embedder embedder) {
    this(info, analyzer, embedder, new SearchCaches(), SearchConcurrency.SEARCHING_THREAD_ONLY);
  }

  /**
   * @param embedder the model of an embedding corpus, null for a lexical corpus
   * @param caches where the per-revision caches of this corpus are counted (the process's)
   * @param concurrency where an exact semantic scan runs, and a hybrid search's lexical side
   */
  public RevisionSearcher(
      CorpusInfo info,
      Analyzer analyzer,
      Embedder embedder,
      SearchCaches caches,
      SearchConcurrency concurrency) {
    this.views =
        new RevisionViews(
            RevisionViews.DEFAULT_MAX_VIEWS,
            caches.revisionViewCounter(),
            caches.termStatisticsCounter(),
            caches.segmentVisibilityCounter());
    this.info = info;
    this.analyzer = analyzer;
    this.fields = CombinedFields.of(info.settings().ranking());
    if ((embedder != null) != info.settings().hasEmbedding()) {
      throw new IllegalArgumentException(
          "an embedder is given iff the corpus has an embedding model");
    }
    this.embedder = embedder;
    this.concurrency = concurrency;
  }

  /**
   * The mode a request runs in: its own, or hybrid on an embedding corpus and lexical on others.
   */
  SearchRequest.Mode modeOf(SearchRequest request) {
    return request.modeIn(info.name(), embedder != null);
  }

  /**
   * Answers {@code request} at its pinned revision or at {@code snapshot.revision()}.
   *
   * @throws dev.quarry.engine.QuarryException INVALID_REQUEST for a revision above the snapshot's,
   *     REVISION_EXPIRED for one older than {@code snapshot.oldestRetainedRevision()}, UNAVAILABLE
   *     when the index cannot be read (closed or failing)
   */
  public SearchResult search(IndexSnapshot snapshot, SearchRequest request) {
    long started = System.nanoTime();
    SearchRequest.Mode mode = modeOf(request);
    request.requireLanguageOf(info.settings().language());
    long revision = revisionOf(snapshot, request);
    // An auto corpus reads the query in the languages its counted chunks hold, known once the
    // revision is.
    QuerySyntax syntax = QuerySyntax.of(request, auto() ? List.of() : List.of(analyzer));
    // A semantic search needs the query's vector before it starts; a hybrid one embeds the query on
    // its semantic side while its lexical side runs (denseSearchAt), its text checked here.
    float[] queryVector = null;
    if (mode == SearchRequest.Mode.SEMANTIC) {
      queryVector = queryVector(syntax.scoringText());
    } else if (mode == SearchRequest.Mode.HYBRID) {
      requireQueryText(syntax.scoringText());
    }
    List<Hit> hits;
    List<FacetCounts> facets;
    try {
      Prepared prepared = prepare(snapshot, revision, request, syntax);
      hits =
          mode == SearchRequest.Mode.LEXICAL
              ? searchAt(prepared, request)
              : denseSearchAt(prepared, request, mode, queryVector, syntax.scoringText());
      facets = request.facets().isEmpty() ? List.of() : facetsAt(prepared, request, mode);
    } catch (IOException | UncheckedIOException | AlreadyClosedException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' could not be searched", e);
    }
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new SearchResult(
        info.name(), info.corpusId(), revision, tookMs, inLanguage(hits), facets);
  }

  /**
   * What the ranking and the facet counts of one search share: the revision's searcher, every
   * filter, and the lexical plan (null when no query word is in the revision's index).
   */
  private record Prepared(RevisionIndexSearcher searcher, List<Query> filters, ScoringPlan plan) {
    RevisionView view() {
      return searcher.view();
    }
  }

  private Prepared prepare(
      IndexSnapshot snapshot, long revision, SearchRequest request, QuerySyntax syntax)
      throws IOException {
    RevisionView view = views.at(snapshot, revision);
    RevisionIndexSearcher searcher =
        new RevisionIndexSearcher(view, view.statistics(request.statistics()), fields.similarity());
    List<Analyzer> analyzers = List.of(analyzer);
    if (auto()) {
      analyzers =
          request.language() != null
              ? List.of(Analyzers.marked(request.language()))
              : languagesCounted(searcher.statistics());
      syntax = QuerySyntax.of(request, analyzers);
    }
    QueryTerms terms = QueryTerms.analyze(analyzers, syntax.scoringText());
    ScoringPlan plan = terms.isEmpty() ? null : ScoringPlan.build(searcher, fields, terms);
    return new Prepared(
        searcher, filters(request, syntax), plan == null || plan.isEmpty() ? null : plan);
  }

  /**
   * Each hit saying its language: its source's, stored with it in an auto corpus, else the
   * corpus's.
   */
  private List<Hit> inLanguage(List<Hit> hits) {
    String corpus = info.settings().language().wireName();
    return hits.stream().map(h -> h.language() != null ? h : h.withLanguage(corpus)).toList();
  }

  private boolean auto() {
    return info.settings().language() == CorpusSettings.Language.AUTO;
  }

  /**
   * In an auto corpus, the analyzer of each language some counted chunk (one the caller may see, at
   * the revision) is in, in declaration order: a query is read in each of them, and a chunk matches
   * the terms of its own. A language no counted chunk holds could add no term with statistics.
   */
  private static List<Analyzer> languagesCounted(RevisionStatistics statistics) throws IOException {
    List<Analyzer> analyzers = new ArrayList<>();
    for (CorpusSettings.Language language : CorpusSettings.Language.values()) {
      if (language != CorpusSettings.Language.AUTO
          && statistics.termStatistics(new Term(Fields.LANGUAGE, language.wireName())) != null) {
        analyzers.add(Analyzers.marked(language));
      }
    }
    return analyzers;
  }

  /**
   * The facet counts over every chunk the search matches before its top k: in a lexical search the
   * chunks holding a query term, in a semantic or hybrid one every chunk in scope (the semantic
   * side scores them all); in both, only those the scope and filters allow.
   */
  private static List<FacetCounts> facetsAt(
      Prepared prepared, SearchRequest request, SearchRequest.Mode mode) throws IOException {
    Query matching;
    if (mode == SearchRequest.Mode.LEXICAL) {
      matching = prepared.plan() == null ? null : prepared.plan().query(prepared.filters());
    } else {
      matching = DenseScorer.inScope(prepared.filters());
    }
    return FacetCounter.count(prepared.searcher(), matching, request.facets());
  }

  /**
   * The non-scoring queries every result must match: the scope, the metadata filters and the query
   * syntax's phrases, required and excluded words. Every mode applies the same list.
   */
  private static List<Query> filters(SearchRequest request, QuerySyntax syntax) {
    List<Query> filters = FilterQueries.of(request.scope(), request.filters());
    if (syntax.constraints().isEmpty()) {
      return filters;
    }
    List<Query> all = new ArrayList<>(filters);
    all.addAll(syntax.constraints());
    return all;
  }

  /**
   * The source's chunks numbered above {@code after} at {@code revision} (null: the snapshot's), at
   * most {@code limit}, in chunk order; empty when the source did not exist at that revision.
   *
   * @throws QuarryException as {@link #search} for the revision; UNAVAILABLE when the index cannot
   *     be read
   */
  public Optional<SourceChunks> chunks(
      IndexSnapshot snapshot, String source, Long revision, int after, int limit) {
    if (limit < 1) {
      throw QuarryException.invalid("limit", "limit must be at least 1; got " + limit);
    }
    long at = revisionOf(snapshot, revision);
    try {
      RevisionView view = views.at(snapshot, at);
      IndexSearcher searcher = new IndexSearcher(view.reader());
      Query ofSource =
          new BooleanQuery.Builder()
              .add(
                  new TermQuery(new Term(Fields.KIND, Fields.KIND_CHUNK)),
                  BooleanClause.Occur.FILTER)
              .add(new TermQuery(new Term(Fields.SOURCE, source)), BooleanClause.Occur.FILTER)
              .build();
      TopDocs any = searcher.search(ofSource, 1);
      if (any.scoreDocs.length == 0) {
        return Optional.empty();
      }
      StoredFields stored = searcher.storedFields();
      // Every chunk of one version carries the version's provenance; any one of them tells it.
      Document first = HitReader.document(stored, any.scoreDocs[0].doc);
      Query page =
          new BooleanQuery.Builder()
              .add(ofSource, BooleanClause.Occur.FILTER)
              .add(
                  NumericDocValuesField.newSlowRangeQuery(
                      Fields.CHUNK, (long) after + 1, Long.MAX_VALUE),
                  BooleanClause.Occur.FILTER)
              .build();
      TopDocs top =
          searcher.search(
              page, limit + 1, new Sort(new SortField(Fields.CHUNK, SortField.Type.LONG)));
      List<SourceChunks.Chunk> chunks = new ArrayList<>();
      for (int i = 0; i < Math.min(limit, top.scoreDocs.length); i++) {
        chunks.add(HitReader.chunk(HitReader.document(stored, top.scoreDocs[i].doc)));
      }
      Integer nextAfter =
          top.scoreDocs.length > limit ? chunks.get(chunks.size() - 1).chunk() : null;
      return Optional.of(
          new SourceChunks(
              at,
              source,
              HitReader.number(first, Fields.SOURCE_REV).longValue(),
              first.get(Fields.TITLE_STORED),
              first.get(Fields.MEDIA_TYPE),
              first.get(Fields.CONTENT_SHA256),
              chunks,
              nextAfter));
    } catch (IOException | UncheckedIOException | AlreadyClosedException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' could not be read", e);
    }
  }

  private static long revisionOf(IndexSnapshot snapshot, SearchRequest request) {
    return revisionOf(snapshot, request.revision());
  }

  private static long revisionOf(IndexSnapshot snapshot, Long requested) {
    long latest = snapshot.revision();
    if (requested == null) {
      return latest;
    }
    long pinned = requested;
    if (pinned > latest) {
      throw QuarryException.invalid(
          "revision", "revision " + pinned + " is above the corpus's current revision " + latest);
    }
    if (pinned < snapshot.oldestRetainedRevision()) {
      throw new QuarryException(
          ErrorCode.REVISION_EXPIRED,
          "revision "
              + pinned
              + " is no longer retained; the oldest retained revision is "
              + snapshot.oldestRetainedRevision());
    }
    return pinned;
  }

  /**
   * The query's vector from the corpus's model (which caches recent queries, so a vector computed
   * ahead of the search is found again).
   *
   * @throws QuarryException INVALID_REQUEST on {@code query} when blank or over the model's window
   */
  public float[] queryVector(String query) {
    if (embedder == null) {
      throw new IllegalStateException("corpus '" + info.name() + "' is lexical");
    }
    requireQueryText(query);
    return embedder.embedQuery(query);
  }

  private static void requireQueryText(String query) {
    if (query.isBlank()) {
      throw QuarryException.invalid(
          "query", "a semantic or hybrid search needs a query with some text");
    }
  }

  /**
   * A semantic or hybrid search. Each side's candidates are its exact top {@link #candidates} (no
   * per-source cap, which applies to the fused ranking); every candidate then has both sides' exact
   * scores where fusion reads them ({@link HybridScores}), and the fused ranking keeps the top
   * {@code topK} under the request's cap, each hit with both.
   *
   * @param queryVector the query's vector in a semantic search; null in a hybrid one, whose
   *     semantic side embeds {@code queryText} while the lexical side runs
   */
  private List<Hit> denseSearchAt(
      Prepared prepared,
      SearchRequest request,
      SearchRequest.Mode mode,
      float[] queryVector,
      String queryText)
      throws IOException {
    RevisionIndexSearcher searcher = prepared.searcher();
    List<Query> filters = prepared.filters();
    ScoringPlan plan = prepared.plan();
    StoredFields stored = searcher.storedFields();
    List<Hit> hits = new ArrayList<>();
    List<ScoredChunk> top;
    List<Hit.ScoreParts> parts = new ArrayList<>();
    if (mode == SearchRequest.Mode.SEMANTIC) {
      DenseScorer dense = new DenseScorer(searcher, queryVector, concurrency);
      top =
          semanticTop(
              dense,
              filters,
              candidates(request.topK()),
              request.topK(),
              request.maxChunksPerSource(),
              request.exact());
      for (int i = 0; i < top.size(); i++) {
        parts.add(new Hit.ScoreParts(null, null, top.get(i).score(), i + 1));
      }
    } else {
      int n = candidates(request.topK());
      ExactScorer exact = plan == null ? null : new ExactScorer(prepared.view().reader(), plan);
      // The two sides are independent, so they run side by side on the concurrency's threads
      // (Lucene's task executor: this thread runs whichever side no other has taken, so a busy
      // executor delays a hybrid search but never blocks it). The semantic side starts by
      // embedding the query (a model call, milliseconds when the query is new), so the lexical
      // side is often done before the semantic scan starts, and the scan's parts then have every
      // thread. Neither side's answer depends on where it ran.
      Executor sideBySide = concurrency.parallelism() > 1 ? concurrency.executor() : Runnable::run;
      List<Side> sides =
          new TaskExecutor(sideBySide)
              .invokeAll(
                  List.<Callable<Side>>of(
                      () -> {
                        // The text was checked before the search began.
                        DenseScorer scorer =
                            new DenseScorer(searcher, embedder.embedQuery(queryText), concurrency);
                        return new Side(
                            semanticTop(scorer, filters, n, n, null, request.exact()), scorer);
                      },
                      () ->
                          new Side(
                              plan == null
                                  ? List.of()
                                  : ChunkRanker.topChunks(
                                      searcher, plan.query(filters), exact, n, null),
                              null)));
      List<ScoredChunk> semantic = sides.get(0).top();
      List<ScoredChunk> lexical = sides.get(1).top();
      DenseScorer dense = sides.get(0).dense();
      Map<Integer, int[]> ranks = HybridFusion.ranks(lexical, semantic);
      int[] docs = ranks.keySet().stream().mapToInt(Integer::intValue).toArray();
      HybridScores scores =
          new HybridScores(docs, ranks, lexical, semantic, exact, dense, sideBySide);
      HybridFusion.Options options = HybridFusion.Options.of(request, info.settings().embedding());
      if (options.readsOtherSidesScores()) {
        scores.completeAll();
      }
      List<HybridFusion.Fused> fused =
          HybridFusion.rank(
              lexical,
              semantic,
              ranks,
              docs,
              scores.lexical,
              scores.semantic,
              options,
              request.topK(),
              request.maxChunksPerSource());
      scores.complete(fused);
      top = new ArrayList<>(fused.size());
      for (HybridFusion.Fused f : fused) {
        top.add(f.chunk());
        parts.add(scores.parts(f.chunk().doc(), f.parts()));
      }
    }
    for (int i = 0; i < top.size(); i++) {
      hits.add(HitReader.read(stored, top.get(i), List.of()).withParts(parts.get(i)));
    }
    return present(searcher, plan, top, hits, request);
  }

  /**
   * One side's best chunks in a hybrid search, and the semantic side's scorer (null on the other).
   */
  private record Side(List<ScoredChunk> top, DenseScorer dense) {}

  /**
   * The semantic side's best {@code n} chunks as the corpus's index finds them: every chunk scored
   * exactly; the best of the {@code graphCandidates} the approximate index finds; or the best of
   * the coded first pass's candidates (the corpus's count, or twice {@code n} when larger, so that
   * a large topK still leaves the first pass room to err). A request with {@code exact} scores
   * every chunk exactly whatever the index.
   */
  private List<ScoredChunk> semanticTop(
      DenseScorer dense,
      List<Query> filters,
      int graphCandidates,
      int n,
      Integer maxChunksPerSource,
      boolean exact)
      throws IOException {
    CorpusSettings.Embedding embedding = info.settings().embedding();
    if (exact) {
      return dense.top(filters, n, maxChunksPerSource);
    }
    return switch (embedding.index()) {
      case EXACT -> dense.top(filters, n, maxChunksPerSource);
      case HNSW -> dense.approximateTop(filters, graphCandidates, n, maxChunksPerSource);
      case CODES ->
          dense.codedTop(
              filters,
              DenseScorer.FirstPassCodes.of(embedding),
              codedCandidates(embedding.firstPass(), n),
              n,
              maxChunksPerSource);
    };
  }

  /**
   * Candidates per side in hybrid search: enough that a chunk ranked well by one side and fairly by
   * the other is seen by both (every candidate gets both exact scores), and a per-source cap still
   * leaves topK results in most corpora.
   */
  public static int candidates(int topK) {
    return Math.max(HYBRID_MIN_CANDIDATES, 2 * topK);
  }

  /**
   * The chunks a coded first pass scores exactly for a search that keeps {@code n}: the corpus's
   * candidates, or twice {@code n} when larger, so that a large topK still leaves the first pass
   * room to err.
   */
  public static int codedCandidates(CorpusSettings.FirstPass firstPass, int n) {
    return Math.max(firstPass.candidates(), 2 * n);
  }

  /** The fewest candidates a hybrid search takes from each side. */
  static final int HYBRID_MIN_CANDIDATES = 100;

  private List<Hit> searchAt(Prepared prepared, SearchRequest request) throws IOException {
    ScoringPlan plan = prepared.plan();
    if (plan == null) {
      return List.of();
    }
    RevisionIndexSearcher searcher = prepared.searcher();
    Query query = plan.query(prepared.filters());
    List<ScoredChunk> top =
        ChunkRanker.topChunks(
            searcher,
            query,
            new ExactScorer(prepared.view().reader(), plan),
            request.topK(),
            request.maxChunksPerSource());
    if (top.isEmpty()) {
      return List.of();
    }
    StoredFields stored = searcher.storedFields();
    List<Hit> hits = new ArrayList<>(top.size());
    for (ScoredChunk chunk : top) {
      hits.add(HitReader.read(stored, chunk, List.of()));
    }
    return present(searcher, plan, top, hits, request);
  }

  /**
   * The hits with their highlights and snippets as the request asks: both come from the same
   * matches of the query's terms in each chunk's text (none without a plan, as for a query whose
   * words no chunk holds in a semantic search).
   */
  private List<Hit> present(
      RevisionIndexSearcher searcher,
      ScoringPlan plan,
      List<ScoredChunk> top,
      List<Hit> hits,
      SearchRequest request)
      throws IOException {
    SearchRequest.Snippets snippets = request.snippets();
    if (hits.isEmpty() || (!request.highlight() && snippets == null)) {
      return hits;
    }
    List<List<int[]>> matches = plan == null ? null : matches(searcher, plan, top, hits);
    List<Hit> presented = new ArrayList<>(hits.size());
    for (int i = 0; i < hits.size(); i++) {
      Hit hit = hits.get(i);
      List<int[]> chunkMatches = matches == null ? List.of() : matches.get(i);
      if (request.highlight() && matches != null) {
        hit = hit.withHighlights(chunkMatches);
      }
      if (snippets != null) {
        hit = hit.withSnippet(SnippetWindow.of(hit.text(), chunkMatches, snippets));
      }
      presented.add(hit);
    }
    return presented;
  }

  private static List<List<int[]>> matches(
      RevisionIndexSearcher searcher, ScoringPlan plan, List<ScoredChunk> top, List<Hit> hits)
      throws IOException {
    int[] docs = new int[top.size()];
    int[] textLengths = new int[top.size()];
    for (int i = 0; i < docs.length; i++) {
      docs[i] = top.get(i).doc();
      String text = hits.get(i).text();
      textLengths[i] = text == null ? 0 : text.length();
    }
    return TextMatches.of(searcher.getIndexReader(), plan.textTerms(), docs, textLengths);
  }
}
