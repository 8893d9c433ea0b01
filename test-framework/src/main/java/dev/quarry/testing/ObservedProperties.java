package dev.quarry.testing;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The documented answer properties a test's answers carried, as {@link ResponseProperties#key}
 * names them; thread-safe, as answers may be checked on an HTTP client's threads.
 */
public final class ObservedProperties implements OpenApiContract.Observer {
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  @Override
  public void observed(String schema, String path) {
    seen.add(ResponseProperties.key(schema, path));
  }

  /** Whether an answer carried {@code key}. */
  public boolean has(String key) {
    return seen.contains(key);
  }

  /** The properties of {@code documented} no answer carried, but for {@code exempt}. */
  public SortedSet<String> missing(Set<String> documented, Set<String> exempt) {
    SortedSet<String> missing = new TreeSet<>(documented);
    missing.removeAll(seen);
    missing.removeAll(exempt);
    return missing;
  }
}
