package dev.quarry.engine.search;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.revision.RevisionView;
import dev.quarry.engine.revision.RevisionViews;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.AlreadyClosedException;

/**
 * Searches a corpus at one revision: reproducibly scored with that revision's statistics.
 *
 * <p>A search sees exactly the chunks visible at its revision ({@link RevisionViews}), scores them
 * with BM25F over text and title ({@link CombinedFields}) and the revision's statistics, ranks
 * them by exact score in a fixed summation order ({@link ChunkRanker}), and breaks ties by source
 * then chunk. The same request at the same revision therefore answers the same, whatever was
 * written or merged since.
 *
 * <p>Thread-safe; one per open corpus (it caches per-revision visibility and statistics).
 */
public final class RevisionSearcher {
  private final CorpusInfo info;
  private final Analyzer analyzer;
  private final CombinedFields fields;
  private final RevisionViews views = new RevisionViews();

  public RevisionSearcher(CorpusInfo info, Analyzer analyzer) {
    this.info = info;
    this.analyzer = analyzer;
    this.fields = CombinedFields.of(info.settings().ranking());
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
    long revision = revisionOf(snapshot, request);
    List<Hit> hits;
    try {
      hits = searchAt(snapshot, revision, request);
    } catch (IOException | UncheckedIOException | AlreadyClosedException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE,
          "corpus '" + info.name() + "' could not be searched", e);
    }
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new SearchResult(info.name(), info.corpusId(), revision, tookMs, hits);
  }

  private static long revisionOf(IndexSnapshot snapshot, SearchRequest request) {
    long latest = snapshot.revision();
    if (request.revision() == null) {
      return latest;
    }
    long pinned = request.revision();
    if (pinned > latest) {
      throw QuarryException.invalid("revision",
          "revision " + pinned + " is above the corpus's current revision " + latest);
    }
    if (pinned < snapshot.oldestRetainedRevision()) {
      throw new QuarryException(ErrorCode.REVISION_EXPIRED, "revision " + pinned
          + " is no longer retained; the oldest retained revision is " + snapshot.oldestRetainedRevision());
    }
    return pinned;
  }

  private List<Hit> searchAt(IndexSnapshot snapshot, long revision, SearchRequest request) throws IOException {
    QueryTerms terms = QueryTerms.analyze(analyzer, request.query());
    if (terms.isEmpty()) {
      return List.of();
    }
    RevisionView view = views.at(snapshot, revision);
    RevisionIndexSearcher searcher = new RevisionIndexSearcher(view, fields.similarity());
    ScoringPlan plan = ScoringPlan.build(searcher, fields, terms);
    if (plan.isEmpty()) {
      return List.of();
    }
    Query query = plan.query(FilterQueries.of(request.scope(), request.filters()));
    List<ScoredChunk> top = ChunkRanker.topChunks(searcher, query, new ExactScorer(view.reader(), plan),
        request.topK(), request.maxChunksPerSource());
    if (top.isEmpty()) {
      return List.of();
    }
    StoredFields stored = searcher.storedFields();
    List<Hit> hits = new ArrayList<>(top.size());
    for (ScoredChunk chunk : top) {
      hits.add(HitReader.read(stored, chunk, List.of()));
    }
    return request.highlight() ? withHighlights(searcher, plan, top, hits) : hits;
  }

  private List<Hit> withHighlights(RevisionIndexSearcher searcher, ScoringPlan plan, List<ScoredChunk> top,
      List<Hit> hits) throws IOException {
    int[] docs = new int[top.size()];
    Map<Integer, String> texts = new HashMap<>();
    for (int i = 0; i < docs.length; i++) {
      docs[i] = top.get(i).doc();
      texts.put(docs[i], hits.get(i).text());
    }
    List<List<int[]>> highlights = new MatchHighlighter(searcher, analyzer).matches(plan.textQuery(), docs, texts);
    List<Hit> highlighted = new ArrayList<>(hits.size());
    for (int i = 0; i < hits.size(); i++) {
      highlighted.add(hits.get(i).withHighlights(highlights.get(i)));
    }
    return highlighted;
  }
}
