package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.SearchResponses;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /vector_stores/{id}/search}: Quarry's search of the store's corpus, within the
 * caller's grants, answered as OpenAI's search page. A query given as an array is searched as its
 * strings joined by spaces; {@code ranking_options.ranker} picks Quarry's mode ({@code auto} and
 * {@code default-2024-11-15}: the corpus's own, hybrid where it embeds; {@code none}: lexical
 * alone; Quarry's {@code lexical}, {@code semantic}, {@code hybrid} by name); {@code
 * score_threshold} drops results scored below it (lexical scores are BM25's, not bounded by 1);
 * {@code rewrite_query: true} is refused, since Quarry searches what it is given. Each result
 * carries, under {@code quarry}, its source, chunk, source revision, pages, offsets, section,
 * language and (on a table's passages) table, as Quarry's own hits do; {@code attributes} stay the
 * file's own, which filters read. The page carries the corpus revision it answered at, so the same
 * search can be told apart from a later one.
 */
final class SearchRoute {
  static final int MAX_RESULTS = 50;
  static final int DEFAULT_RESULTS = 10;
  private static final Set<String> FIELDS =
      Set.of("query", "filters", "max_num_results", "ranking_options", "rewrite_query");

  private final Backend backend;

  SearchRoute(Backend backend) {
    this.backend = backend;
  }

  void search(Context ctx, Access access) throws IOException {
    String store = ctx.pathParam("id");
    Params p = Params.of(backend.body(ctx, false), "", FIELDS);
    List<String> queries = queries(p);
    List<Filter> filters =
        p.has("filters") ? List.of(Filters.read(p.get("filters"), "filters")) : List.of();
    Integer max = p.optInt("max_num_results", 1, MAX_RESULTS);
    if (Boolean.TRUE.equals(p.optBoolean("rewrite_query"))) {
      throw OpenAiException.unsupported(
          "rewrite_query", "Quarry searches the query as given; send rewrite_query: false.");
    }
    SearchRequest.Mode mode = null;
    double threshold = Double.NEGATIVE_INFINITY;
    if (p.has("ranking_options")) {
      Params r =
          Params.of(
              p.get("ranking_options"), "ranking_options", Set.of("ranker", "score_threshold"));
      String ranker = r.optString("ranker");
      if (ranker != null) {
        mode =
            switch (ranker) {
              case "auto", "default-2024-11-15" -> null;
              case "none" -> SearchRequest.Mode.LEXICAL;
              case "lexical", "semantic", "hybrid" ->
                  SearchRequest.Mode.fromWireName(ranker, r.path("ranker"));
              default ->
                  throw r.invalidValue(
                      "ranker",
                      "'ranking_options.ranker' must be one of auto, default-2024-11-15, "
                          + "none, lexical, semantic, hybrid; got '"
                          + ranker
                          + "'.");
            };
      }
      Double t = r.optNumber("score_threshold");
      if (t != null) {
        if (!(t >= 0 && t <= 1)) {
          throw r.invalidValue(
              "score_threshold", "'ranking_options.score_threshold' must be between 0 and 1.");
        }
        threshold = t;
      }
    }
    String query = String.join(" ", queries);
    if (query.length() > SearchRequest.MAX_QUERY_CHARS) {
      throw new OpenAiException(
          400,
          "'query' may have at most "
              + SearchRequest.MAX_QUERY_CHARS
              + " characters; got "
              + query.length()
              + ".",
          "query",
          "invalid_value");
    }
    SearchRequest request;
    try {
      request =
          new SearchRequest(
              query,
              SourceScope.ALL,
              filters,
              max == null ? DEFAULT_RESULTS : max,
              null,
              null,
              false,
              mode,
              null);
    } catch (QuarryException e) {
      throw e.field() != null && e.field().startsWith("filter")
          ? new OpenAiException(400, e.getMessage(), "filters", "invalid_value")
          : e;
    }
    SearchResult result;
    try {
      CorpusInfo.checkName(store, "vector_store_id");
    } catch (QuarryException e) {
      throw OpenAiException.notFound("vector store", store);
    }
    try {
      result = backend.corpora().search(access, store, request, null);
    } catch (QuarryException e) {
      throw e.code() == ErrorCode.CORPUS_NOT_FOUND
          ? OpenAiException.notFound("vector store", store)
          : e;
    }
    ObjectNode out =
        backend.mapper().createObjectNode().put("object", "vector_store.search_results.page");
    ArrayNode searched = out.putArray("search_query");
    queries.forEach(searched::add);
    ArrayNode data = out.putArray("data");
    for (Hit hit : result.hits()) {
      if (hit.score() >= threshold) {
        data.add(render(hit));
      }
    }
    out.put("has_more", false).putNull("next_page");
    out.putObject("quarry")
        .put("corpus_id", result.corpusId())
        .put("revision", result.revision())
        .put("took_ms", result.tookMs());
    Replies.json(ctx, 200, out, backend.mapper());
  }

  private static List<String> queries(Params p) {
    JsonNode q = p.get("query");
    if (q == null) {
      throw p.missing("query");
    }
    List<String> out = new ArrayList<>();
    if (q.isTextual()) {
      out.add(q.asText());
    } else if (q.isArray() && !q.isEmpty()) {
      for (int i = 0; i < q.size(); i++) {
        if (!q.get(i).isTextual()) {
          throw new OpenAiException(
              400,
              "Invalid type for 'query[" + i + "]': expected a string.",
              "query[" + i + "]",
              "invalid_type");
        }
        out.add(q.get(i).asText());
      }
    } else {
      throw p.wrongType("query", "a string or a non-empty array of strings");
    }
    if (out.stream().allMatch(String::isBlank)) {
      throw p.invalidValue("query", "'query' must not be empty.");
    }
    return out;
  }

  private ObjectNode render(Hit hit) {
    String filename =
        Ids.isFile(hit.source())
            ? backend.files().find(hit.source()).map(f -> f.filename()).orElse(null)
            : null;
    if (filename == null) {
      filename = hit.title() != null ? hit.title() : hit.source();
    }
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("file_id", hit.source())
            .put("filename", filename)
            .put("score", hit.score());
    out.set("attributes", Attributes.write(hit.metadata(), backend.mapper()));
    out.putArray("content").addObject().put("type", "text").put("text", hit.text());
    ObjectNode quarry =
        out.putObject("quarry")
            .put("source", hit.source())
            .put("chunk", hit.chunk())
            .put("source_revision", hit.sourceRevision());
    if (hit.title() != null) {
      quarry.put("title", hit.title());
    }
    if (hit.mediaType() != null) {
      quarry.put("media_type", hit.mediaType());
    }
    if (hit.pages() != null) {
      quarry.putObject("pages").put("from", hit.pages().from()).put("to", hit.pages().to());
    }
    quarry.putObject("offsets").put("start", hit.start()).put("end", hit.end());
    // As Quarry's own hits, by the same writers: the headings (empty when none), the language,
    // a table's rows.
    SearchResponses.section(quarry, hit.section());
    if (hit.language() != null) {
      quarry.put("language", hit.language());
    }
    SearchResponses.table(quarry, hit.table());
    return out;
  }
}
