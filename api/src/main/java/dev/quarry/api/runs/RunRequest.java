package dev.quarry.api.runs;

import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.run.RetrievalOptions;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceIds;
import dev.quarry.engine.SourceScope;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /v1/runs}: {@code {"provider": "retrieval", "input"?, "retrieval": {"corpus",
 * "sources"?, "query"?, "topK"?, "revision"?, "corpusId"?}, "stream"?, "idleTimeoutMs"?}}, read
 * strictly. {@code retrieval.query} defaults to {@code input}; one of them is required.
 *
 * @param input the run's prompt, or null
 * @param idleTimeout null for no deadline (the default)
 */
public record RunRequest(
    String input, RetrievalOptions retrieval, boolean stream, Duration idleTimeout) {
  /** The one provider this host runs: retrieval on its own, with no model behind it. */
  public static final String PROVIDER = "retrieval";

  /** The longest idle timeout a run may ask for: a day. */
  public static final long MAX_IDLE_TIMEOUT_MS = 86_400_000L;

  private static final Set<String> FIELDS =
      Set.of("provider", "input", "retrieval", "stream", "idleTimeoutMs");
  private static final Set<String> RETRIEVAL_FIELDS =
      Set.of("corpus", "sources", "query", "topK", "revision", "corpusId");

  public static RunRequest read(WireObject body, Limits limits) {
    body.allowOnly(FIELDS);
    String provider = body.requireString("provider");
    if (!PROVIDER.equals(provider)) {
      throw QuarryException.invalid(
          "provider",
          "provider must be \""
              + PROVIDER
              + "\", the only provider of this host; got '"
              + (provider.length() > 64 ? provider.substring(0, 64) + "..." : provider)
              + "'");
    }
    String input = body.optionalString("input");
    WireObject options = body.optionalObject("retrieval");
    if (options == null) {
      throw body.missing("retrieval");
    }
    RetrievalOptions retrieval = retrieval(options, limits);
    if (retrieval.query() == null) {
      if (input == null) {
        throw QuarryException.invalid(
            "input", "input is required when retrieval.query is absent: it is the query");
      }
      if (input.length() > limits.get(Limit.MAX_QUERY_CHARS)) {
        throw QuarryException.invalid(
            "input",
            "input, used as the query, may have at most "
                + limits.get(Limit.MAX_QUERY_CHARS)
                + " characters; got "
                + input.length()
                + "; send retrieval.query");
      }
    }
    boolean stream = body.optionalBoolean("stream", false);
    Long idleMs = body.optionalLong("idleTimeoutMs", 1, MAX_IDLE_TIMEOUT_MS);
    return new RunRequest(
        input, retrieval, stream, idleMs == null ? null : Duration.ofMillis(idleMs));
  }

  /**
   * The {@code retrieval} option of a run; the AG-UI binding reads its {@code
   * forwardedProps.retrieval} with it too.
   */
  static RetrievalOptions retrieval(WireObject o, Limits limits) {
    o.allowOnly(RETRIEVAL_FIELDS);
    // The name itself is checked once, by RetrievalOptions, at the corpora layer's boundary.
    String corpus = o.requireString("corpus");
    SourceScope sources = sources(o, limits);
    String query = o.optionalString("query", limits.getInt(Limit.MAX_QUERY_CHARS));
    Integer topK = o.optionalInt("topK", 1, limits.getInt(Limit.MAX_TOP_K));
    Long revision = o.optionalLong("revision", 0, Long.MAX_VALUE);
    String corpusId = o.optionalString("corpusId", 128);
    return new RetrievalOptions(
        corpus,
        sources,
        query,
        topK == null ? RetrievalOptions.DEFAULT_TOP_K : topK,
        revision,
        corpusId);
  }

  /**
   * Source ids or prefixes ending in {@code *}, as a search's {@code sources}; absent is everything
   * granted.
   */
  private static SourceScope sources(WireObject o, Limits limits) {
    String field = o.pathOf("sources");
    List<String> entries =
        o.optionalStringList(
            "sources",
            limits.getInt(Limit.MAX_SOURCES_PER_SEARCH),
            limits.getInt(Limit.MAX_SOURCE_CHARS) + 1);
    if (entries == null) {
      return SourceScope.ALL;
    }
    if (entries.isEmpty()) {
      throw QuarryException.invalid(
          field, field + " must have at least one entry; omit it to search everything granted");
    }
    for (int i = 0; i < entries.size(); i++) {
      String entry = entries.get(i);
      String path = field + "[" + i + "]";
      if (!entry.endsWith("*")) {
        SourceIds.check(entry, path);
      } else if (entry.chars().anyMatch(Character::isISOControl)) {
        throw QuarryException.invalid(path, "a source prefix must not contain control characters");
      }
    }
    return new SourceScope(entries);
  }
}
