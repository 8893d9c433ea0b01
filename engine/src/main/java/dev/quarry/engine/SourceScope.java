package dev.quarry.engine;

import java.util.List;

/**
 * Which sources a search may return: everything, or the union of exact ids and prefixes (an entry
 * ending in {@code *} is a prefix; {@code *} alone is everything). Applied inside the Lucene query,
 * never by dropping hits after the top-k.
 */
public record SourceScope(List<String> entries) {
  public static final SourceScope ALL = new SourceScope(List.of("*"));

  public SourceScope {
    entries = List.copyOf(entries);
  }

  public boolean isAll() {
    return entries.contains("*");
  }

  /** Whether {@code source} lies inside this scope. */
  public boolean contains(String source) {
    for (String e : entries) {
      if (matches(e, source)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a single scope entry (an id, or a prefix ending in {@code *}) matches {@code source}. */
  public static boolean matches(String entry, String source) {
    if (entry.endsWith("*")) {
      return source.startsWith(entry.substring(0, entry.length() - 1));
    }
    return entry.equals(source);
  }
}
