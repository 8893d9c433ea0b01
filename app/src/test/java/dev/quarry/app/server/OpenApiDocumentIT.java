package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.OpenApiDocument;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.app.ServerPerClass;
import dev.quarry.app.ServerProcess;
import dev.quarry.engine.ErrorCode;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenApiContract;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code openapi.yaml} and the server say the same thing. The request field sets come from the
 * server's own readers: a body with an unknown field at some place is refused with the list of the
 * fields the reader knows there, and that list must equal the document's {@code properties} at the
 * same place, both ways. Adding a request field to a reader therefore fails here until the document
 * names it too (one line in openapi.yaml). Response shapes are checked on every answer any test
 * receives ({@link OpenApiContract}, called by {@link ApiClient}).
 */
class OpenApiDocumentIT {
  static final String T = TestTokens.ADMIN;
  static final String UNKNOWN = "zzUnknownField";
  static final JsonNode DOC = OpenApiContract.get().document();

  /** Backups on, so that the backup endpoint reads its body too. */
  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          .config(dir -> ServerProcess.backupConfig(dir.resolve("backups")))
          .corpus("c1");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  /**
   * One place in a request where a reader lists its fields: the endpoint, a body that is valid up
   * to an unknown field at that place, and the steps from the request body's schema to that place
   * ({@code []} for an array's items, {@code *} for a map's values).
   */
  record Probe(String path, String body, List<String> steps) {
    @Override
    public String toString() {
      return path + " " + String.join(".", steps);
    }
  }

