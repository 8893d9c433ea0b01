package dev.quarry.benchmarks.contender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.benchmarks.corpus.SourceDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An OpenSearch node (its URL in {@link ContenderKind#OPENSEARCH_URL_PROPERTY}) used as an
 * application would: one index per benchmark index folder (1 shard, no replica, the {@code english}
 * analyzer on title and text), the same chunks as the other contenders loaded through {@code
 * _bulk}, and search as a {@code multi_match} over title and text, top 10, with every match of the
 * text highlighted.
 *
 * <p>OpenSearch keeps its defaults: each {@code _bulk} is durable when it answers (the translog is
 * fsync'd per request) but becomes visible at the next periodic refresh (1 s), not when the call
 * returns; {@link #awaitVisible} refreshes explicitly where the harness needs to search what was
 * just loaded. {@link ContenderKind#OPENSEARCH_REFRESH_PROPERTY} passes a {@code refresh} parameter
 * with every {@code _bulk} instead: {@code wait_for} (answer once a refresh has made the batch
 * visible) or {@code true} (refresh at once), to load visible-on-return like the others. The node's
 * indexes outlive the run: start a throwaway node.
 */
final class OpenSearchContender implements Contender {
  static final String URL_PROPERTY = ContenderKind.OPENSEARCH_URL_PROPERTY;

  private final JsonHttp http;
  private final String index;

  /** The path of a {@code _bulk}, with the configured {@code refresh} parameter if any. */
  private final String bulkPath;

  private OpenSearchContender(JsonHttp http, String index, String refresh) {
    this.http = http;
    this.index = index;
    this.bulkPath = "/" + index + "/_bulk" + (refresh == null ? "" : "?refresh=" + refresh);
  }

  /** The node's URL, or null when none was given. */
  static String configuredUrl() {
    return ContenderKind.setting(URL_PROPERTY);
  }

  static OpenSearchContender open(Path dir) throws IOException {
    String url = configuredUrl();
    if (url == null) {
      throw new IllegalStateException(
          "no OpenSearch URL given (--opensearch URL, or -D" + URL_PROPERTY + "=URL)");
    }
    String refresh =
        ContenderKind.openSearchRefresh(
            System.getProperty(ContenderKind.OPENSEARCH_REFRESH_PROPERTY));
    JsonHttp http = new JsonHttp(url, null);
    String index = indexName(dir);
    JsonHttp.Answer existing = http.send("HEAD", "/" + index, null, null);
    if (existing.status() == 404) {
      http.send(
              "PUT", "/" + index, http.mapper.writeValueAsBytes(mapping(http)), "application/json")
          .ok("create " + index);
    }
    return new OpenSearchContender(http, index, refresh);
  }

  /**
   * Named after the folder, so a prebuilt index reopened in another JVM finds its OpenSearch index.
   */
  private static String indexName(Path dir) {
    return "quarry-bench-" + FolderNames.hash(dir);
  }

  private static ObjectNode mapping(JsonHttp http) {
    ObjectNode body = http.mapper.createObjectNode();
    body.putObject("settings")
        .putObject("index")
        .put("number_of_shards", 1)
        .put("number_of_replicas", 0);
    ObjectNode properties = body.putObject("mappings").putObject("properties");
    properties.putObject("source").put("type", "keyword");
    properties.putObject("chunk").put("type", "integer");
    properties.putObject("start").put("type", "integer").put("index", false);
    properties.putObject("end").put("type", "integer").put("index", false);
    properties.putObject("title").put("type", "text").put("analyzer", "english");
    // Offsets in the postings, as the other contenders keep them for highlighting.
    properties
        .putObject("text")
        .put("type", "text")
        .put("analyzer", "english")
        .put("index_options", "offsets");
    return body;
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) throws IOException {
    ChunkBulk.send(http, bulkPath, documents);
  }

  @Override
  public List<JsonNode> search(String query) throws IOException {
    ObjectNode request = http.mapper.createObjectNode().put("size", TOP_K);
    request
        .putObject("query")
        .putObject("multi_match")
        .put("query", query)
        .putArray("fields")
        .add("title")
        .add("text");
    // number_of_fragments 0: the whole chunk with every match marked, like the others' match
    // offsets.
    request
        .putObject("highlight")
        .putObject("fields")
        .putObject("text")
        .put("number_of_fragments", 0);
    JsonNode hits =
        http.send(
                "POST",
                "/" + index + "/_search",
                http.mapper.writeValueAsBytes(request),
                "application/json")
            .ok("_search")
            .path("hits")
            .path("hits");
    List<JsonNode> list = new ArrayList<>(hits.size());
    hits.forEach(list::add);
    return list;
  }

  @Override
  public void awaitVisible() throws IOException {
    http.send("POST", "/" + index + "/_refresh", null, null).ok("_refresh");
  }

  @Override
  public void close() {
    // Nothing held open: the HttpClient's connections close with it.
  }
}
