package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceIds;
import dev.quarry.engine.SourceScope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /v1/retrieval/search}: only {@code corpus} and {@code query} are required.
 *
 * @param corpusId the corpus id the client expects, or null
 */
public record SearchBody(String corpus, String corpusId, SearchRequest request) {
  private static final Set<String> FIELDS =
      Set.of(
          "corpus",
          "corpusId",
          "query",
          "sources",
          "filter",
          "topK",
          "revision",
          "maxChunksPerSource",
          "highlight",
          "mode",
          "fusion",
          "facets",
          "snippet",
          "syntax",
          "language",
          "exact");
  private static final Set<String> SNIPPET_FIELDS = Set.of("maxChars", "html", "pre", "post");
  private static final Set<String> FACET_FIELDS = Set.of("field", "size");
  private static final Set<String> FUSION_FIELDS =
      Set.of("method", "semanticWeight", "normalization");

  public static SearchBody read(WireObject body, Limits limits) {
    body.allowOnly(FIELDS);
    String corpus = WireValues.corpus(body);
    String corpusId = WireValues.corpusId(body);
    String query = body.requireString("query");
    if (query.length() > limits.get(Limit.MAX_QUERY_CHARS)) {
      throw QuarryException.invalid(
          "query",
          "query may have at most "
              + limits.get(Limit.MAX_QUERY_CHARS)
              + " characters; got "
              + query.length());
    }
    SourceScope scope = scope(body, limits);
    List<Filter> filters = FilterReader.read(body, limits);
    int maxTopK = limits.getInt(Limit.MAX_TOP_K);
    Integer topK = body.optionalInt("topK", 1, maxTopK);
    Long revision = body.optionalLong("revision", 0, Long.MAX_VALUE);
    Integer maxChunks = body.optionalInt("maxChunksPerSource", 1, maxTopK);
    boolean highlight = body.optionalBoolean("highlight", true);
    String mode = body.optionalString("mode", 16);
    SearchRequest request =
        new SearchRequest(
                query,
                scope,
                filters,
                topK == null ? SearchRequest.DEFAULT_TOP_K : topK,
                revision,
                maxChunks,
                highlight,
                mode == null ? null : SearchRequest.Mode.fromWireName(mode, body.pathOf("mode")),
                fusion(body),
                facets(body, limits),
                snippets(body),
                syntax(body))
            .withExact(body.optionalBoolean("exact", false));
    String language = body.optionalString("language", 32);
    if (language != null) {
      request =
          request.withLanguage(
              CorpusSettings.Language.fromWireName(language, body.pathOf("language")));
    }
    return new SearchBody(corpus, corpusId, request);
  }

  /** How the query is read: {@code plain} (the default) or {@code operators}. */
  private static SearchRequest.Syntax syntax(WireObject body) {
    String syntax = body.optionalString("syntax", 16);
    return syntax == null
        ? SearchRequest.Syntax.PLAIN
        : SearchRequest.Syntax.fromWireName(syntax, body.pathOf("syntax"));
  }