  static Stream<Probe> probes() {
    String u = "\"" + UNKNOWN + "\": 1";
    return Stream.of(
        new Probe(
            "/v1/retrieval/search", "{\"corpus\": \"c1\", \"query\": \"q\", " + u + "}", List.of()),
        new Probe(
            "/v1/retrieval/search",
            "{\"corpus\": \"c1\", \"query\": \"q\", \"filter\": {\"year\": {" + u + "}}}",
            List.of("filter", "*")),
        new Probe(
            "/v1/retrieval/search",
            "{\"corpus\": \"c1\", \"query\": \"q\", \"facets\": [{" + u + "}]}",
            List.of("facets", "[]")),
        new Probe(
            "/v1/retrieval/search",
            "{\"corpus\": \"c1\", \"query\": \"q\", \"snippet\": {" + u + "}}",
            List.of("snippet")),
        new Probe(
            "/v1/retrieval/search",
            "{\"corpus\": \"c1\", \"query\": \"q\", \"filter\": {\"or\": [{\"year\": {"
                + u
                + "}}]}}",
            List.of("filter", "*")),
        new Probe(
            "/v1/retrieval/sources/index",
            "{\"corpus\": \"c1\", \"source\": \"s\", \"text\": \"t\", " + u + "}",
            List.of()),
        new Probe(
            "/v1/retrieval/sources/index",
            "{\"corpus\": \"c1\", \"source\": \"s\", \"passages\": [{\"text\": \"t\", " + u + "}]}",
            List.of("passages", "[]")),
        new Probe(
            "/v1/retrieval/sources/delete",
            "{\"corpus\": \"c1\", \"source\": \"s\", " + u + "}",
            List.of()),
        new Probe(
            "/v1/retrieval/sources/batch",
            "{\"corpus\": \"c1\", \"operations\": [], " + u + "}",
            List.of()),
        new Probe(
            "/v1/retrieval/sources/batch",
            "{\"corpus\": \"c1\", \"operations\": [{" + u + "}]}",
            List.of("operations", "[]")),
        new Probe(
            "/v1/retrieval/sources/batch",
            "{\"corpus\": \"c1\", \"operations\": [{\"index\": {\"source\": \"s\", \"text\": \"t\", "
                + u
                + "}}]}",
            List.of("operations", "[]", "index")),
        new Probe(
            "/v1/retrieval/sources/batch",
            "{\"corpus\": \"c1\", \"operations\": [{\"delete\": {\"source\": \"s\", " + u + "}}]}",
            List.of("operations", "[]", "delete")),
        new Probe(
            "/v1/retrieval/sources/read",
            "{\"corpus\": \"c1\", \"source\": \"s\", " + u + "}",
            List.of()),
        new Probe(
            "/v1/retrieval/sources/chunks",
            "{\"corpus\": \"c1\", \"source\": \"s\", " + u + "}",
            List.of()),
        new Probe("/v1/retrieval/sources/list", "{\"corpus\": \"c1\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/corpora/history", "{\"corpus\": \"c1\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/corpora/create", "{\"corpus\": \"c9\", " + u + "}", List.of()),
        new Probe(
            "/v1/retrieval/corpora/create",
            "{\"corpus\": \"c9\", \"settings\": {" + u + "}}",
            List.of("settings")),
        new Probe(
            "/v1/retrieval/corpora/create",
            "{\"corpus\": \"c9\", \"settings\": {\"chunking\": {" + u + "}}}",
            List.of("settings", "chunking")),
        new Probe(
            "/v1/retrieval/corpora/create",
            "{\"corpus\": \"c9\", \"settings\": {\"ranking\": {" + u + "}}}",
            List.of("settings", "ranking")),
        new Probe("/v1/retrieval/whoami", "{" + u + "}", List.of()),
        new Probe("/v1/retrieval/corpora/read", "{\"corpus\": \"c1\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/corpora/list", "{" + u + "}", List.of()),
        new Probe("/v1/retrieval/corpora/delete", "{\"corpus\": \"c1\", " + u + "}", List.of()),
        new Probe(
            "/v1/runs", "{\"provider\": \"retrieval\", \"input\": \"q\", " + u + "}", List.of()),
        new Probe(
            "/v1/runs",
            "{\"provider\": \"retrieval\", \"input\": \"q\", \"retrieval\": {\"corpus\": \"c1\", "
                + u
                + "}}",
            List.of("retrieval")),
        new Probe(
            "/v1/agui/retrieval", "{\"threadId\": \"t\", \"runId\": \"r\", " + u + "}", List.of()),
        new Probe(
            "/v1/agui/retrieval",
            "{\"threadId\": \"t\", \"runId\": \"r\", \"forwardedProps\": {" + u + "}}",
            List.of("forwardedProps")),
        new Probe(
            "/v1/agui/retrieval",
            "{\"threadId\": \"t\", \"runId\": \"r\", \"forwardedProps\": {\"retrieval\": {\"corpus\": \"c1\", "
                + u
                + "}}}",
            List.of("forwardedProps", "retrieval")),
        new Probe(
            "/v1/retrieval/ingest",
            "{\"corpus\": \"c1\", \"source\": \"s\", " + u + "}",
            List.of("request")),
        new Probe("/v1/retrieval/jobs/create", "{\"corpus\": \"c1\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/jobs/close", "{\"job\": \"job_x\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/jobs/cancel", "{\"job\": \"job_x\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/jobs/read", "{\"job\": \"job_x\", " + u + "}", List.of()),
        new Probe("/v1/retrieval/jobs/list", "{" + u + "}", List.of()),
        new Probe(
            "/v1/retrieval/jobs/upload",
            "{\"job\": \"job_x\", \"files\": [{\"source\": \"s\"}], " + u + "}",
            List.of("request")),
        new Probe(
            "/v1/retrieval/jobs/upload",
            "{\"job\": \"job_x\", \"files\": [{\"source\": \"s\", " + u + "}]}",
            List.of("request", "files", "[]")),
        new Probe(
            "/v1/retrieval/jobs/submit",
            "{\"corpus\": \"c1\", \"files\": [{\"source\": \"s\"}], " + u + "}",
            List.of("request")),
        new Probe(
            "/v1/retrieval/jobs/submit",
            "{\"corpus\": \"c1\", \"files\": [{\"source\": \"s\", " + u + "}]}",
            List.of("request", "files", "[]")),
        new Probe("/v1/admin/backup", "{\"name\": \"n\", " + u + "}", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("probes")
  void requestFields_areTheDocumentsFields(Probe probe) {
    boolean multipart =
        probe.path().endsWith("/ingest")
            || probe.path().endsWith("/jobs/upload")
            || probe.path().endsWith("/jobs/submit");
    Answer a =
        multipart
            ? Upload.send(
                api,
                T,
                probe.path(),
                probe.body(),
                "a.txt",
                "text".getBytes(StandardCharsets.UTF_8))
            : api.post(probe.path()).token(T).json(probe.body()).send();
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertTrue(a.field().endsWith(UNKNOWN), a::toString);
    String message = a.json().path("error").path("message").asText();
    int known = message.indexOf("known fields: ");
    assertTrue(known >= 0, "the refusal lists the known fields: " + message);
    Set<String> server =
        Arrays.stream(message.substring(known + "known fields: ".length()).split(","))
            .map(String::strip)
            .filter(f -> !f.isEmpty())
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        server,
        documented(probe),
        "openapi.yaml's properties at " + probe + " differ from the fields the server reads there");
  }

  @Test
  void everyRequestBodyIsProbed() {
    Set<String> documented = new TreeSet<>();
    DOC.path("paths")
        .fields()
        .forEachRemaining(
            p -> {
              if (p.getValue().path("post").has("requestBody")) {
                documented.add(p.getKey());
              }
            });
    Set<String> probed = probes().map(Probe::path).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(documented, probed, "every documented request body has its probe here");
  }

  @Test
  void errorCodes_featuresAndLimits_matchTheServers() {
    assertEquals(
        Arrays.stream(ErrorCode.values())
            .map(Enum::name)
            .collect(Collectors.toCollection(TreeSet::new)),
        strings(schema("ErrorCode").path("enum")));
    assertEquals(
        Arrays.stream(Feature.values())
            .map(Feature::wireName)
            .collect(Collectors.toCollection(TreeSet::new)),
        strings(schema("Protocol").at("/properties/features/items/enum")));
    JsonNode limits = schema("Protocol").at("/properties/limits");
    Set<String> limitNames =
        Arrays.stream(Limit.values())
            .map(Limit::wireName)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(limitNames, names(limits.path("properties")));
    assertEquals(limitNames, strings(limits.path("required")));
    for (Limit limit : Limit.values()) {
      assertEquals(
          limit.defaultValue(),
          limits.path("properties").path(limit.wireName()).path("default").asLong(),
          "the documented default of " + limit.wireName());
    }
  }

  /**
   * Every header of the contract that the server reads or writes is named in the document, as a
   * parameter or a response header, and an answer's protocol headers are among those named.
   */
  @Test
  void protocolHeaders_areDocumented() {
    Set<String> documented = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    // Where headers are named (the components' own headers map is keyed by component names).
    for (String place : List.of("/paths", "/components/parameters", "/components/responses")) {
      documentedHeaders(DOC.at(place), documented);
    }
    Set<String> server = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    server.addAll(ProtocolHeaders.CORS_REQUEST_HEADERS);
    server.removeAll(
        List.of("Authorization", "Content-Type")); // HTTP's own, and the security scheme's
    server.addAll(
        List.of(
            ProtocolHeaders.VERSION_HEADER,
            ProtocolHeaders.IDEMPOTENCY_KEY,
            ProtocolHeaders.IDEMPOTENT_REPLAYED,
            RequestIds.HEADER,
            "WWW-Authenticate"));
    Set<String> missing = new TreeSet<>(server);
    missing.removeAll(documented);
    assertEquals(
        Set.of(), missing, "headers the server reads or writes that openapi.yaml does not name");
    Answer a = api.get("/v1/protocol").token(T).header(RequestIds.HEADER, "trace-1").send();
    assertEquals("trace-1", a.header(RequestIds.HEADER));
    a.raw().headers().map().keySet().stream()
        .filter(
            h ->
                h.regionMatches(true, 0, "AgenticDriver-", 0, 14)
                    || h.equalsIgnoreCase(RequestIds.HEADER))
        .forEach(
            h ->
                assertTrue(
                    documented.contains(h), h + " is on the answer but not in openapi.yaml"));
  }

  /** The names of header parameters and response headers anywhere in {@code node}. */
  static void documentedHeaders(JsonNode node, Set<String> out) {
    if (node.isObject()) {
      if ("header".equals(node.path("in").asText(null)) && node.has("name")) {
        out.add(node.get("name").asText());
      }
      node.path("headers").fieldNames().forEachRemaining(out::add);
      node.elements().forEachRemaining(child -> documentedHeaders(child, out));
    } else if (node.isArray()) {
      node.forEach(child -> documentedHeaders(child, out));
    }
  }

  /**
   * The documented defaults of corpus settings are the ones a corpus created without settings gets.
   */
  @Test
  void settingsDefaults_areTheServers() {
    JsonNode created =
        ApiClient.ok(api.retrieval("corpora/create", T, "{\"corpus\": \"defaults\"}"))
            .get("settings");
    JsonNode settings = schema("Settings");
    assertEquals(
        settings.at("/properties/language/default").asText(), created.get("language").asText());
    for (String group : List.of("chunking", "ranking")) {
      JsonNode properties = settings.path("properties").path(group).path("properties");
      assertTrue(properties.size() > 0, "openapi.yaml documents settings." + group);
      properties
          .fields()
          .forEachRemaining(
              f -> {
                JsonNode documented = f.getValue().get("default");
                assertTrue(
                    documented != null && documented.isNumber(),
                    "a default for " + group + "." + f.getKey());
                assertEquals(
                    documented.doubleValue(),
                    created.path(group).path(f.getKey()).doubleValue(),
                    1e-12,
                    "the documented default of settings." + group + "." + f.getKey());
              });
    }
  }

  @Test
  void theDocumentIsServedWithoutAToken() {
    Answer a = api.get(OpenApiDocument.PATH).send();
    assertEquals(200, a.status(), a::toString);
    assertTrue(
        a.header("Content-Type").startsWith(OpenApiDocument.MEDIA_TYPE), a.header("Content-Type"));
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    assertArrayEquals(OpenApiDocument.bytes(), a.body().getBytes(StandardCharsets.UTF_8));
    assertEquals("3.1.0", DOC.path("openapi").asText());
    assertFalse(
        DOC.path("paths").path(OpenApiDocument.PATH).isMissingNode(),
        "the document describes itself");
  }

  /** A YAML slip (an unquoted comma in a flow mapping) turns prose into property names or nulls. */
  @Test
  void theDocumentHasNoStrayKeysOrNulls() {
    List<String> problems = new java.util.ArrayList<>();
    lint(DOC, "", problems);
    assertEquals(List.of(), problems);
  }

  static void lint(JsonNode node, String path, List<String> problems) {
    if (node.isNull()) {
      problems.add(path + " is null");
    }
    node.fields()
        .forEachRemaining(
            f -> {
              // A wire name is a word; a filter's reserved keys ($section) start with the dollar no
              // metadata key takes.
              if (path.endsWith("/properties") && !f.getKey().matches("\\$?[a-zA-Z][a-zA-Z0-9]*")) {
                problems.add(path + " has the property name '" + f.getKey() + "'");
              }
              lint(f.getValue(), path + "/" + f.getKey(), problems);
            });
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        lint(node.get(i), path + "/" + i, problems);
      }
    }
  }

