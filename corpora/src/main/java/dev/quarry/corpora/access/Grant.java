package dev.quarry.corpora.access;

import dev.quarry.engine.SourceScope;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A grant: a corpus name (or a prefix ending in {@code *}), the sources inside it (ids or prefixes
 * ending in {@code *}; {@code *} for all) and the scopes allowed on them.
 *
 * <p>{@code sources} null means every source ({@code ["*"]}), as an absent {@code sources} does in
 * a tokens file. An empty list is refused: "no sources" grants nothing useful, and reading it as
 * "every source" would grant the opposite of what it says, so a grant never holds an empty list. It
 * lists at most {@link #MAX_SOURCES} entries, so that the statistics of a search by its holder
 * (which count only those sources) can be counted by every store, an OpenSearch cluster included.
 *
 * @throws IllegalArgumentException when {@code sources} is empty or lists more than {@link
 *     #MAX_SOURCES}
 */
public record Grant(String corpus, List<String> sources, Set<Scope> scopes) {
  /** What a null {@code sources} stands for: every source of the corpus. */
  public static final List<String> EVERY_SOURCE = List.of("*");

  /** The most entries (ids and prefixes) a grant's {@code sources} may list. */
  public static final int MAX_SOURCES = 1024;

  public Grant {
    Objects.requireNonNull(corpus, "corpus");
    if (sources != null && sources.isEmpty()) {
      throw new IllegalArgumentException(
          "a grant's sources must not be empty: pass null (or [\"*\"]) for every "
              + "source of corpus '"
              + corpus
              + "', or name the sources");
    }
    if (sources != null && sources.size() > MAX_SOURCES) {
      throw new IllegalArgumentException(
          "a grant's sources may list at most "
              + MAX_SOURCES
              + " ids or prefixes; "
              + "the grant on corpus '"
              + corpus
              + "' lists "
              + sources.size()
              + ": grant a prefix ending in * instead");
    }
    sources = sources == null ? EVERY_SOURCE : List.copyOf(sources);
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
