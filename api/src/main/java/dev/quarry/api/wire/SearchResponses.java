package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.Snippet;
import java.util.List;

/**
 * The response body of {@code search}: the revision answered at and the results with provenance.
 */
public final class SearchResponses {
  private SearchResponses() {}

  public static ObjectNode result(SearchResult result) {
    ObjectNode out = WireJson.object();
    out.put("corpus", result.corpus());
    out.put("corpusId", result.corpusId());
    out.put("revision", result.revision());
    out.put("tookMs", result.tookMs());
    ArrayNode results = out.putArray("results");
    result.hits().forEach(h -> results.add(hit(h)));
    if (!result.facets().isEmpty()) {
      ArrayNode facets = out.putArray("facets");
      result.facets().forEach(f -> facets.add(facet(f)));
    }
    return out;
  }

  private static ObjectNode facet(FacetCounts counts) {
    ObjectNode out = WireJson.object();
    out.put("field", counts.field());
    ArrayNode values = out.putArray("values");
    for (FacetCounts.Value v : counts.values()) {
      ObjectNode value = values.addObject();
      switch (v.value()) {
        case String s -> value.put("value", s);
        case Long l -> value.put("value", l);
        case Double d -> value.put("value", d);
        default -> throw new IllegalStateException("facet value " + v.value());
      }
      value.put("count", v.count());
    }
    out.put("distinctValues", counts.distinctValues());
    return out;
  }

  /** One result as search writes it; run results reuse it so passages look the same everywhere. */
  public static ObjectNode hit(Hit h) {
    ObjectNode out = WireJson.object();
    out.put("source", h.source());
    out.put("sourceRevision", h.sourceRevision());
    out.put("chunk", h.chunk());
    out.put("score", WireJson.score(h.score()));
    out.put("text", h.text());
    if (h.highlights() != null) {
      ArrayNode highlights = out.putArray("highlights");
      for (int[] range : h.highlights()) {
        highlights.addArray().add(range[0]).add(range[1]);
      }
    }
    WireJson.putIfPresent(out, "title", h.title());
    out.put("mediaType", h.mediaType() == null ? "text/plain" : h.mediaType());
    if (h.pages() != null) {
      out.putObject("pages").put("from", h.pages().from()).put("to", h.pages().to());
    }
    out.putObject("offsets").put("start", h.start()).put("end", h.end());
    section(out, h.section());
    table(out, h.table());
    WireJson.putIfPresent(out, "contentSha256", h.contentSha256());
    WireJson.putIfPresent(out, "language", h.language());
    out.set("metadata", WireJson.metadata(h.metadata()));
    if (h.snippet() != null) {
      Snippet snippet = h.snippet();
      ObjectNode o = out.putObject("snippet");
      o.put("text", snippet.text());
      o.put("start", snippet.start());
      o.put("end", snippet.end());
      ArrayNode highlights = o.putArray("highlights");
      for (int[] range : snippet.highlights()) {
        highlights.addArray().add(range[0]).add(range[1]);
      }
      WireJson.putIfPresent(o, "html", snippet.html());
    }
    if (h.parts() != null) {
      ObjectNode parts = out.putObject("parts");
      part(parts, "lexical", h.parts().lexicalScore(), h.parts().lexicalRank());
      part(parts, "semantic", h.parts().semanticScore(), h.parts().semanticRank());
    }
    return out;
  }

  /**
   * A chunk's headings, outermost first, always present: empty for a source without headings and
   * for chunks indexed before sections were kept, so a reader never has to tell the two apart.
   */
  public static void section(ObjectNode out, List<String> section) {
    ArrayNode headings = out.putArray("section");
    section.forEach(headings::add);
  }

  /**
   * The rows of a table a chunk holds, {@code {"index": 0, "rows": [1, 12]}}; absent outside
   * tables.
   */
  public static void table(ObjectNode out, ChunkTable table) {
    if (table != null) {
      out.putObject("table")
          .put("index", table.index())
          .putArray("rows")
          .add(table.firstRow())
          .add(table.lastRow());
    }
  }

  /**
   * One side's score and rank; the rank is absent when the chunk was not among that side's
   * candidates.
   */
  private static void part(ObjectNode parts, String side, Float score, Integer rank) {
    if (score == null) {
      return;
    }
    ObjectNode p = parts.putObject(side);
    p.put("score", WireJson.score(score));
    if (rank != null) {
      p.put("rank", rank);
    }
  }
}
