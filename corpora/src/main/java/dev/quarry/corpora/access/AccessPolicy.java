package dev.quarry.corpora.access;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceScope;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides what an {@link Access} may do, as the contract's grants say. Refusals are FORBIDDEN and
 * never name the corpus or source refused, so a caller learns nothing outside its grants.
 */
public final class AccessPolicy {
  private AccessPolicy() {}

  /** Whether any grant of {@code access} names {@code corpus}, with any scope. */
  public static boolean anyGrant(Access access, String corpus) {
    for (Grant g : access.grants()) {
      if (g.coversCorpus(corpus)) {
        return true;
      }
    }
    return false;
  }

  /** FORBIDDEN unless a grant on {@code corpus} has one of {@code scopes}. */
  public static void requireCorpus(Access access, String corpus, Set<Scope> scopes) {
    if (grantsFor(access, corpus, scopes).isEmpty()) {
      throw forbidden();
    }
  }

  /**
   * FORBIDDEN unless a grant on {@code corpus} with one of {@code scopes} covers {@code source}.
   */
  public static void requireSource(Access access, String corpus, String source, Set<Scope> scopes) {
    if (!visibleSources(access, corpus, scopes).test(source)) {
      throw forbidden();
    }
  }

  /** The sources of {@code corpus} that grants with one of {@code scopes} cover. */
  public static Predicate<String> visibleSources(Access access, String corpus, Set<Scope> scopes) {
    List<String> entries = sourceEntries(access, corpus, scopes);
    if (entries.contains("*")) {
      return s -> true;
    }
    return s -> {
      for (String e : entries) {
        if (SourceScope.matches(e, s)) {
          return true;
        }
      }
      return false;
    };
  }

  /** True when grants with one of {@code scopes} cover every source of {@code corpus}. */
  public static boolean seesAllSources(Access access, String corpus, Set<Scope> scopes) {
    return sourceEntries(access, corpus, scopes).contains("*");
  }

  /**
   * The scope a search may use: the requested entries when each lies inside the search grants
   * (FORBIDDEN otherwise), or the grants' own entries when none were requested.
   */
  public static SourceScope searchScope(Access access, String corpus, SourceScope requested) {
    return searchScope(searchGrants(access, corpus), requested);
  }

  /**
   * {@link #searchScope(Access, String, SourceScope)} for a caller that already holds the {@link
   * #searchGrants} (a search, which needs them for its statistics too), so the grants are gone
   * through once.
   */
  public static SourceScope searchScope(SourceScope granted, SourceScope requested) {
    if (requested.isUnspecified()) {
      return granted;
    }
    if (granted.isAll()) {
      return requested;
    }
    for (String entry : requested.entries()) {
      boolean inside = false;
      for (String g : granted.entries()) {
        if (SourceScope.covers(g, entry)) {
          inside = true;
          break;
        }
      }
      if (!inside) {
        throw forbidden();
      }
    }
    return requested;
  }

  /**
   * The sources the search grants on {@code corpus} cover, {@link SourceScope#ALL} when they cover
   * every source. It is the scope of a search that names no sources, and always the scope its
   * lexical statistics count: every source the grants cover, whatever the request narrows its
   * results to, so that no score depends on a chunk the caller may not see, and the same caller's
   * scores do not change with the sources it filters on (ALL: the corpus's own statistics, at no
   * extra cost).
   *
   * @throws QuarryException FORBIDDEN when no search grant names the corpus
   */
  public static SourceScope searchGrants(Access access, String corpus) {
    List<String> granted = sourceEntries(access, corpus, EnumSet.of(Scope.SEARCH));
    if (granted.isEmpty()) {
      throw forbidden();
    }
    return granted.contains("*") ? SourceScope.ALL : new SourceScope(granted);
  }

  /**
   * The source entries of the grants on {@code corpus} with one of {@code scopes}; empty when none
   * applies, which every caller reads as "nothing" (fail closed), never as "everything".
   */
  private static List<String> sourceEntries(Access access, String corpus, Set<Scope> scopes) {
    Set<String> entries = new LinkedHashSet<>();
    for (Grant g : grantsFor(access, corpus, scopes)) {
      assert !g.sources().isEmpty() : "a grant never holds an empty sources list";
      entries.addAll(g.sources());
    }
    return new ArrayList<>(entries);
  }

  private static List<Grant> grantsFor(Access access, String corpus, Set<Scope> scopes) {
    List<Grant> out = new ArrayList<>();
    for (Grant g : access.grants()) {
      if (g.coversCorpus(corpus) && g.scopes().stream().anyMatch(scopes::contains)) {
        out.add(g);
      }
    }
    return out;
  }

  public static QuarryException forbidden() {
    return new QuarryException(ErrorCode.FORBIDDEN, "the token's grants do not allow this");
  }
}
