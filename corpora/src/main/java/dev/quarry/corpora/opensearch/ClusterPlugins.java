package dev.quarry.corpora.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;

/** What the cluster's nodes have installed. */
final class ClusterPlugins {
  /** Quarry's scoring plugin (the {@code quarry_bm25f} query), built from the project's {@code opensearch/} folder. */
  static final String SCORING = "quarry-scoring";

  private ClusterPlugins() {}

  /** Whether every node of the cluster lists the plugin {@code name} now. */
  static boolean everyNodeHas(ClusterHttp http, String name) {
    JsonNode nodes = http.get("/_nodes/plugins").require("listing the cluster's plugins").body().path("nodes");
    if (nodes.isEmpty()) {
      return false;
    }
    for (Iterator<JsonNode> it = nodes.elements(); it.hasNext(); ) {
      boolean has = false;
      for (JsonNode plugin : it.next().path("plugins")) {
        has |= name.equals(plugin.path("name").asText());
      }
      if (!has) {
        return false;
      }
    }
    return true;
  }
}
