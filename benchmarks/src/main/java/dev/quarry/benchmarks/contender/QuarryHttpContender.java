package dev.quarry.benchmarks.contender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.server.QuarryServer;
import dev.quarry.api.server.ServerConfig;
import dev.quarry.api.server.TokenAuthenticator;
import dev.quarry.api.server.TokensFile;
import dev.quarry.api.wire.Feature;
import dev.quarry.benchmarks.corpus.SourceDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Quarry's standalone server ({@link QuarryServer}, what {@code quarry serve} runs) on
 * 127.0.0.1 over the index folder, with a tokens file, called through {@link java.net.http.HttpClient}:
 * a batch is one {@code POST /v1/retrieval/sources/batch} (one mutation, durable and visible when
 * the 200 arrives), a search is {@code POST /v1/retrieval/search} with the defaults (top 10,
 * highlights). The server runs in the benchmark's JVM, so client and server share its cores, as
 * they would share a 2-core machine in separate processes.
 */
final class QuarryHttpContender implements Contender {
  static final String CORPUS = "bench";

  private final QuarryServer server;
  private final JsonHttp http;

  private QuarryHttpContender(QuarryServer server, JsonHttp http) {
    this.server = server;
    this.http = http;
  }

  static QuarryHttpContender open(Path dir) throws IOException {
    String token = "qb_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    TokenAuthenticator tokens = readTokensFile(dir, token);
    QuarryServer server = QuarryServer.start(dir, "127.0.0.1", 0, tokens, textOnly(ServerConfig.DEFAULT));
    try {
      JsonHttp http = new JsonHttp(server.url(), "Bearer " + token);
      ObjectNode create = http.mapper.createObjectNode().put("corpus", CORPUS);
      JsonHttp.Answer created = http.postJson("/v1/retrieval/corpora/create", create);
      // 409: the corpus is there already (a prebuilt index opened again).
      if (created.status() != 200 && created.status() != 409) {
        throw new IOException("corpora/create answered " + created.status() + ": " + created.json());
      }
      return new QuarryHttpContender(server, http);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The tokens file a user would write: one token with every scope on every corpus, read back as the server reads it. */
  private static TokenAuthenticator readTokensFile(Path dir, String token) throws IOException {
    Path file = Files.createTempFile(dir.toAbsolutePath().getParent(), "tokens-", ".json");
    try {
      Files.writeString(file, "{\"tokens\": [{\"subject\": \"bench\", \"token\": \"" + token + "\","
          + " \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\", \"index\", \"manage\"]}]}]}",
          StandardCharsets.UTF_8);
      return TokensFile.read(file);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Text sources only: no document extraction pool (worker processes) is started beside the server. */
  private static ServerConfig textOnly(ServerConfig c) {
    Set<Feature> features = EnumSet.copyOf(c.features());
    features.removeAll(Set.of(Feature.DOCUMENT_INGESTION, Feature.PDF_INGESTION));
    return new ServerConfig(c.corsOrigins(), features, c.limits(), c.retainedRevisions(), c.idempotencyRetention(),
        c.maxOpenCorpora(), c.maxInFlight(), c.maxWaiting(), c.maxWaitMillis(), c.maxThreads(), c.extraction());
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) throws IOException {
    ObjectNode batch = http.mapper.createObjectNode().put("corpus", CORPUS);
    ArrayNode operations = batch.putArray("operations");
    for (SourceDocument d : documents) {
      ObjectNode index = operations.addObject().putObject("index").put("source", d.id()).put("text", d.text());
      if (d.title() != null) {
        index.put("title", d.title());
      }
    }
    http.postJsonOk("/v1/retrieval/sources/batch", batch);
  }

  @Override
  public List<JsonNode> search(String query) throws IOException {
    ObjectNode request = http.mapper.createObjectNode().put("corpus", CORPUS).put("query", query);
    JsonNode results = http.postJsonOk("/v1/retrieval/search", request).path("results");
    List<JsonNode> hits = new ArrayList<>(results.size());
    results.forEach(hits::add);
    return hits;
  }

  @Override
  public void close() {
    server.close();
  }
}
