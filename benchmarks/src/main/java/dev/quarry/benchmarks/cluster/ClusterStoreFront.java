package dev.quarry.benchmarks.cluster;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.cluster.OpenSearchCorpusStore;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.util.ArrayList;
import java.util.List;

/**
 * One corpus on the cluster seen through one front (an {@link OpenSearchCorpusStore}): a batch is
 * one {@link Mutation} of {@link SourceOperation.Index} operations (one revision: lease, plan, bulk
 * write, refresh, publish; durable and visible on return), a search is a lexical search of the
 * latest revision (or one pinned revision), top 10, without highlights (the plain index's {@code
 * match} query computes none either). Several fronts may hold the same corpus; the store is its
 * opener's to close.
 */
final class ClusterStoreFront implements Contender {
  private static final String SUBJECT = "bench";

  private final OpenSearchCorpusStore store;
  private final String corpus;

  private ClusterStoreFront(OpenSearchCorpusStore store, String corpus) {
    this.store = store;
    this.corpus = corpus;
  }

  /**
   * Creates corpus {@code name} (default settings: English, the default chunking and ranking)
   * through {@code store}.
   */
  static ClusterStoreFront create(OpenSearchCorpusStore store, String name) {
    store.create(name, CorpusSettings.DEFAULT);
    return new ClusterStoreFront(store, name);
  }

  /** The existing corpus {@code name}, through another front's {@code store}. */
  static ClusterStoreFront open(OpenSearchCorpusStore store, String name) {
    return new ClusterStoreFront(store, name);
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) {
    List<SourceOperation> operations = new ArrayList<>(documents.size());
    for (SourceDocument d : documents) {
      operations.add(SourceOperation.Index.text(d.id(), d.title(), d.text(), Metadata.EMPTY));
    }
    store.withCorpus(corpus, index -> index.apply(new Mutation(operations, SUBJECT, null, null)));
  }

  @Override
  public List<?> search(String query) {
    SearchRequest request =
        new SearchRequest(query, SourceScope.ALL, List.of(), TOP_K, null, null, false);
    return store.withCorpus(corpus, index -> index.search(request).hits());
  }

  /**
   * A lexical search as {@link #search} by a token granted only {@code sources}: scoped to them and
   * scored with their statistics alone (the plugin's {@code statistics_sources}), as the server
   * asks; or, without {@code grantStatistics}, with every source's (as before they were the
   * grant's).
   */
  List<?> searchGranted(String query, List<String> sources, boolean grantStatistics) {
    SourceScope grant = new SourceScope(sources);
    SearchRequest request =
        new SearchRequest(query, grant, List.of(), TOP_K, null, null, false)
            .withStatistics(grantStatistics ? grant : SourceScope.ALL);
    return store.withCorpus(corpus, index -> index.search(request).hits());
  }

  /** A lexical search as {@link #search}, pinned to revision {@code revision}. */
  List<?> searchPinned(String query, long revision) {
    SearchRequest request =
        new SearchRequest(query, SourceScope.ALL, List.of(), TOP_K, revision, null, false);
    return store.withCorpus(corpus, index -> index.search(request).hits());
  }

  /**
   * Whether the cluster scores exactly (the scoring plugin): only then may a grant of some sources
   * search.
   */
  boolean scoresExactly() {
    return store.scoresExactly();
  }

  /** The corpus's published revision. */
  long revision() {
    return store.withCorpus(corpus, index -> index.revision());
  }

  String corpusName() {
    return corpus;
  }

  /** Deletes the corpus and its index. */
  void delete() {
    store.delete(corpus);
  }

  @Override
  public void close() {
    // The store is shared by the front's corpora; its opener closes it.
  }
}
