package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The MCP server at {@code /mcp} over real HTTP, spoken byte for byte as the Streamable HTTP
 * transport of the 2025-11-25 revision has it (the official TypeScript client's own run is
 * mcp/mcp.test.mjs): the handshake, the tools each token sees, what each tool answers, grants,
 * progress, resources, and every refusal in the protocol's own form.
 */
class McpOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          // Small resources/list pages, so that paging is exercised on a handful of sources.
          .config("{\"limits\": {\"defaultListLimit\": 2}}")
          .corpus("c1")
          .corpus("c2");

  static ApiClient api;
  static long revision;

  @BeforeAll
  static void start() {
    api = server.client();
    ApiClient.ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c1", "source": "public/leave.md", "title": "Leave policy",
         "text": "Parental leave is twenty weeks. Annual leave is twenty five days."}"""));
    revision =
        ApiClient.ok(
                api.retrieval(
                    "sources/index",
                    T,
                    """
        {"corpus": "c1", "source": "private/salaries.md", "title": "Salaries",
         "text": "Parental leave pay is confidential and so are salaries."}"""))
            .get("revision")
            .asLong();
    ApiClient.ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c2", "source": "other.md", "text": "Parental leave in the other corpus."}"""));
    // A document with headings and a table, whose passages have a section and rows.
    ApiClient.ok(
        Upload.send(
            api,
            T,
            "{\"corpus\": \"c2\", \"source\": \"tides.md\"}",
            "tides.md",
            ("# Harbour\n\nThe harbour master keeps the logbook.\n\n## Tides\n\n"
                    + "| Port | High tide |\n|---|---|\n| Bergen | 06:40 |\n")
                .getBytes(StandardCharsets.UTF_8)));
  }

  /** One MCP session of one token: initialize, then requests with the session id. */
  static final class Session {
    final String token;
    final String id;
    private final AtomicInteger ids = new AtomicInteger(1);

    Session(String token) throws Exception {
      this.token = token;
      HttpResponse<String> init =
          post(
              token,
              null,
              """
          {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
           "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""");
      assertEquals(200, init.statusCode(), init.body());
      this.id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      assertEquals(
          202,
          post(
                  token,
                  id,
                  """
          {"jsonrpc": "2.0", "method": "notifications/initialized"}""")
              .statusCode());
    }

    /** The JSON-RPC response to {@code method}, after any notifications (kept in {@code notes}). */
    JsonNode call(String method, String params, List<JsonNode> notes) throws Exception {
      int n = ids.incrementAndGet();
      HttpResponse<String> res =
          post(
              token,
              id,
              """
          {"jsonrpc": "2.0", "id": %d, "method": "%s", "params": %s}"""
                  .formatted(n, method, params));
      assertEquals(200, res.statusCode(), res.body());
      JsonNode answer = null;
      for (JsonNode m : messages(res)) {
        if (m.has("id")) {
          assertEquals(n, m.get("id").asInt());
          answer = m;
        } else if (notes != null) {
          notes.add(m);
        }
      }
      assertNotNull(answer, res.body());
      return answer;
    }

    JsonNode call(String method, String params) throws Exception {
      return call(method, params, null);
    }

    /** A tools/call's result. */
    JsonNode tool(String name, String arguments) throws Exception {
      JsonNode answer =
          call(
              "tools/call",
              """
          {"name": "%s", "arguments": %s}"""
                  .formatted(name, arguments));
      assertTrue(answer.has("result"), answer::toString);
      return answer.get("result");
    }
  }

  static HttpResponse<String> post(String token, String session, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return api.http().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The messages of an answer: one JSON body, or the data lines of an event stream. */
  static List<JsonNode> messages(HttpResponse<String> res) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    String type = res.headers().firstValue("Content-Type").orElse("");
    if (type.startsWith("text/event-stream")) {
      for (String line : res.body().split("\n")) {
        if (line.startsWith("data:")) {
          out.add(ApiClient.JSON.readTree(line.substring(5).strip()));
        }
      }
    } else {
      out.add(ApiClient.JSON.readTree(res.body()));
    }
    return out;
  }

  static Set<String> toolNames(Session s) throws Exception {
    Set<String> names = new TreeSet<>();
    s.call("tools/list", "{}").at("/result/tools").forEach(t -> names.add(t.get("name").asText()));
    return names;
  }

  @Test
  void initialize_answersTheSpecRevisionAndASession() throws Exception {
    HttpResponse<String> init =
        post(
            T,
            null,
            """
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
         "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""");
    assertEquals(200, init.statusCode());
    JsonNode result = messages(init).get(0).get("result");
    assertEquals("2025-11-25", result.get("protocolVersion").asText());
    assertEquals("quarry", result.at("/serverInfo/name").asText());
    assertTrue(result.at("/capabilities").has("tools"));
    assertTrue(result.at("/capabilities").has("resources"));
    assertFalse(init.headers().firstValue("Mcp-Session-Id").orElseThrow().isBlank());
  }

  @Test
  void toolsList_showsWritingToolsOnlyToTokensThatMayIndex() throws Exception {
    assertEquals(
        Set.of("delete_source", "index_text", "list_corpora", "list_sources", "read", "search"),
        toolNames(new Session(T)));
    assertEquals(
        Set.of("list_corpora", "list_sources", "read", "search"),
        toolNames(new Session(TestTokens.SEARCH_C1)));
  }

  @Test
  void everyToolsSchema_describesEveryField() throws Exception {
    for (JsonNode tool : new Session(T).call("tools/list", "{}").at("/result/tools")) {
      assertFalse(tool.get("description").asText().isBlank());
      assertEquals("object", tool.at("/inputSchema/type").asText());
      tool.at("/inputSchema/properties")
          .forEach(
              p ->
                  assertFalse(
                      p.path("description").asText().isBlank(), tool.get("name") + ": " + p));
      assertEquals("object", tool.at("/outputSchema/type").asText(), tool.get("name").asText());
    }
  }

  @Test
  void search_answersPassagesWithTheirRevisionAndResourceUri() throws Exception {
    JsonNode result =
        new Session(T)
            .tool(
                "search",
                """
        {"corpus": "c1", "query": "parental leave", "topK": 5}""");
    assertFalse(result.path("isError").asBoolean(), result::toString);
    JsonNode out = result.get("structuredContent");
    assertEquals(revision, out.get("revision").asLong());
    JsonNode first = out.at("/results/0");
    assertTrue(
        Set.of("public/leave.md", "private/salaries.md").contains(first.get("source").asText()));
    assertEquals(revision, first.get("revision").asLong());
    assertTrue(first.get("snippet").asText().toLowerCase().contains("leave"), first::toString);
    assertTrue(first.at("/offsets/end").asInt() > 0);
    assertTrue(first.get("score").asDouble() > 0);
    assertTrue(first.get("uri").asText().startsWith("quarry://c1/"));
    assertEquals(out, ApiClient.JSON.readTree(result.at("/content/0/text").asText()));
  }

  @Test
  void search_carriesTheSectionLanguageAndTableOfTheSearchEndpointsHits() throws Exception {
    Session session = new Session(T);
    for (String query : List.of("Bergen", "logbook")) {
      JsonNode result =
          session.tool("search", "{\"corpus\": \"c2\", \"query\": \"" + query + "\"}");
      assertFalse(result.path("isError").asBoolean(), result::toString);
      JsonNode mcp = result.at("/structuredContent/results/0");
      JsonNode hit =
          ApiClient.ok(
                  api.retrieval("search", T, "{\"corpus\": \"c2\", \"query\": \"" + query + "\"}"))
              .at("/results/0");
      assertEquals("tides.md", mcp.get("source").asText(), mcp::toString);
      assertEquals(hit.get("chunk"), mcp.get("chunk"));
      for (String field : List.of("section", "language", "table")) {
        assertEquals(hit.get(field), mcp.get(field), query + ": " + field + " of " + mcp);
      }
      assertEquals(
          result.get("structuredContent"),
          ApiClient.JSON.readTree(result.at("/content/0/text").asText()));
    }
    JsonNode row =
        session
            .tool("search", "{\"corpus\": \"c2\", \"query\": \"Bergen\"}")
            .at("/structuredContent/results/0");
    assertEquals(ApiClient.JSON.readTree("[\"Harbour\", \"Tides\"]"), row.get("section"));
    assertEquals("english", row.get("language").asText());
    assertEquals(ApiClient.JSON.readTree("{\"index\": 0, \"rows\": [1, 1]}"), row.get("table"));
    JsonNode prose =
        session
            .tool("search", "{\"corpus\": \"c2\", \"query\": \"logbook\"}")
            .at("/structuredContent/results/0");
    assertEquals(ApiClient.JSON.readTree("[\"Harbour\"]"), prose.get("section"));
    assertFalse(prose.has("table"), prose::toString);
    JsonNode listed =
        session.tool("list_sources", "{\"corpus\": \"c2\"}").at("/structuredContent/sources");
    listed.forEach(s -> assertEquals("english", s.path("language").asText(), s::toString));
    assertEquals(2, listed.size(), listed::toString);
  }

  @Test
  void read_carriesTheSectionAndTableOfSourcesChunks() throws Exception {
    Session session = new Session(T);
    JsonNode result = session.tool("read", "{\"corpus\": \"c2\", \"source\": \"tides.md\"}");
    assertFalse(result.path("isError").asBoolean(), result::toString);
    JsonNode mcp = result.at("/structuredContent/chunks");
    JsonNode http =
        ApiClient.ok(
                api.retrieval(
                    "sources/chunks",
                    T,
                    "{\"corpus\": \"c2\", \"source\": \"tides.md\", \"limit\": 10}"))
            .get("chunks");
    assertEquals(http.size(), mcp.size(), () -> http + " and " + mcp);
    boolean sawTable = false;
    for (int i = 0; i < mcp.size(); i++) {
      assertEquals(http.get(i).get("chunk"), mcp.get(i).get("chunk"));
      for (String field : List.of("section", "table")) {
        assertEquals(http.get(i).get(field), mcp.get(i).get(field), field + " of " + mcp.get(i));
      }
      sawTable |= mcp.get(i).has("table");
      assertFalse(mcp.get(i).path("section").isEmpty(), "every passage is under a heading");
    }
    assertTrue(sawTable, "the table's passage says so: " + mcp);
  }

  @Test
  void search_withAProgressToken_reportsTheRunsPhasesFirst() throws Exception {
    List<JsonNode> notes = new ArrayList<>();
    JsonNode answer =
        new Session(T)
            .call(
                "tools/call",
                """
        {"name": "search", "arguments": {"corpus": "c1", "query": "leave"}, "_meta": {"progressToken": "p-1"}}""",
                notes);
    assertFalse(answer.at("/result/isError").asBoolean());
    List<String> phases = new ArrayList<>();
    double last = 0;
    for (JsonNode n : notes) {
      assertEquals("notifications/progress", n.get("method").asText());
      assertEquals("p-1", n.at("/params/progressToken").asText());
      assertTrue(n.at("/params/progress").asDouble() > last, "progress increases");
      last = n.at("/params/progress").asDouble();
      phases.add(n.at("/params/message").asText().split(" ")[0]);
    }
    assertEquals(
        List.of("retrieval.resolving-sources", "retrieval.searching", "retrieval.completed"),
        phases);
  }

  @Test
  void aTokenRestrictedToPublic_seesNothingElseThroughAnyTool() throws Exception {
    Session s = new Session(TestTokens.PUBLIC_C1);
    JsonNode search =
        s.tool(
                "search",
                """
        {"corpus": "c1", "query": "parental leave salaries confidential"}""")
            .get("structuredContent");
    assertFalse(search.get("results").isEmpty());
    search
        .get("results")
        .forEach(r -> assertTrue(r.get("source").asText().startsWith("public/"), r::toString));
    JsonNode sources =
        s.tool(
                "list_sources",
                """
        {"corpus": "c1"}""")
            .get("structuredContent");
    assertEquals(1, sources.get("sources").size());
    assertEquals("public/leave.md", sources.at("/sources/0/source").asText());
    JsonNode corpora = s.tool("list_corpora", "{}").get("structuredContent");
    assertEquals(1, corpora.get("corpora").size());
    assertEquals("c1", corpora.at("/corpora/0/corpus").asText());
    assertRefused(
        s.tool(
            "read",
            """
        {"corpus": "c1", "source": "private/salaries.md"}"""),
        "FORBIDDEN");
    assertRefused(
        s.tool(
            "read",
            """
        {"corpus": "c1", "source": "private/does-not-exist.md"}"""),
        "FORBIDDEN");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c2", "query": "leave"}"""),
        "FORBIDDEN");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "leave", "sources": ["private/*"]}"""),
        "FORBIDDEN");
    JsonNode resource =
        s.call(
            "resources/read",
            """
        {"uri": "quarry://c1/private%2Fsalaries.md"}""");
    assertEquals(-32602, resource.at("/error/code").asInt(), resource::toString);
    assertEquals("FORBIDDEN", resource.at("/error/data/code").asText());
    assertFalse(resource.toString().contains("confidential"));
  }

  @Test
  void read_givesAPassageWithItsNeighboursAtTheSearchRevision() throws Exception {
    Session s = new Session(T);
    JsonNode out =
        s.tool(
                "read",
                """
        {"corpus": "c1", "source": "public/leave.md", "chunk": 0, "revision": %d}"""
                    .formatted(revision))
            .get("structuredContent");
    assertEquals(revision, out.get("revision").asLong());
    assertTrue(
        out.at("/chunks/0/text").asText().startsWith("Parental leave is twenty weeks"),
        out::toString);
    assertEquals("Leave policy", out.get("title").asText());
  }

  @Test
  void badArguments_areToolErrorsNamingTheField() throws Exception {
    Session s = new Session(T);
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "x", "topK": 0}"""),
        "INVALID_REQUEST",
        "topK");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "x", "colour": "red"}"""),
        "INVALID_REQUEST",
        "colour");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1"}"""),
        "INVALID_REQUEST",
        "query");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "%s"}"""
                .formatted("x".repeat(1001))),
        "INVALID_REQUEST",
        "query");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "absent", "query": "x"}"""),
        "CORPUS_NOT_FOUND");
    // The search endpoint's own options pass through, with its own refusals: c1 is lexical, in
    // english.
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "x", "exact": true}"""),
        "INVALID_REQUEST",
        "exact");
    assertRefused(
        s.tool(
            "search",
            """
        {"corpus": "c1", "query": "x", "language": "german"}"""),
        "INVALID_REQUEST",
        "language");
    assertTrue(
        s.tool(
                "search",
                """
        {"corpus": "c1", "query": "leave", "language": "english"}""")
            .path("structuredContent")
            .has("results"));
    assertRefused(
        s.tool(
            "read",
            """
        {"corpus": "c1", "source": "public/leave.md", "chunk": 0, "limit": 3}"""),
        "INVALID_REQUEST",
        "limit");
  }

  @Test
  void anUnknownTool_isAJsonRpcInvalidParamsError() throws Exception {
    JsonNode answer =
        new Session(T)
            .call(
                "tools/call",
                """
        {"name": "drop_everything", "arguments": {}}""");
    assertEquals(-32602, answer.at("/error/code").asInt(), answer::toString);
  }

  @Test
  void requestsWithoutTheirParams_areInvalidParamsWithTheirId() throws Exception {
    Session s = new Session(T);
    for (String params :
        new String[] {"{}", "{\"name\": 7}", "{\"name\": \"search\", \"arguments\": [1]}"}) {
      HttpResponse<String> res =
          post(
              T,
              s.id,
              """
          {"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": %s}"""
                  .formatted(params));
      JsonNode answer = messages(res).get(0);
      assertEquals(41, answer.get("id").asInt(), res.body());
      assertEquals(-32602, answer.at("/error/code").asInt(), res.body());
      assertTrue(answer.at("/error/data/field").asText().startsWith("params."), res.body());
      assertFalse(res.body().contains("Exception") || res.body().contains("jackson"), res.body());
    }
    JsonNode noUri =
        messages(
                post(
                    T,
                    s.id,
                    """
        {"jsonrpc": "2.0", "id": 42, "method": "resources/read", "params": {}}"""))
            .get(0);
    assertEquals("params.uri", noUri.at("/error/data/field").asText(), noUri::toString);
  }

  @Test
  void indexingTools_writeForIndexTokensAndRefuseOthers() throws Exception {
    assertRefused(
        new Session(TestTokens.SEARCH_C1)
            .tool(
                "index_text",
                """
        {"corpus": "c1", "source": "public/new.md", "text": "x"}"""),
        "FORBIDDEN");
    Session s = new Session(TestTokens.PUBLIC_C1);
    assertRefused(
        s.tool(
            "index_text",
            """
        {"corpus": "c1", "source": "private/new.md", "text": "x"}"""),
        "FORBIDDEN");
    JsonNode created =
        s.tool(
                "index_text",
                """
        {"corpus": "c1", "source": "public/notes.md", "title": "Notes", "text": "Sabbaticals last three months."}""")
            .get("structuredContent");
    assertEquals("indexed", created.get("status").asText(), created::toString);
    JsonNode found =
        s.tool(
                "search",
                """
        {"corpus": "c1", "query": "sabbaticals", "revision": %d}"""
                    .formatted(created.get("revision").asLong()))
            .get("structuredContent");
    assertEquals("public/notes.md", found.at("/results/0/source").asText());
    JsonNode deleted =
        s.tool(
                "delete_source",
                """
        {"corpus": "c1", "source": "public/notes.md"}""")
            .get("structuredContent");
    assertEquals("deleted", deleted.get("status").asText());
  }

  @Test
  void resources_areTemplatedAndReadAtARevision() throws Exception {
    Session s = new Session(T);
    Set<String> templates = new TreeSet<>();
    s.call("resources/templates/list", "{}")
        .at("/result/resourceTemplates")
        .forEach(t -> templates.add(t.get("uriTemplate").asText()));
    assertEquals(
        Set.of(
            "quarry://{corpus}",
            "quarry://{corpus}/{source}",
            "quarry://{corpus}/{source}?revision={revision}"),
        templates);
    String uri =
        "quarry://c1/"
            + URLEncoder.encode("public/leave.md", StandardCharsets.UTF_8)
            + "?revision="
            + revision;
    JsonNode read = s.call("resources/read", "{\"uri\": \"" + uri + "\"}");
    assertEquals(
        "Parental leave is twenty weeks. Annual leave is twenty five days.",
        read.at("/result/contents/0/text").asText(),
        read::toString);
    JsonNode corpus = s.call("resources/read", "{\"uri\": \"quarry://c1\"}");
    assertEquals(
        "c1",
        ApiClient.JSON
            .readTree(corpus.at("/result/contents/0/text").asText())
            .get("corpus")
            .asText());
    JsonNode absent = s.call("resources/read", "{\"uri\": \"quarry://c1/nothing.md\"}");
    assertEquals(-32002, absent.at("/error/code").asInt(), absent::toString);
    assertEquals("SOURCE_NOT_FOUND", absent.at("/error/data/code").asText());
  }

  /**
   * Every page of resources/list, following nextCursor; each page holds at most the server's page
   * size.
   */
  static List<JsonNode> allResources(Session s) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page =
          s.call("resources/list", cursor == null ? "{}" : "{\"cursor\": \"" + cursor + "\"}");
      assertTrue(page.has("result"), page::toString);
      assertTrue(page.at("/result/resources").size() <= 2, page::toString);
      page.at("/result/resources").forEach(out::add);
      cursor =
          page.at("/result/nextCursor").isTextual() ? page.at("/result/nextCursor").asText() : null;
      assertTrue(out.size() < 100, "resources/list does not end");
    } while (cursor != null);
    return out;
  }

  @Test
  void resourcesList_isTheCallersOwnResourcesPinnedAtTheCorpusRevision() throws Exception {
    Session admin = new Session(T);
    List<JsonNode> all = allResources(admin);
    List<String> uris = new ArrayList<>();
    all.forEach(r -> uris.add(r.get("uri").asText().replaceAll("\\?revision=\\d+$", "")));
    assertEquals(
        List.of(
            "quarry://c1",
            "quarry://c1/private%2Fsalaries.md",
            "quarry://c1/public%2Fleave.md",
            "quarry://c2",
            "quarry://c2/other.md",
            "quarry://c2/tides.md"),
        uris);
    JsonNode leave = all.get(2);
    assertEquals("public/leave.md", leave.get("name").asText());
    assertEquals("Leave policy", leave.get("title").asText());
    assertEquals("text/plain", leave.get("mimeType").asText());
    assertEquals("application/json", all.get(0).get("mimeType").asText());
    assertTrue(leave.get("uri").asText().contains("?revision="), leave::toString);
    JsonNode read =
        admin.call("resources/read", "{\"uri\": \"" + leave.get("uri").asText() + "\"}");
    assertEquals(
        "Parental leave is twenty weeks. Annual leave is twenty five days.",
        read.at("/result/contents/0/text").asText(),
        read::toString);

    List<String> restricted = new ArrayList<>();
    allResources(new Session(TestTokens.PUBLIC_C1))
        .forEach(r -> restricted.add(r.get("name").asText()));
    assertEquals(List.of("c1", "public/leave.md"), restricted);
  }

  @Test
  void resourcesList_refusesACursorItDidNotHandOut() throws Exception {
    Session s = new Session(T);
    for (String params :
        List.of("{\"cursor\": \"not a cursor\"}", "{\"cursor\": \"eHl6\"}", "{\"cursor\": 3}")) {
      JsonNode answer = s.call("resources/list", params);
      assertEquals(-32602, answer.at("/error/code").asInt(), answer::toString);
      assertEquals("INVALID_REQUEST", answer.at("/error/data/code").asText(), answer::toString);
      assertEquals("params.cursor", answer.at("/error/data/field").asText(), answer::toString);
    }
  }

  @Test
  void resourcesList_inASessionNeverIssuedOrClosed_isRefusedAsAnyRequestThere() throws Exception {
    String list =
        "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"resources/list\", \"params\": {}}";
    String tools = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\", \"params\": {}}";
    HttpResponse<String> invented = post(T, "never-issued", list);
    assertEquals(
        post(T, "never-issued", tools).statusCode(), invented.statusCode(), invented.body());
    assertTrue(invented.statusCode() >= 400, invented.body());
    assertFalse(invented.body().contains("quarry://"), invented.body());

    Session s = new Session(T);
    assertTrue(s.call("resources/list", "{}").has("result"));
    HttpResponse<String> deleted =
        api.http()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                    .header("Authorization", "Bearer " + T)
                    .header("Mcp-Session-Id", s.id)
                    .DELETE()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, deleted.statusCode(), deleted.body());
    HttpResponse<String> closed = post(T, s.id, list);
    assertEquals(post(T, s.id, tools).statusCode(), closed.statusCode(), closed.body());
    assertFalse(closed.body().contains("quarry://"), closed.body());
  }

  @Test
  void withoutAValidToken_theAnswerIs401WithABearerChallenge() throws Exception {
    String init =
        """
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
         "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""";
    HttpResponse<String> none = post(null, null, init);
    assertEquals(401, none.statusCode());
    assertTrue(none.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Bearer"));
    assertEquals(
        "UNAUTHENTICATED", ApiClient.JSON.readTree(none.body()).at("/error/data/code").asText());
    HttpResponse<String> wrong = post("not-a-token", null, init);
    assertEquals(401, wrong.statusCode());
    assertTrue(
        wrong.headers().firstValue("WWW-Authenticate").orElseThrow().contains("invalid_token"));
  }

  @Test
  void malformedMessages_areJsonRpcErrorsWithoutParserText() throws Exception {
    HttpResponse<String> broken = post(T, null, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    assertEquals(400, broken.statusCode());
    JsonNode error = ApiClient.JSON.readTree(broken.body());
    assertEquals(-32700, error.at("/error/code").asInt());
    assertTrue(error.get("id").isNull());
    assertFalse(
        broken.body().contains("Exception")
            || broken.body().contains("jackson")
            || broken.body().contains("line:"),
        broken.body());
    HttpResponse<String> batch =
        post(T, null, "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]");
    assertEquals(400, batch.statusCode());
    assertEquals(-32600, ApiClient.JSON.readTree(batch.body()).at("/error/code").asInt());
    HttpResponse<String> version =
        post(T, null, "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}");
    assertEquals(-32600, ApiClient.JSON.readTree(version.body()).at("/error/code").asInt());
    assertEquals(
        "jsonrpc", ApiClient.JSON.readTree(version.body()).at("/error/data/field").asText());
  }

  @Test
  void aBodyOverTheServersLimit_is413() throws Exception {
    String big =
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"pad\": \""
            + "x".repeat(9 << 20)
            + "\"}}";
    HttpResponse<String> res = post(T, null, big);
    assertEquals(413, res.statusCode());
    assertEquals(
        "REQUEST_TOO_LARGE", ApiClient.JSON.readTree(res.body()).at("/error/data/code").asText());
  }

  /**
   * A tool error with Quarry's envelope as its text, and no structured content to hold to the
   * output schema.
   */
  static JsonNode assertRefused(JsonNode result, String code) throws Exception {
    assertTrue(result.get("isError").asBoolean(), result::toString);
    assertFalse(result.has("structuredContent"), result::toString);
    JsonNode error = ApiClient.JSON.readTree(result.at("/content/0/text").asText()).get("error");
    assertEquals(code, error.get("code").asText(), result::toString);
    assertFalse(error.get("message").asText().contains("Exception"), result::toString);
    return error;
  }

  static void assertRefused(JsonNode result, String code, String field) throws Exception {
    assertEquals(field, assertRefused(result, code).get("field").asText(), result::toString);
  }
}
