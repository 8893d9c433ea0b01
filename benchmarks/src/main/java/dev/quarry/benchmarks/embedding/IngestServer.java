package dev.quarry.benchmarks.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.Feature;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokenAuthenticator;
import dev.quarry.app.server.TokensFile;
import dev.quarry.benchmarks.contender.JsonHttp;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Quarry's standalone server ({@link QuarryServer}, what {@code quarry serve} runs, with every
 * shipped model) on 127.0.0.1 over a new data folder, holding one hybrid corpus of one model, and
 * an HTTP client that writes documents into it with {@code POST /v1/retrieval/sources/batch}: the
 * ingestion a user's client does. Thread-safe; closing stops the server and deletes its folder.
 */
public final class IngestServer implements AutoCloseable {
  static final String CORPUS = "embedding-bench";

  private final Path folder;
  private final QuarryServer server;
  private final JsonHttp http;

  private IngestServer(Path folder, QuarryServer server, JsonHttp http) {
    this.folder = folder;
    this.server = server;
    this.http = http;
  }

  /** Starts a server and creates the corpus, embedded with {@code model}. */
  public static IngestServer start(String model) throws IOException {
    return start(model, true);
  }

  /**
   * Starts a server, with {@code model} loaded, and creates the corpus: embedded with the model
   * when {@code hybrid}, else lexical (the same requests, no model call per passage).
   */
  public static IngestServer start(String model, boolean hybrid) throws IOException {
    Path folder = Files.createTempDirectory("quarry-embedding-bench-");
    String token = "qb_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    Path tokensFile = folder.resolve("tokens.json");
    Files.writeString(
        tokensFile,
        "{\"tokens\": [{\"subject\": \"bench\", \"token\": \""
            + token
            + "\","
            + " \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\", \"index\", \"manage\"]}]}]}",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(tokensFile, PosixFilePermissions.fromString("rw-------"));
    TokenAuthenticator tokens = TokensFile.read(tokensFile);
    QuarryServer server =
        QuarryServer.start(
            folder.resolve("data"), "127.0.0.1", 0, tokens, textOnly(ServerConfig.DEFAULT));
    IngestServer s =
        new IngestServer(folder, server, new JsonHttp(server.url(), "Bearer " + token));
    try {
      ObjectNode create = s.http.mapper.createObjectNode().put("corpus", CORPUS);
      if (hybrid) {
        create.putObject("settings").putObject("embedding").put("model", model);
      }
      s.http.postJsonOk("/v1/retrieval/corpora/create", create);
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** Text sources only: no extraction pool (worker processes) beside the server. */
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

  /** Indexes {@code documents} in one batch request; returns the chunks its receipts count. */
  public long index(List<SourceDocument> documents) throws IOException {
    ObjectNode batch = http.mapper.createObjectNode().put("corpus", CORPUS);
    ArrayNode operations = batch.putArray("operations");
    for (SourceDocument d : documents) {
      operations
          .addObject()
          .putObject("index")
          .put("source", d.id())
          .put("title", d.title())
          .put("text", d.text());
    }
    JsonNode answer = http.postJsonOk("/v1/retrieval/sources/batch", batch);
    long chunks = 0;
    for (JsonNode result : answer.path("results")) {
      chunks += result.path("chunks").asLong();
    }
    return chunks;
  }

  @Override
  public void close() throws IOException {
    try {
      server.close();
    } finally {
      Workspace.delete(folder);
    }
  }
}
