package dev.quarry.corpora.access;

import dev.quarry.engine.SourceScope;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A grant: a corpus name (or a prefix ending in {@code *}), the sources inside it (ids or prefixes
 * ending in {@code *}; {@code *} for all) and the scopes allowed on them.
 */
public record Grant(String corpus, List<String> sources, Set<Scope> scopes) {
  public Grant {
    Objects.requireNonNull(corpus, "corpus");
    sources = List.copyOf(sources == null || sources.isEmpty() ? List.of("*") : sources);
    scopes = Set.copyOf(scopes.isEmpty() ? EnumSet.noneOf(Scope.class) : EnumSet.copyOf(scopes));
  }

  /** Whether this grant names {@code corpusName}. */
  public boolean coversCorpus(String corpusName) {
    return SourceScope.matches(corpus, corpusName);
  }

  /** Whether this grant covers every source of its corpus. */
  public boolean coversAllSources() {
    return sources.contains("*");
  }
}
