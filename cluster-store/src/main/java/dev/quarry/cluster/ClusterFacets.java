package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.spi.StoreRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.BytesRef;

/**
 * The facet counts of a search on the cluster: for each value of each asked field, the number of
 * distinct sources with a matching chunk that holds it, counted exactly.
 *
 * <p>A composite aggregation lists every distinct (metadata keyword, source) pair among the
 * matching chunks, in pages: composite aggregations are exact on any number of shards, unlike a
 * terms aggregation's shard-local top lists or a cardinality's estimate. Each pair of an asked
 * field adds one to its value. The chunks counted are the search's own (its query, scope, filters
 * and revision), narrowed to those holding one of the asked fields, which changes no count. Memory
 * grows with the distinct values; the cluster's work with the (value, source) pairs.
 */
final class ClusterFacets {
  /** Pairs per page of the composite aggregation. */
  static final int PAGE = 2000;

  private ClusterFacets() {}

  /**
   * The counts of {@code facets} over the chunks {@code matching} finds, in the request's order.
   */
  static List<FacetCounts> count(
      ClusterHttp http, String index, ObjectNode matching, List<SearchRequest.Facet> facets) {
    return count(http, index, matching, facets, PAGE);
  }

  /**
   * As {@link #count(ClusterHttp, String, ObjectNode, List)}, reading {@code page} pairs per
   * request.
   */
  static List<FacetCounts> count(
      ClusterHttp http,
      String index,
      ObjectNode matching,
      List<SearchRequest.Facet> facets,
      int page) {
    Map<String, Counts> byField = new LinkedHashMap<>();
    for (SearchRequest.Facet f : facets) {
      byField.put(f.field(), new Counts());
    }
    if (matching != null) {
      collect(http, index, matching, byField, page);
    }
    List<FacetCounts> out = new ArrayList<>(facets.size());
    for (SearchRequest.Facet f : facets) {
      Counts c = byField.get(f.field());
      out.add(StoreRules.rankFacet(f.field(), c.values, c.counts(), f.size()));
    }
    return out;
  }

  private static void collect(
      ClusterHttp http, String index, ObjectNode matching, Map<String, Counts> byField, int page) {
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    body.put("size", 0).put("track_total_hits", false);
    ArrayNode filter = body.putObject("query").putObject("bool").putArray("filter");
    filter.add(matching);
    ObjectNode any = filter.addObject().putObject("bool");
    ArrayNode should = any.putArray("should");
    for (String field : byField.keySet()) {
      should.addObject().putObject("prefix").put("meta_kv", field + "\u0000");
    }
    any.put("minimum_should_match", 1);
    ObjectNode composite = body.putObject("aggs").putObject("pairs").putObject("composite");
    composite.put("size", page);
    ArrayNode sources = composite.putArray("sources");
    sources.addObject().putObject("value").putObject("terms").put("field", "meta_kv");
    sources.addObject().putObject("source").putObject("terms").put("field", "source");
    while (true) {
      JsonNode pairs =
          http.json("POST", CorpusDocs.searchPath(index), body)
              .require("counting facets")
              .body()
              .path("aggregations")
              .path("pairs");
      for (JsonNode bucket : pairs.path("buckets")) {
        String keyword = bucket.path("key").path("value").asText();
        int nul = keyword.indexOf('\u0000');
        Counts counts = nul < 0 ? null : byField.get(keyword.substring(0, nul));
        if (counts != null) {
          counts.add(valueOf(keyword.substring(nul + 1)));
        }
      }
      JsonNode after = pairs.get("after_key");
      if (after == null || after.isNull() || pairs.path("buckets").size() < page) {
        return;
      }
      composite.set("after", after);
    }
  }

  /** The value a {@code meta_kv} keyword holds ({@link CorpusDocs#metaKey}): a number or a term. */
  private static Object valueOf(String typed) {
    return typed.startsWith("n:")
        ? (Object) Double.valueOf(typed.substring(2))
        : new BytesRef(typed.substring(2));
  }

  /**
   * One field's distinct values in the order first seen, and how many (value, source) pairs each
   * had.
   */
  private static final class Counts {
    final List<Object> values = new ArrayList<>();
    final Map<Object, Integer> ids = new HashMap<>();
    long[] pairs = new long[16];

    void add(Object value) {
      Integer id = ids.get(value);
      if (id == null) {
        id = values.size();
        ids.put(value, id);
        values.add(value);
        if (id == pairs.length) {
          pairs = Arrays.copyOf(pairs, id * 2);
        }
      }
      pairs[id]++;
    }

    long[] counts() {
      return Arrays.copyOf(pairs, values.size());
    }
  }
}