  /**
   * {@code snippet}: {@code true} for the defaults, {@code false} or absent for none, or {@code
   * {"maxChars"?, "html"?, "pre"?, "post"?}}; markers apply to the HTML form, so giving one without
   * {@code "html": true} is refused rather than silently ignored.
   */
  private static SearchRequest.Snippets snippets(WireObject body) {
    JsonNode value = body.raw("snippet");
    if (value == null) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? SearchRequest.Snippets.DEFAULT : null;
    }
    if (!value.isObject()) {
      throw QuarryException.invalid(
          "snippet", "snippet must be true, false or an object; got " + WireObject.describe(value));
    }
    WireObject o = WireObject.at(value, "snippet").allowOnly(SNIPPET_FIELDS);
    Integer maxChars =
        o.optionalInt(
            "maxChars", SearchRequest.Snippets.MIN_CHARS, SearchRequest.Snippets.MAX_CHARS);
    boolean html = o.optionalBoolean("html", false);
    int maxMarker = SearchRequest.Snippets.Markers.MAX_MARKER_CHARS;
    String pre = o.optionalString("pre", maxMarker);
    String post = o.optionalString("post", maxMarker);
    if (!html && (pre != null || post != null)) {
      String field = pre != null ? "pre" : "post";
      throw QuarryException.invalid(
          o.pathOf(field), field + " marks matches in the HTML form; add \"html\": true");
    }
    SearchRequest.Snippets.Markers markers = null;
    if (html) {
      SearchRequest.Snippets.Markers d = SearchRequest.Snippets.Markers.DEFAULT;
      markers =
          new SearchRequest.Snippets.Markers(
              pre == null ? d.pre() : pre, post == null ? d.post() : post);
    }
    return new SearchRequest.Snippets(
        maxChars == null ? SearchRequest.Snippets.DEFAULT_MAX_CHARS : maxChars, markers);
  }

  /**
   * The facet fields: each entry a field name (the default size) or {@code {"field", "size"?}}; a
   * field named twice is refused at its second entry.
   */
  private static List<SearchRequest.Facet> facets(WireObject body, Limits limits) {
    List<JsonNode> items = body.optionalArray("facets", limits.getInt(Limit.MAX_FACETS));
    if (items == null) {
      return List.of();
    }
    List<SearchRequest.Facet> out = new ArrayList<>(items.size());
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      String path = body.pathOf("facets") + "[" + i + "]";
      JsonNode item = items.get(i);
      String field;
      int size = SearchRequest.Facet.DEFAULT_SIZE;
      String fieldPath = path;
      if (item.isTextual()) {
        field = item.textValue();
      } else if (item.isObject()) {
        WireObject facet = WireObject.at(item, path).allowOnly(FACET_FIELDS);
        field = facet.requireString("field");
        fieldPath = facet.pathOf("field");
        Integer requested = facet.optionalInt("size", 1, limits.getInt(Limit.MAX_FACET_SIZE));
        size = requested == null ? size : requested;
      } else {
        throw QuarryException.invalid(
            path,
            path
                + " must be a field name or {\"field\", \"size\"}; got "
                + WireObject.describe(item));
      }
      Metadata.checkKey(field, fieldPath);
      if (!seen.add(field)) {
        throw QuarryException.invalid(fieldPath, "facets names '" + field + "' twice");
      }
      out.add(new SearchRequest.Facet(field, size));
    }
    return out;
  }

  /**
   * Hybrid search's fusion, or null for the corpus's default (convex, with its semantic weight).
   */
  private static SearchRequest.Fusion fusion(WireObject body) {
    WireObject f = body.optionalObject("fusion");
    if (f == null) {
      return null;
    }
    f.allowOnly(FUSION_FIELDS);
    String method = f.optionalString("method", 16);
    Double weight = f.optionalNumber("semanticWeight");
    if (weight != null && !(weight >= 0 && weight <= 1)) {
      throw QuarryException.invalid(
          f.pathOf("semanticWeight"), "semanticWeight must be between 0 and 1; got " + weight);
    }
    SearchRequest.Fusion.Method m =
        method == null
            ? SearchRequest.Fusion.Method.CONVEX
            : SearchRequest.Fusion.Method.fromWireName(method, f.pathOf("method"));
    if (weight != null && m != SearchRequest.Fusion.Method.CONVEX) {
      throw QuarryException.invalid(
          f.pathOf("semanticWeight"), "semanticWeight applies to convex fusion only");
    }
    String normalization = f.optionalString("normalization", 16);
    CorpusSettings.Normalization n =
        normalization == null
            ? null
            : CorpusSettings.Normalization.fromWireName(normalization, f.pathOf("normalization"));
    if (n != null && m != SearchRequest.Fusion.Method.CONVEX) {
      throw QuarryException.invalid(
          f.pathOf("normalization"), "normalization applies to convex fusion only");
    }
    return new SearchRequest.Fusion(m, weight, n);
  }

  /** The requested scope, or ALL (narrowed to the grants by the corpora layer) when absent. */
  private static SourceScope scope(WireObject body, Limits limits) {
    List<String> entries =
        body.optionalStringList(
            "sources",
            limits.getInt(Limit.MAX_SOURCES_PER_SEARCH),
            limits.getInt(Limit.MAX_SOURCE_CHARS) + 1);
    if (entries == null) {
      return SourceScope.ALL;
    }
    if (entries.isEmpty()) {
      throw QuarryException.invalid(
          "sources", "sources must have at least one entry; omit it to search everything");
    }
    for (int i = 0; i < entries.size(); i++) {
      String entry = entries.get(i);
      String path = "sources[" + i + "]";
      if (entry.endsWith("*")) {
        // A prefix: it may end in anything a source id may contain, including a space.
        if (entry.chars().anyMatch(Character::isISOControl)) {
          throw QuarryException.invalid(
              path, "a source prefix must not contain control characters");
        }
      } else {
        SourceIds.check(entry, path);
      }
    }
    return new SourceScope(entries);
  }
}
