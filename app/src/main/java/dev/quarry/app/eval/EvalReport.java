package dev.quarry.app.eval;

import dev.quarry.engine.CorpusSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one {@link Evaluation}: mean scores over the evaluated queries, what was indexed,
 * and how long indexing and searching took.
 *
 * @param documents documents indexed, one source each
 * @param chunks chunks the documents were split into
 * @param perQuery each evaluated query's scores, in query order
 * @param indexing wall time from the first mutation to the last receipt (durable and visible)
 * @param searching wall time of all searches, run one after another
 * @param mode the search mode evaluated: lexical, semantic or hybrid
 */
public record EvalReport(
    String collection,
    CorpusSettings settings,
    int documents,
    long chunks,
    List<QueryScores> perQuery,
    Duration indexing,
    Duration searching,
    String mode) {
  public EvalReport {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(collection, "collection");
    Objects.requireNonNull(settings, "settings");
    perQuery = List.copyOf(perQuery);
    Objects.requireNonNull(indexing, "indexing");
    Objects.requireNonNull(searching, "searching");
  }

  /** A lexical evaluation. */
  public EvalReport(
      String collection,
      CorpusSettings settings,
      int documents,
      long chunks,
      List<QueryScores> perQuery,
      Duration indexing,
      Duration searching) {
    this(collection, settings, documents, chunks, perQuery, indexing, searching, "lexical");
  }

  public int queries() {
    return perQuery.size();
  }

  public double ndcgAt10() {
    return perQuery.stream().mapToDouble(QueryScores::ndcgAt10).average().orElse(0);
  }

  public double recallAt100() {
    return perQuery.stream().mapToDouble(QueryScores::recallAt100).average().orElse(0);
  }

  public double mrrAt10() {
    return perQuery.stream().mapToDouble(QueryScores::mrrAt10).average().orElse(0);
  }
}