  static Set<String> documented(Probe probe) {
    JsonNode node =
        DOC.at("/paths/" + probe.path().replace("/", "~1") + "/post/requestBody/content");
    node = node.elements().next().path("schema");
    node = resolve(node);
    for (String step : probe.steps()) {
      node =
          switch (step) {
            case "[]" -> resolve(node.path("items"));
            case "*" -> resolve(node.path("additionalProperties"));
            default -> resolve(node.path("properties").path(step));
          };
    }
    assertFalse(node.isMissingNode(), "openapi.yaml has a schema at " + probe);
    assertEquals(
        false,
        node.path("additionalProperties").asBoolean(true),
        "a request object at " + probe + " is strict: additionalProperties: false");
    return names(node.path("properties"));
  }

  /** Follows a $ref, and of a oneOf the object branch (the one with properties). */
  static JsonNode resolve(JsonNode node) {
    if (node.has("$ref")) {
      return resolve(DOC.at(node.get("$ref").asText().substring(1)));
    }
    if (node.has("oneOf")) {
      for (JsonNode branch : node.get("oneOf")) {
        JsonNode b = resolve(branch);
        if (b.has("properties")) {
          return b;
        }
      }
    }
    return node;
  }

  static JsonNode schema(String name) {
    return DOC.path("components").path("schemas").path(name);
  }

  static Set<String> names(JsonNode object) {
    Set<String> out = new TreeSet<>();
    object.fieldNames().forEachRemaining(out::add);
    return out;
  }

  static Set<String> strings(JsonNode array) {
    Set<String> out = new TreeSet<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }
}
