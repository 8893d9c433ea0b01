package dev.quarry.engine;

import java.util.List;

/**
 * Which sources a search may return: the union of exact ids and prefixes (an entry ending in {@code
 * *} is a prefix; {@code *} alone is everything). Applied inside the Lucene query, never by
 * dropping hits after the top-k.
 *
 * <p>{@link #ALL} (no entries) means the caller named no sources: the engine searches everything,
 * and the access layer narrows it to the caller's grants. An explicit {@code ["*"]} is different:
 * it asks for everything and is refused when the grants do not cover everything.
 *
 * @quarry.stable
 */
public record SourceScope(List<String> entries) {
  /** No sources named: everything the caller may see. */
  public static final SourceScope ALL = new SourceScope(List.of());

  public SourceScope {
    entries = List.copyOf(entries);
  }

  /** True when no entry restricts the search (no entries, or a {@code *} entry). */
  public boolean isAll() {
    return entries.isEmpty() || entries.contains("*");
  }

  /** True when the caller named no sources at all. */
  public boolean isUnspecified() {
    return entries.isEmpty();
  }

  /** Whether {@code source} lies inside this scope. */
  public boolean contains(String source) {
    if (isAll()) {
      return true;
    }
    for (String e : entries) {
      if (matches(e, source)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a single scope entry (an id, or a prefix ending in {@code *}) matches {@code source}.
   */
  public static boolean matches(String entry, String source) {
    if (entry.endsWith("*")) {
      return source.startsWith(entry.substring(0, entry.length() - 1));
    }
    return entry.equals(source);
  }

  /** Whether every source {@code inner} can match is also matched by {@code outer}. */
  public static boolean covers(String outer, String inner) {
    if (outer.endsWith("*")) {
      return inner.startsWith(outer.substring(0, outer.length() - 1));
    }
    return !inner.endsWith("*") && outer.equals(inner);
  }
}
