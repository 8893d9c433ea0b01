package dev.quarry.engine.spi;

import dev.quarry.engine.search.QuerySyntax;
import java.util.List;

/**
 * The words and phrases of a query in the operator syntax, read as the embedded store reads them.
 */
public final class QueryClauses {
  /** What a clause of the query does. */
  public enum Occur {
    SHOULD,
    MUST,
    MUST_NOT
  }

  /** One word or phrase of the query, with its operator. */
  public record Clause(Occur occur, String text, boolean phrase) {}

  private QueryClauses() {}

  /** The clauses of {@code query}, in order. Never fails. */
  public static List<Clause> of(String query) {
    return QuerySyntax.clauses(query).stream()
        .map(c -> new Clause(Occur.valueOf(c.occur().name()), c.text(), c.phrase()))
        .toList();
  }
}
