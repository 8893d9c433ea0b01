package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Quarry's engine as a client uses it: a batch is one {@link Mutation} of {@link
 * SourceOperation.Index} operations (the {@code sources/batch} path: one revision, one group
 * commit), and a search is {@link SearchRequest#of} (top 10, highlights, full provenance), by a
 * caller who may see everything or, given a grant, by one granted only some sources.
 */
final class QuarryContender implements Contender {
  /** Fixed, so a cached index built in one JVM reopens as the same corpus in another. */
  static final CorpusInfo CORPUS =
      new CorpusInfo("bench", "bench", CorpusSettings.DEFAULT, Instant.EPOCH);

  private static final String SUBJECT = "bench";

  private final CorpusIndex index;

  private QuarryContender(CorpusIndex index) {
    this.index = index;
  }

  static QuarryContender open(Path dir) throws IOException {
    return new QuarryContender(CorpusIndex.open(dir, CORPUS, EngineConfig.defaults()));
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) {
    List<SourceOperation> operations = new ArrayList<>(documents.size());
    for (SourceDocument d : documents) {
      operations.add(SourceOperation.Index.text(d.id(), d.title(), d.text(), Metadata.EMPTY));
    }
    index.apply(new Mutation(operations, SUBJECT, null, null));
  }

  @Override
  public List<Hit> search(String query) {
    return index.search(SearchRequest.of(query)).hits();
  }

  /**
   * What {@code Corpora} asks of the engine for a token granted {@code sources}: its scope and
   * statistics.
   */
  @Override
  public List<Hit> search(String query, List<String> sources, boolean grantStatistics) {
    SourceScope grant = new SourceScope(sources);
    return index
        .search(
            SearchRequest.of(query)
                .withScope(grant)
                .withStatistics(grantStatistics ? grant : SourceScope.ALL))
        .hits();
  }

  @Override
  public void close() throws IOException {
    index.close();
  }
}
