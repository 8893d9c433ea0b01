package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.client.StubServer.Reply;
import dev.quarry.testing.OpenApiContract;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client reaches every endpoint of openapi.yaml that an application calls: each public method
 * is called once against a stub that answers every documented path, and the paths the stub received
 * must be the document's, less the few that are not an application's to call. A new endpoint in the
 * document fails here until the client has its method (or is listed below with the reason it has
 * none); each request to an operation the document gives an {@code Idempotency-Key} carries one,
 * and each JSON body matches the operation's request schema.
 */
class EveryEndpointTest {
  /** Documented endpoints the client has no method for, and why. */
  static final Map<String, String> NOT_THE_CLIENTS =
      Map.of(
          "/healthz", "a liveness probe, for orchestrators",
          "/readyz", "a readiness probe, for orchestrators and load balancers",
          "/metrics", "Prometheus' scrape endpoint",
          "/v1/openapi.yaml", "the contract itself, for tooling",
          "/v1/agui/retrieval", "spoken by AG-UI's own clients (docs/agui.md)",
          "/v1/agui/capabilities", "read by AG-UI's own clients (docs/agui.md)");

  @TempDir Path dir;
  StubServer stub;
  QuarryClient client;

  @BeforeEach
  void start() throws Exception {
    stub = new StubServer();
    for (String path : documented()) {
      stub.on(path, Reply.json(200, "{}"));
    }
    client = QuarryClient.create(stub.url(), "t0k3n");
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  static Set<String> documented() {
    Set<String> paths = new TreeSet<>();
    OpenApiContract.get().document().path("paths").fieldNames().forEachRemaining(paths::add);
    return paths;
  }

  @Test
  void everyApplicationEndpoint_hasAClientMethod() throws Exception {
    Path file = Files.writeString(dir.resolve("a.md"), "# A");
    List<JobFile> files = List.of(JobFile.of(file, "a.md"));
    List<Runnable> calls =
        List.of(
            client::protocol,
            client::whoami,
            () -> client.search("c", "q"),
            () -> client.createCorpus("c", null),
            () -> client.readCorpus("c"),
            () -> client.listCorpora(null, null),
            () -> client.deleteCorpus("c"),
            () -> client.index("c", Document.text("s", "t")),
            () -> client.delete("c", "s"),
            () -> client.batch("c", List.of(QuarryClient.BatchOperation.delete("s"))),
            () -> client.readSource("c", "s"),
            () -> client.readChunks("c", "s", null, null, null),
            () -> client.listSources("c", null, null, null),
            () -> client.history("c", 0, null),
            () ->
                client.ingest(
                    IngestRequest.of("c", "s"),
                    new ByteArrayInputStream("t".getBytes(StandardCharsets.UTF_8)),
                    "key"),
            () -> client.createJob("c", null),
            () -> client.uploadToJob("job_1", files, false),
            () -> client.submitJob("c", null, files),
            () -> client.closeJob("job_1"),
            () -> client.cancelJob("job_1"),
            () -> client.readJob("job_1", null, null),
            () -> client.listJobs(null, null, null, null),
            () -> client.backup("nightly", Duration.ofSeconds(10)),
            () -> client.run(RunRequest.of("c", "q")),
            () -> client.stream(RunRequest.of("c", "q")).close());
    for (Runnable call : calls) {
      try {
        call.run();
      } catch (QuarryClientException answerNotReadable) {
        // The stub's "{}" is no real answer; only the request matters here.
      }
    }
    Set<String> called =
        stub.received.stream()
            .map(StubServer.Received::path)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> expected = new TreeSet<>(documented());
    expected.removeAll(NOT_THE_CLIENTS.keySet());
    assertEquals(expected, called, "the client's methods and openapi.yaml's endpoints");
    JsonNode paths = OpenApiContract.get().document().path("paths");
    NOT_THE_CLIENTS
        .keySet()
        .forEach(p -> assertEquals(true, paths.has(p), p + " is still documented"));
    // Every request to an operation that takes an Idempotency-Key carried one.
    Set<String> keyed = new TreeSet<>();
    for (StubServer.Received r : stub.received) {
      JsonNode operation = paths.path(r.path()).path(r.method().toLowerCase(java.util.Locale.ROOT));
      for (JsonNode parameter : operation.path("parameters")) {
        if (parameter.path("$ref").asText().endsWith("/IdempotencyKey")) {
          keyed.add(r.path());
          assertNotNull(r.header("Idempotency-key"), r.path() + " without an Idempotency-Key");
        }
      }
    }
    assertEquals(
        Set.of(
            "/v1/retrieval/ingest",
            "/v1/retrieval/sources/batch",
            "/v1/retrieval/sources/delete",
            "/v1/retrieval/sources/index"),
        keyed,
        "the mutations the document keys");
    // Every JSON body written matches the operation's (closed) request schema; the multipart
    // uploads' request parts are held to theirs by StrictWriterTest.
    Set<String> checked = new TreeSet<>();
    for (StubServer.Received r : stub.received) {
      if (r.method().equals("POST")
          && String.valueOf(r.header("Content-type")).startsWith("application/json")) {
        OpenApiContract.get().checkRequest("POST", r.path(), Transport.JSON.readTree(r.body()));
        checked.add(r.path());
      }
    }
    Set<String> notJson = new TreeSet<>(called);
    notJson.removeAll(checked);
    assertEquals(
        Set.of(
            "/v1/protocol",
            "/v1/retrieval/ingest",
            "/v1/retrieval/jobs/submit",
            "/v1/retrieval/jobs/upload"),
        notJson,
        "every request but GET /v1/protocol and the uploads is JSON, and checked");
  }
}
