package dev.quarry.opensearch.scoring;

import java.util.List;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPlugin;

/**
 * Adds the {@code quarry_bm25f} query ({@link RevisionBm25fQueryBuilder}), the {@code quarry_dense}
 * query ({@link RevisionDenseQueryBuilder}) and the coded first pass's {@code quarry_coded} query
 * ({@link RevisionCodedQueryBuilder}) to an OpenSearch node, so that a Quarry front scores a
 * corpus on the cluster exactly as the embedded store does, lexically and semantically. Installed on
 * every node of the cluster (docs/scale-out.md); a front uses it only when every node has it.
 */
public final class QuarryScoringPlugin extends Plugin implements SearchPlugin {
  /** The plugin's name in {@code _nodes/plugins}, which a front looks for. */
  public static final String NAME = "quarry-scoring";

  @Override
  public List<QuerySpec<?>> getQueries() {
    return List.of(new QuerySpec<>(RevisionBm25fQueryBuilder.NAME, RevisionBm25fQueryBuilder::new,
        RevisionBm25fQueryBuilder::fromXContent),
        new QuerySpec<>(RevisionDenseQueryBuilder.NAME, RevisionDenseQueryBuilder::new,
            RevisionDenseQueryBuilder::fromXContent),
        new QuerySpec<>(RevisionCodedQueryBuilder.NAME, RevisionCodedQueryBuilder::new,
            RevisionCodedQueryBuilder::fromXContent));
  }
}
