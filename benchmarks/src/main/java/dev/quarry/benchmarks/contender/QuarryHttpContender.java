package dev.quarry.benchmarks.contender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.Feature;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokenAuthenticator;
import dev.quarry.app.server.TokensFile;
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
 * Quarry's standalone server ({@link QuarryServer}, what {@code quarry serve} runs) on 127.0.0.1
 * over the index folder, with a tokens file, called through {@link java.net.http.HttpClient}: a
 * batch is one {@code POST /v1/retrieval/sources/batch} (one mutation, durable and visible when the
 * 200 arrives), a search is {@code POST /v1/retrieval/search} with the defaults (top 10,
 * highlights). By default the server runs in the benchmark's JVM, so client and server share its
 * cores, its heap and its JIT, and the server is as cold as the fork.
 *
 * <p>With {@link ContenderKind#QUARRY_SERVER_URL_PROPERTY} set, the contender calls that server
 * instead, a {@code quarry serve} running in its own process for the whole run, as an OpenSearch
 * node is (token from the {@code QUARRY_TOKEN} environment variable): one corpus per benchmark
 * index folder, named after the folder, left on the server after the run.
 */
final class QuarryHttpContender implements Contender {
  static final String CORPUS = "bench";

  /** The environment variable holding the bearer token for a server given by URL. */
  static final String TOKEN_VARIABLE = "QUARRY_TOKEN";

  /**
   * The in-JVM server this contender started and closes; null when it calls a server given by URL.
   */
  private final QuarryServer server;

  private final JsonHttp http;
  private final String corpus;

  private QuarryHttpContender(QuarryServer server, JsonHttp http, String corpus) {
    this.server = server;
    this.http = http;
    this.corpus = corpus;
  }

  /** The URL of a running Quarry server to measure, or null to start one in this JVM. */
  static String configuredUrl() {
    return ContenderKind.setting(ContenderKind.QUARRY_SERVER_URL_PROPERTY);
  }

  static QuarryHttpContender open(Path dir) throws IOException {
    String url = configuredUrl();
    if (url != null) {
      String token = System.getenv(TOKEN_VARIABLE);
      if (token == null || token.isBlank()) {
        throw new IllegalStateException(
            "a Quarry server URL is given but no token: set " + TOKEN_VARIABLE);
      }
      return connect(dir, url, token);
    }
    String token = "qb_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    TokenAuthenticator tokens = readTokensFile(dir, token);
    QuarryServer server =
        QuarryServer.start(dir, "127.0.0.1", 0, tokens, textOnly(ServerConfig.DEFAULT));
    try {
      return create(server, new JsonHttp(server.url(), "Bearer " + token), CORPUS);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * The contender for the running server at {@code url}, creating this folder's corpus there if
   * absent.
   */
  static QuarryHttpContender connect(Path dir, String url, String token) throws IOException {
    return create(null, new JsonHttp(url, "Bearer " + token), corpusName(dir));
  }

  private static QuarryHttpContender create(QuarryServer server, JsonHttp http, String corpus)
      throws IOException {
    ObjectNode create = http.mapper.createObjectNode().put("corpus", corpus);
    JsonHttp.Answer created = http.postJson("/v1/retrieval/corpora/create", create);
    // 409: the corpus is there already (a prebuilt index opened again).
    if (created.status() != 200 && created.status() != 409) {
      throw new IOException("corpora/create answered " + created.status() + ": " + created.json());
    }
    return new QuarryHttpContender(server, http, corpus);
  }

  /**
   * Named after the folder, so a prebuilt index reopened in another fork finds its corpus on the
   * server.
   */
  private static String corpusName(Path dir) {
    return "bench-" + FolderNames.hash(dir);
  }

  /**
   * The tokens file a user would write: one token with every scope on every corpus, read back as
   * the server reads it.
   */
  private static TokenAuthenticator readTokensFile(Path dir, String token) throws IOException {
    Path file = Files.createTempFile(dir.toAbsolutePath().getParent(), "tokens-", ".json");
    try {
      Files.writeString(
          file,
          "{\"tokens\": [{\"subject\": \"bench\", \"token\": \""
              + token
              + "\","
              + " \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\", \"index\", \"manage\"]}]}]}",
          StandardCharsets.UTF_8);
      return TokensFile.read(file);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /**
   * Text sources only: no document extraction pool (worker processes) is started beside the server.
   */
  private static ServerConfig textOnly(ServerConfig c) {
    Set<Feature> features = EnumSet.copyOf(c.features());
    features.removeAll(Set.of(Feature.DOCUMENT_INGESTION, Feature.PDF_INGESTION));
    return new ServerConfig(
        c.corsOrigins(),
        features,
        c.limits(),
        c.retainedRevisions(),
        c.idempotencyRetention(),
        c.maxOpenCorpora(),
        c.maxInFlight(),
        c.maxWaiting(),
        c.maxWaitMillis(),
        c.maxThreads(),
        c.extraction());
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) throws IOException {
    ObjectNode batch = http.mapper.createObjectNode().put("corpus", corpus);
    ArrayNode operations = batch.putArray("operations");
    for (SourceDocument d : documents) {
      ObjectNode index =
          operations.addObject().putObject("index").put("source", d.id()).put("text", d.text());
      if (d.title() != null) {
        index.put("title", d.title());
      }
    }
    http.postJsonOk("/v1/retrieval/sources/batch", batch);
  }

  @Override
  public List<JsonNode> search(String query) throws IOException {
    ObjectNode request = http.mapper.createObjectNode().put("corpus", corpus).put("query", query);
    JsonNode results = http.postJsonOk("/v1/retrieval/search", request).path("results");
    List<JsonNode> hits = new ArrayList<>(results.size());
    results.forEach(hits::add);
    return hits;
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
