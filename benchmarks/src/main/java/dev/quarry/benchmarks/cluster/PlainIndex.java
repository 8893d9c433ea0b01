package dev.quarry.benchmarks.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.benchmarks.contender.ChunkBulk;
import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.JsonHttp;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.CorpusSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenSearch alone, as an application would use it beside the cluster store: one plain index with a
 * mapping equivalent to a corpus index's (the store's shards and replicas, BM25 with the corpus
 * defaults' k1 and b, title and text analysed by OpenSearch's {@code english} analyzer, source and
 * chunk number as fields, OpenSearch's default refresh interval and translog durability), the same
 * chunks loaded with {@code _bulk?refresh=wait_for} (durable and visible when it answers, the
 * store's promise), and search as a plain {@code match} query on the text, top 10.
 */
final class PlainIndex implements Contender {
  private final JsonHttp http;
  private final String name;

  private PlainIndex(JsonHttp http, String name) {
    this.http = http;
    this.name = name;
  }

  /** Creates index {@code name} and waits until its shards are active. */
  static PlainIndex create(JsonHttp http, String name, int shards, int replicas)
      throws IOException {
    ObjectNode body = http.mapper.createObjectNode();
    ObjectNode index = body.putObject("settings").putObject("index");
    index.put("number_of_shards", shards).put("number_of_replicas", replicas);
    CorpusSettings.Ranking ranking = CorpusSettings.DEFAULT.ranking();
    index
        .putObject("similarity")
        .putObject("corpus_bm25")
        .put("type", "BM25")
        .put("k1", ranking.k1())
        .put("b", ranking.b());
    ObjectNode properties = body.putObject("mappings").putObject("properties");
    properties.putObject("source").put("type", "keyword");
    properties.putObject("chunk").put("type", "integer");
    properties.putObject("start").put("type", "integer").put("index", false);
    properties.putObject("end").put("type", "integer").put("index", false);
    for (String text : List.of("title", "text")) {
      properties
          .putObject(text)
          .put("type", "text")
          .put("analyzer", "english")
          .put("similarity", "corpus_bm25");
    }
    http.send("PUT", "/" + name, http.mapper.writeValueAsBytes(body), "application/json")
        .ok("creating " + name);
    http.send(
            "GET",
            "/_cluster/health/" + name + "?wait_for_active_shards=all&timeout=30s",
            null,
            null)
        .ok("waiting for " + name);
    return new PlainIndex(http, name);
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) throws IOException {
    ChunkBulk.send(http, "/" + name + "/_bulk?refresh=wait_for", documents);
  }

  @Override
  public List<?> search(String query) throws IOException {
    ObjectNode request = http.mapper.createObjectNode().put("size", TOP_K);
    request.putObject("query").putObject("match").put("text", query);
    JsonNode hits =
        http.send(
                "POST",
                "/" + name + "/_search",
                http.mapper.writeValueAsBytes(request),
                "application/json")
            .ok("_search")
            .path("hits")
            .path("hits");
    List<JsonNode> list = new ArrayList<>(hits.size());
    hits.forEach(list::add);
    return list;
  }

  /** Deletes the index. */
  void delete() throws IOException {
    http.send("DELETE", "/" + name, null, null);
  }

  @Override
  public void close() {
    // Nothing held open.
  }
}
