package dev.quarry.app.eval;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * Runs a {@link BeirCollection} through Quarry's own indexing and search path and scores the
 * rankings.
 *
 * <p>Every document becomes one source (title and text) of a fresh corpus, indexed in batches of
 * {@link #BATCH_SIZE} operations, one {@link Mutation} each: the bulk path an application uses.
 * Every judged query then searches for the {@link #RANKING_DEPTH} best sources, one hit per source
 * (a source ranks by its best chunk), without highlighting.
 *
 * <p>Not thread-safe; one evaluation at a time per instance.
 */
public final class Evaluation {
  /**
   * Sources per mutation: large enough for bulk speed, well inside {@link Mutation#MAX_OPERATIONS}.
   */
  public static final int BATCH_SIZE = 500;

  /** Results per query: Recall@100 needs the first 100. */
  public static final int RANKING_DEPTH = 100;

  /** The nDCG and MRR cutoff. */
  public static final int TOP = 10;

  private static final String SUBJECT = "quarry-eval";

  private final EngineConfig config;

  /** Whether semantic sides scan every chunk exactly, whatever the corpus's index. */
  private final boolean exact;

  public Evaluation(EngineConfig config) {
    this(config, false);
  }

  /**
   * With {@code exact}, every search with a semantic side asks for the exact scan ({@code exact:
   * true}), so a coded or approximate index is measured against its own exact answer without being
   * built twice.
   */
  public Evaluation(EngineConfig config, boolean exact) {
    this.config = config;
    this.exact = exact;
  }

  /**
   * Indexes {@code collection} into a new corpus in {@code indexDir} (empty or absent; or holding
   * an index a previous evaluation finished there with the same index-time settings, which is then
   * searched as it is, see {@link EvalIndex}) and evaluates its first {@code maxQueries} judged
   * queries.
   */
  public EvalReport run(
      BeirCollection collection, CorpusSettings settings, Path indexDir, int maxQueries)
      throws IOException {
    return run(
            collection,
            settings,
            indexDir,
            maxQueries,
            Collections.singletonList(null),
            Collections.singletonList(null))
        .get(0);
  }

  /**
   * Indexes {@code collection} once (or reuses a kept index, as above; its report's indexing time
   * is then zero) and evaluates it in each of {@code modes} (null: the corpus's default mode), one
   * report per mode, and a hybrid mode once per fusion: comparing fusions costs searches, not
   * another indexing.
   *
   * @param fusions hybrid search's fusions, each null for the corpus's default; at least one
   */
  public List<EvalReport> run(
      BeirCollection collection,
      CorpusSettings settings,
      Path indexDir,
      int maxQueries,
      List<SearchRequest.Mode> modes,
      List<SearchRequest.Fusion> fusions)
      throws IOException {
    if (fusions.isEmpty()) {
      throw new IllegalArgumentException("at least one fusion (null: the corpus's default)");
    }
    if (maxQueries < 1) {
      throw new IllegalArgumentException("maxQueries must be at least 1; got " + maxQueries);
    }
    CorpusSettings resolved = config.embeddingModels().resolve(settings);
    EvalIndex kept = EvalIndex.existsIn(indexDir) ? EvalIndex.read(indexDir) : null;
    if (kept != null) {
      String mismatch = kept.mismatch(collection, resolved);
      if (mismatch != null) {
        throw new IllegalArgumentException(
            "the index in " + indexDir + " cannot be reused: " + mismatch);
      }
    }
    CorpusInfo info =
        new CorpusInfo(
            corpusName(collection.name()),
            kept != null ? kept.corpusId() : UUID.randomUUID().toString(),
            resolved,
            Instant.now());
    try (CorpusIndex index = CorpusIndex.open(indexDir, info, config)) {
      long start = System.nanoTime();
      long chunks;
      Duration indexing;
      if (kept != null) {
        chunks = kept.chunks();
        indexing = Duration.ZERO;
      } else {
        chunks = indexAll(index, collection.documents());
        indexing = Duration.ofNanos(System.nanoTime() - start);
        EvalIndex.of(collection, info.corpusId(), info.settings(), chunks, indexing)
            .write(indexDir);
      }

      List<BeirQuery> queries = collection.judgedQueries();
      queries = queries.subList(0, Math.min(maxQueries, queries.size()));
      List<EvalReport> reports = new ArrayList<>(modes.size());
      for (SearchRequest.Mode mode : modes) {
        SearchRequest.Mode effective =
            mode != null
                ? mode
                : info.settings().hasEmbedding()
                    ? SearchRequest.Mode.HYBRID
                    : SearchRequest.Mode.LEXICAL;
        // A lexical search has no semantic side to scan exactly.
        boolean exactScan = exact && effective != SearchRequest.Mode.LEXICAL;
        for (SearchRequest.Fusion fusion :
            effective == SearchRequest.Mode.HYBRID
                ? fusions
                : Collections.<SearchRequest.Fusion>singletonList(null)) {
          List<QueryScores> scores = new ArrayList<>(queries.size());
          start = System.nanoTime();
          for (BeirQuery query : queries) {
            List<String> ranking = rank(index, query.text(), effective, fusion, exactScan);
            var grades = collection.judgments().grades(query.id());
            scores.add(
                new QueryScores(
                    query.id(),
                    RankingMetrics.ndcg(ranking, grades, TOP),
                    RankingMetrics.recall(ranking, grades, RANKING_DEPTH),
                    RankingMetrics.reciprocalRank(ranking, grades, TOP)));
          }
          Duration searching = Duration.ofNanos(System.nanoTime() - start);
          reports.add(
              new EvalReport(
                  collection.name(),
                  info.settings(),
                  collection.documents().size(),
                  chunks,
                  scores,
                  indexing,
                  searching,
                  label(effective, fusion) + (exactScan ? " (exact scan)" : "")));
        }
      }
      return reports;
    }
  }

  private static long indexAll(CorpusIndex index, List<BeirDocument> documents) {
    long chunks = 0;
    for (int from = 0; from < documents.size(); from += BATCH_SIZE) {
      List<SourceOperation> batch = new ArrayList<>(BATCH_SIZE);
      for (BeirDocument doc :
          documents.subList(from, Math.min(from + BATCH_SIZE, documents.size()))) {
        String title = doc.title().isBlank() ? null : doc.title();
        batch.add(SourceOperation.Index.text(doc.id(), title, doc.text(), Metadata.EMPTY));
      }
      MutationResult result = index.apply(new Mutation(batch, SUBJECT, null, null));
      for (Receipt receipt : result.receipts()) {
        chunks += receipt.chunks();
      }
    }
    return chunks;
  }

  /** The ids of the best sources for {@code query}, best first, each once. */
  private static List<String> rank(
      CorpusIndex index,
      String query,
      SearchRequest.Mode mode,
      SearchRequest.Fusion fusion,
      boolean exactScan) {
    String text =
        query.length() > SearchRequest.MAX_QUERY_CHARS
            ? query.substring(0, SearchRequest.MAX_QUERY_CHARS)
            : query;
    SearchRequest request =
        new SearchRequest(
                text, SourceScope.ALL, List.of(), RANKING_DEPTH, null, 1, false, mode, fusion)
            .withExact(exactScan);
    // maxChunksPerSource already yields one hit per source; the set keeps the metrics right even
    // so.
    Set<String> sources = new LinkedHashSet<>();
    for (Hit hit : index.search(request).hits()) {
      sources.add(hit.source());
    }
    return List.copyOf(sources);
  }

  /**
   * The mode as a report names it: {@code hybrid (rrf)}, {@code hybrid (convex 0.3)} with a fusion
   * given.
   */
  static String label(SearchRequest.Mode mode, SearchRequest.Fusion fusion) {
    if (fusion == null) {
      return mode.wireName();
    }
    return mode.wireName()
        + " ("
        + fusion.method().wireName()
        + (fusion.semanticWeight() == null ? "" : " " + fusion.semanticWeight())
        + (fusion.normalization() == null ? "" : ", " + fusion.normalization().wireName())
        + ")";
  }

  /** A valid corpus name derived from the collection's name. */
  static String corpusName(String collection) {
    String name = collection.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    name = name.replaceFirst("^[^a-z0-9]+", "");
    if (name.isEmpty()) {
      return "eval";
    }
    return name.length() > 64 ? name.substring(0, 64) : name;
  }
}
