package dev.quarry.app.eval;

import java.util.List;
import java.util.Objects;

/**
 * A retrieval test collection in BEIR's layout: documents, queries in file order, and judgments.
 * Read one with {@link BeirReader#read}.
 */
public record BeirCollection(
    String name, List<BeirDocument> documents, List<BeirQuery> queries, Judgments judgments) {
  public BeirCollection {
    Objects.requireNonNull(name, "name");
    documents = List.copyOf(documents);
    queries = List.copyOf(queries);
    Objects.requireNonNull(judgments, "judgments");
  }

  /** The queries that have judgments, in file order: the ones an evaluation scores. */
  public List<BeirQuery> judgedQueries() {
    return queries.stream().filter(q -> judgments.isJudged(q.id())).toList();
  }
}
