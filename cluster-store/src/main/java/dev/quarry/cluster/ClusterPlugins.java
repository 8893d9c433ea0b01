package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;

/** What the cluster's nodes have installed. */
final class ClusterPlugins {
  /**
   * Quarry's scoring plugin (the {@code quarry_bm25f} query), built from the project's {@code
   * opensearch-plugin/} folder.
   */
  static final String SCORING = "quarry-scoring";

  private ClusterPlugins() {}

  /**
   * Whether every node of the cluster lists the plugin {@code name} now; false when the cluster
   * does not say (a user whose role may not read the nodes' information: docs/scale-out.md).
   */
  static boolean everyNodeHas(ClusterHttp http, String name) {
    ClusterHttp.Answer answer = http.get("/_nodes/plugins");
    if (!answer.ok()) {
      return false;
    }
    JsonNode nodes = answer.body().path("nodes");
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
