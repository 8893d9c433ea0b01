package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract, endpoint by endpoint, against a server started as a user starts it: valid requests
 * and their shapes, then a table of invalid bodies, each answered 400 INVALID_REQUEST naming the
 * offending field's path.
 */
@org.junit.jupiter.api.TestInstance(org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS)
class ContractTableIT {
  static final String T = TestTokens.ADMIN;
  static final List<String> ENDPOINTS =
      List.of(
          "search",
          "sources/index",
          "sources/delete",
          "sources/batch",
          "sources/read",
          "sources/chunks",
          "sources/list",
          "corpora/history",
          "corpora/create",
          "corpora/read",
          "corpora/list",
          "corpora/delete");

  @TempDir static Path dir;
  static ServerProcess server;
  static ApiClient api;

  /**
   * The server's config file: none here (corpora in the data folder); a subclass puts them
   * elsewhere.
   */
  Path storeConfig(Path dir) {
    return null;
  }

  @BeforeAll
  void start() {
    server = ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), storeConfig(dir));
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"c1\"}"));
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c1", "source": "public/leave.md", "title": "Leave policy",
         "text": "Parental leave is twenty weeks. Annual leave is twenty five days.",
         "mediaType": "text/markdown", "metadata": {"department": "hr", "year": 2024}}"""));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.terminate();
    }
  }

  static JsonNode ok(Answer a) {
    assertEquals(200, a.status(), a::toString);
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    assertNoNulls(a.json());
    return a.json();
  }

  /** Responses omit absent fields rather than sending null. */
  static void assertNoNulls(JsonNode node) {
    assertFalse(node.isNull(), "a null in a response");
    for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
      assertNoNulls(it.next());
    }
  }

  @Test
  void createCorpus_echoesEverySetting() {
    JsonNode c =
        ok(
            api.retrieval(
                "corpora/create",
                T,
                """
        {"corpus": "created-1", "settings": {"language": "standard", "chunking": {"maxWords": 100}}}"""));
    assertEquals("created-1", c.get("corpus").asText());
    assertEquals(0, c.get("revision").asLong());
    assertTrue(c.get("corpusId").isTextual());
    JsonNode s = c.get("settings");
    assertEquals("standard", s.get("language").asText());
    assertEquals(100, s.at("/chunking/maxWords").asInt());
    assertTrue(s.at("/chunking/overlapWords").isIntegralNumber());
    assertTrue(
        s.at("/ranking/k1").isNumber()
            && s.at("/ranking/b").isNumber()
            && s.at("/ranking/titleWeight").isNumber());
    assertTrue(
        c.get("createdAt").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"),
        c::toString);
  }

  @Test
  void aGermanCorpus_saysItsLanguage_andFindsAnInflectedForm() {
    JsonNode c =
        ok(
            api.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"faust\", \"settings\": {\"language\": \"german\"}}"));
    assertEquals("german", c.at("/settings/language").asText());
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "faust", "source": "faust/nacht.txt", "title": "Nacht",
         "text": "Habe nun, ach! Philosophie, Juristerei und Medizin, und leider auch Theologie durchaus studiert, mit heißem Bemühn."}"""));
    JsonNode s =
        ok(api.retrieval("search", T, "{\"corpus\": \"faust\", \"query\": \"Theologien\"}"));
    assertEquals("faust/nacht.txt", s.at("/results/0/source").asText(), s::toString);
    assertEquals(
        "german",
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"faust\"}"))
            .at("/settings/language")
            .asText());
  }

  @Test
  void createCorpus_existingName_isCorpusExists() {
    Answer a = api.retrieval("corpora/create", T, "{\"corpus\": \"c1\"}");
    assertEquals(409, a.status(), a::toString);
    assertEquals("CORPUS_EXISTS", a.code());
  }

  @Test
  void indexReceipt_namesCorpusSourceAndRevision() {
    JsonNode r =
        ok(
            api.retrieval(
                "sources/index",
                T,
                """
        {"corpus": "c1", "source": "public/receipt.md", "text": "A receipt names everything."}"""));
    assertEquals("c1", r.get("corpus").asText());
    assertEquals("public/receipt.md", r.get("source").asText());
    assertEquals("indexed", r.get("status").asText());
    assertTrue(r.get("revision").isIntegralNumber() && r.get("sourceRevision").isIntegralNumber());
    assertEquals(r.get("revision"), r.get("sourceRevision"));
    assertEquals(TestTokens_sha("A receipt names everything."), r.get("contentSha256").asText());
    assertTrue(r.get("chunks").asInt() >= 1);
    JsonNode again =
        ok(
            api.retrieval(
                "sources/index",
                T,
                """
        {"corpus": "c1", "source": "public/receipt.md", "text": "A receipt names everything."}"""));
    assertEquals("unchanged", again.get("status").asText());
    assertEquals(r.get("revision"), again.get("revision"));
  }

  static String TestTokens_sha(String text) {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void deleteReceipt_isDeletedThenAbsent() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"c1\", \"source\": \"public/gone.md\", \"text\": \"bye\"}"));
    JsonNode d =
        ok(
            api.retrieval(
                "sources/delete", T, "{\"corpus\": \"c1\", \"source\": \"public/gone.md\"}"));
    assertEquals("deleted", d.get("status").asText());
    JsonNode again =
        ok(
            api.retrieval(
                "sources/delete", T, "{\"corpus\": \"c1\", \"source\": \"public/gone.md\"}"));
    assertEquals("absent", again.get("status").asText());
    assertEquals(d.get("revision"), again.get("revision"));
  }

  @Test
  void sourceRead_returnsTheSourceState() {
    JsonNode s =
        ok(
            api.retrieval(
                "sources/read", T, "{\"corpus\": \"c1\", \"source\": \"public/leave.md\"}"));
    assertEquals("public/leave.md", s.get("source").asText());
    assertEquals("Leave policy", s.get("title").asText());
    assertEquals("text/markdown", s.get("mediaType").asText());
    assertEquals("hr", s.at("/metadata/department").asText());
    assertEquals(2024, s.at("/metadata/year").asLong());
    assertTrue(s.at("/metadata/year").isIntegralNumber());
    for (String f :
        List.of(
            "sourceRevision", "contentSha256", "chunks", "characters", "indexedAt", "revision")) {
      assertTrue(s.has(f), f + " in " + s);
    }
  }

  @Test
  void sourceRead_unknownSource_isSourceNotFound() {
    Answer a =
        api.retrieval("sources/read", T, "{\"corpus\": \"c1\", \"source\": \"public/none.md\"}");
    assertEquals(404, a.status(), a::toString);
    assertEquals("SOURCE_NOT_FOUND", a.code());
  }

  @Test
  void unknownCorpus_isCorpusNotFound() {
    Answer a =
        api.retrieval(
            "sources/index", T, "{\"corpus\": \"nope\", \"source\": \"a\", \"text\": \"x\"}");
    assertEquals(404, a.status(), a::toString);
    assertEquals("CORPUS_NOT_FOUND", a.code());
  }

  @Test
  void sourcesList_pagesWithAnOpaqueCursor() {
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"paged\"}"));
    ok(
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "paged", "operations": [{"index": {"source": "a", "text": "one"}},
          {"index": {"source": "b", "text": "two"}}, {"index": {"source": "c", "text": "three"}}]}"""));
    JsonNode first = ok(api.retrieval("sources/list", T, "{\"corpus\": \"paged\", \"limit\": 2}"));
    assertEquals(2, first.get("sources").size());
    String cursor = first.get("nextCursor").asText();
    JsonNode second =
        ok(
            api.retrieval(
                "sources/list",
                T,
                "{\"corpus\": \"paged\", \"limit\": 2, \"cursor\": \"" + cursor + "\"}"));
    assertEquals(1, second.get("sources").size());
    assertEquals("c", second.at("/sources/0/source").asText());
    assertFalse(second.has("nextCursor"));
  }

  @Test
  void corporaList_showsRevisionAndSourceCounts() {
    JsonNode list = ok(api.retrieval("corpora/list", T, "{}"));
    boolean found = false;
    for (JsonNode c : list.get("corpora")) {
      if (c.get("corpus").asText().equals("c1")) {
        found = true;
        assertTrue(c.get("sources").asLong() >= 1);
        assertTrue(c.get("revision").asLong() >= 1);
      }
    }
    assertTrue(found, list::toString);
  }

  @Test
  void corporaDelete_thenRecreate_startsAtRevisionZeroWithANewId() {
    JsonNode first = ok(api.retrieval("corpora/create", T, "{\"corpus\": \"again\"}"));
    ok(
        api.retrieval(
            "sources/index", T, "{\"corpus\": \"again\", \"source\": \"a\", \"text\": \"x\"}"));
    JsonNode deleted = ok(api.retrieval("corpora/delete", T, "{\"corpus\": \"again\"}"));
    assertEquals("deleted", deleted.get("status").asText());
    JsonNode second = ok(api.retrieval("corpora/create", T, "{\"corpus\": \"again\"}"));
    assertEquals(0, second.get("revision").asLong());
    assertFalse(first.get("corpusId").equals(second.get("corpusId")));
    Answer replaced =
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"again\", \"corpusId\": "
                + first.get("corpusId")
                + ", \"source\": \"a\", \"text\": \"x\"}");
    assertEquals(409, replaced.status(), replaced::toString);
    assertEquals("CORPUS_REPLACED", replaced.code());
  }

  @Test
  void history_listsEntriesInRevisionOrder() {
    JsonNode h = ok(api.retrieval("corpora/history", T, "{\"corpus\": \"c1\"}"));
    long last = 0;
    for (JsonNode e : h.get("entries")) {
      assertTrue(e.get("revision").asLong() >= last);
      last = e.get("revision").asLong();
      assertTrue(
          List.of("index", "ingest", "delete", "purge").contains(e.get("operation").asText()));
      assertTrue(e.get("at").asText().endsWith("Z"));
    }
    assertTrue(h.get("entries").size() >= 1);
  }

  @Test
  void search_answersAtARevisionWithProvenance() {
    JsonNode s =
        ok(api.retrieval("search", T, "{\"corpus\": \"c1\", \"query\": \"parental leave\"}"));
    assertEquals("c1", s.get("corpus").asText());
    assertTrue(s.get("revision").isIntegralNumber() && s.get("tookMs").isIntegralNumber());
    JsonNode hit = s.at("/results/0");
    assertEquals("public/leave.md", hit.get("source").asText(), s::toString);
    assertTrue(hit.get("score").isNumber());
    assertTrue(hit.get("chunk").isIntegralNumber());
    assertEquals("Leave policy", hit.get("title").asText());
    assertTrue(
        hit.at("/offsets/start").isIntegralNumber() && hit.at("/offsets/end").isIntegralNumber());
    assertFalse(hit.has("pages"), "pages only for paged sources");
    String text = hit.get("text").asText();
    assertTrue(hit.get("highlights").size() >= 1);
    for (JsonNode range : hit.get("highlights")) {
      String marked = text.substring(range.get(0).asInt(), range.get(1).asInt()).toLowerCase();
      assertTrue(marked.startsWith("parent") || marked.startsWith("leav"), marked);
    }
  }

  @Test
  void search_metadataFilters_narrowResults() {
    JsonNode hr =
        ok(
            api.retrieval(
                "search",
                T,
                "{\"corpus\": \"c1\", \"query\": \"leave\", \"filter\": {\"department\": \"hr\", \"year\": {\"gte\": 2020}}}"));
    assertEquals(1, hr.get("results").size(), hr::toString);
    JsonNode none =
        ok(
            api.retrieval(
                "search",
                T,
                "{\"corpus\": \"c1\", \"query\": \"leave\", \"filter\": {\"department\": {\"in\": [\"it\", \"ops\"]}}}"));
    assertEquals(0, none.get("results").size(), none::toString);
  }

  @Test
  void search_anyCharacterInTheQuery_isNeverAnError() {
    ok(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"c1\", \"query\": \"leave AND (\\\"x* ~2 ^3 : / \\\\ [ ] { } -\"}"));
  }

  @Test
  void search_revisionAboveCurrent_isInvalid() {
    Answer a =
        api.retrieval(
            "search", T, "{\"corpus\": \"c1\", \"query\": \"leave\", \"revision\": 999999}");
    assertEquals(400, a.status(), a::toString);
    assertEquals("revision", a.field());
  }

  static String manyEntries(int n) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ", ").append("\"k").append(i).append("\": ").append(i);
    }
    return b.append("}").toString();
  }

  static String manyDeletes(int n) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ", ")
          .append("{\"delete\": {\"source\": \"public/")
          .append(i)
          .append("\"}}");
    }
    return b.append("]").toString();
  }

  static String manySources(int n) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ", ").append("\"public/").append(i).append("\"");
    }
    return b.append("]").toString();
  }

  static Stream<Arguments> invalidBodies() {
    String q = "\"corpus\": \"c1\", \"query\": \"leave\"";
    String src = "\"corpus\": \"c1\", \"source\": \"public/x\"";
    return Stream.of(
        // search
        Arguments.of("search", "{\"query\": \"leave\"}", "corpus"),
        Arguments.of("search", "{\"corpus\": \"c1\"}", "query"),
        Arguments.of("search", "{\"corpus\": 7, \"query\": \"leave\"}", "corpus"),
        Arguments.of("search", "{\"corpus\": \"Bad Name!\", \"query\": \"leave\"}", "corpus"),
        Arguments.of("search", "{\"corpus\": \"c1\", \"query\": 5}", "query"),
        Arguments.of("search", "{" + q + ", \"topK\": \"10\"}", "topK"),
        Arguments.of("search", "{" + q + ", \"topK\": 2.5}", "topK"),
        Arguments.of("search", "{" + q + ", \"topK\": 10.0}", "topK"),
        Arguments.of("search", "{" + q + ", \"topK\": 0}", "topK"),
        Arguments.of("search", "{" + q + ", \"topK\": 101}", "topK"),
        Arguments.of("search", "{" + q + ", \"topK\": null}", "topK"),
        Arguments.of("search", "{" + q + ", \"revision\": -1}", "revision"),
        Arguments.of("search", "{" + q + ", \"highlight\": \"yes\"}", "highlight"),
        Arguments.of("search", "{" + q + ", \"sources\": \"public/*\"}", "sources"),
        Arguments.of("search", "{" + q + ", \"sources\": [1]}", "sources[0]"),
        Arguments.of("search", "{" + q + ", \"sources\": []}", "sources"),
        Arguments.of("search", "{" + q + ", \"filter\": []}", "filter"),
        Arguments.of(
            "search", "{" + q + ", \"filter\": {\"year\": {\"gt\": \"2020\"}}}", "filter.year.gt"),
        Arguments.of(
            "search", "{" + q + ", \"filter\": {\"year\": {\"near\": 1}}}", "filter.year.near"),
        Arguments.of("search", "{" + q + ", \"filter\": {\"tags\": [\"a\"]}}", "filter.tags"),
        Arguments.of("search", "{" + q + ", \"maxChunksPerSource\": 0}", "maxChunksPerSource"),
        Arguments.of("search", "{" + q + ", \"bogus\": 1}", "bogus"),
        Arguments.of(
            "search", "{\"corpus\": \"c1\", \"query\": \"" + "x".repeat(1001) + "\"}", "query"),
        // sources/index
        Arguments.of("sources/index", "{\"corpus\": \"c1\", \"text\": \"x\"}", "source"),
        Arguments.of("sources/index", "{" + src + "}", "text"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"passages\": [{\"text\": \"y\"}]}",
            "text"),
        Arguments.of("sources/index", "{" + src + ", \"text\": 5}", "text"),
        Arguments.of("sources/index", "{" + src + ", \"text\": \"x\", \"title\": 5}", "title"),
        Arguments.of(
            "sources/index", "{" + src + ", \"passages\": [{\"text\": 1}]}", "passages[0].text"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"passages\": [{\"text\": \"a\", \"extra\": 1}]}",
            "passages[0].extra"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"metadata\": {\"a\": {\"b\": 1}}}",
            "metadata.a"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"metadata\": {\"a\": null}}",
            "metadata.a"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"metadata\": {\"a\": [1]}}",
            "metadata.a[0]"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"expectedRevision\": -1}",
            "expectedRevision"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"expectedRevision\": \"1\"}",
            "expectedRevision"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"mediaType\": \"nope\"}",
            "mediaType"),
        Arguments.of(
            "sources/index", "{\"corpus\": \"c1\", \"source\": \"\", \"text\": \"x\"}", "source"),
        Arguments.of(
            "sources/index",
            "{\"corpus\": \"c1\", \"source\": \" lead\", \"text\": \"x\"}",
            "source"),
        Arguments.of(
            "sources/index",
            "{\"corpus\": \"c1\", \"source\": \"" + "s".repeat(513) + "\", \"text\": \"x\"}",
            "source"),
        Arguments.of("sources/index", "{" + src + ", \"text\": \"x\", \"extra\": true}", "extra"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"title\": \"" + "t".repeat(1001) + "\"}",
            "title"),
        Arguments.of(
            "sources/index",
            "{" + src + ", \"text\": \"x\", \"metadata\": " + manyEntries(65) + "}",
            "metadata"),
        Arguments.of(
            "sources/batch",
            "{\"corpus\": \"c1\", \"operations\": " + manyDeletes(1001) + "}",
            "operations"),
        Arguments.of("search", "{" + q + ", \"sources\": " + manySources(101) + "}", "sources"),
        // sources/delete
        Arguments.of("sources/delete", "{\"corpus\": \"c1\"}", "source"),
        Arguments.of("sources/delete", "{" + src + ", \"purge\": \"true\"}", "purge"),
        Arguments.of("sources/delete", "{" + src + ", \"text\": \"x\"}", "text"),
        // sources/batch
        Arguments.of("sources/batch", "{\"corpus\": \"c1\"}", "operations"),
        Arguments.of("sources/batch", "{\"corpus\": \"c1\", \"operations\": []}", "operations"),
        Arguments.of("sources/batch", "{\"corpus\": \"c1\", \"operations\": {}}", "operations"),
        Arguments.of(
            "sources/batch",
            """
            {"corpus": "c1", "operations": [{"index": {"source": "public/a", "text": "a"}},
             {"delete": {"source": "public/b"}}, {"index": {"source": "public/c"}}]}""",
            "operations[2].text"),
        Arguments.of(
            "sources/batch",
            "{\"corpus\": \"c1\", \"operations\": [{\"upsert\": {\"source\": \"a\"}}]}",
            "operations[0].upsert"),
        Arguments.of("sources/batch", "{\"corpus\": \"c1\", \"operations\": [1]}", "operations[0]"),
        Arguments.of(
            "sources/batch",
            """
            {"corpus": "c1", "operations": [{"index": {"source": "public/a", "text": "a"},
             "delete": {"source": "public/a"}}]}""",
            "operations[0]"),
        Arguments.of(
            "sources/batch",
            """
            {"corpus": "c1", "operations": [{"index": {"source": "public/a", "text": "a"}},
             {"delete": {"source": "public/a"}}]}""",
            "operations[1].source"),
        Arguments.of(
            "sources/batch",
            """
            {"corpus": "c1", "operations": [{"delete": {"source": "public/a", "purge": 1}}]}""",
            "operations[0].purge"),
        // sources/read, sources/list, corpora/history
        Arguments.of("sources/read", "{\"corpus\": \"c1\"}", "source"),
        Arguments.of("sources/chunks", "{\"corpus\": \"c1\"}", "source"),
        Arguments.of(
            "sources/chunks",
            "{\"corpus\": \"c1\", \"source\": \"public/leave.md\", \"revision\": -1}",
            "revision"),
        Arguments.of(
            "sources/chunks",
            "{\"corpus\": \"c1\", \"source\": \"public/leave.md\", \"after\": \"3\"}",
            "after"),
        Arguments.of(
            "sources/chunks",
            "{\"corpus\": \"c1\", \"source\": \"public/leave.md\", \"after\": -1}",
            "after"),
        Arguments.of(
            "sources/chunks",
            "{\"corpus\": \"c1\", \"source\": \"public/leave.md\", \"limit\": 1001}",
            "limit"),
        Arguments.of("sources/list", "{\"corpus\": \"c1\", \"limit\": 0}", "limit"),
        Arguments.of("sources/list", "{\"corpus\": \"c1\", \"limit\": 1001}", "limit"),
        Arguments.of("sources/list", "{\"corpus\": \"c1\", \"cursor\": 5}", "cursor"),
        Arguments.of(
            "sources/list", "{\"corpus\": \"c1\", \"cursor\": \"not-a-cursor\"}", "cursor"),
        Arguments.of("sources/list", "{\"corpus\": \"c1\", \"prefix\": false}", "prefix"),
        Arguments.of("corpora/history", "{\"corpus\": \"c1\", \"after\": -1}", "after"),
        Arguments.of("corpora/history", "{\"corpus\": \"c1\", \"after\": \"0\"}", "after"),
        Arguments.of("corpora/history", "{\"after\": 0}", "corpus"),
        // corpora
        Arguments.of("corpora/create", "{}", "corpus"),
        Arguments.of(
            "corpora/create",
            "{\"corpus\": \"x1\", \"settings\": {\"language\": \"klingon\"}}",
            "settings.language"),
        Arguments.of(
            "corpora/create",
            "{\"corpus\": \"x1\", \"settings\": {\"chunking\": {\"maxWords\": 2.5}}}",
            "settings.chunking.maxWords"),
        Arguments.of(
            "corpora/create",
            "{\"corpus\": \"x1\", \"settings\": {\"chunking\": {\"maxWords\": 1}}}",
            "settings.chunking.maxWords"),
        Arguments.of(
            "corpora/create",
            "{\"corpus\": \"x1\", \"settings\": {\"ranking\": {\"k1\": \"1\"}}}",
            "settings.ranking.k1"),
        Arguments.of(
            "corpora/create",
            "{\"corpus\": \"x1\", \"settings\": {\"extra\": 1}}",
            "settings.extra"),
        Arguments.of("corpora/create", "{\"corpus\": \"x1\", \"settings\": 5}", "settings"),
        Arguments.of("corpora/read", "{}", "corpus"),
        Arguments.of("corpora/read", "{\"corpus\": 5}", "corpus"),
        Arguments.of("corpora/list", "{\"limit\": \"5\"}", "limit"),
        Arguments.of("corpora/list", "{\"page\": 2}", "page"),
        Arguments.of("corpora/delete", "{}", "corpus"));
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @MethodSource("invalidBodies")
  void invalidBody_isInvalidRequestNamingTheField(String endpoint, String body, String field) {
    Answer a = api.retrieval(endpoint, T, body);
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
    assertEquals(false, a.json().at("/error/retryable").asBoolean(true));
  }

  static Stream<String> endpoints() {
    return ENDPOINTS.stream();
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void malformedJson_isInvalid(String endpoint) {
    for (String body :
        List.of(
            "{\"corpus\": ",
            "{\"corpus\": \"c1\"} {}",
            "{\"corpus\": \"c1\"} x",
            "[]",
            "\"c1\"",
            "",
            "{'corpus': 'c1'}",
            "{\"corpus\": \"c1\", \"corpus\": \"c1\"}")) {
      Answer a = api.retrieval(endpoint, T, body);
      assertEquals(400, a.status(), () -> endpoint + " " + body + " -> " + a);
      assertEquals("INVALID_REQUEST", a.code());
      assertEquals("$", a.field(), () -> endpoint + " " + body + " -> " + a);
    }
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void wrongContentType_isUnsupportedMediaType(String endpoint) {
    Answer a =
        api.post("/v1/retrieval/" + endpoint)
            .token(T)
            .header("Content-Type", "text/plain")
            .bytes("{}".getBytes())
            .send();
    assertEquals(415, a.status(), a::toString);
    assertEquals("UNSUPPORTED_MEDIA_TYPE", a.code());
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void unsupportedVersion_isRefused(String endpoint) {
    for (String v : List.of("2.0", "garbage")) {
      Answer a =
          api.post("/v1/retrieval/" + endpoint)
              .token(T)
              .header("AgenticDriver-Version", v)
              .json("{}")
              .send();
      assertEquals(400, a.status(), a::toString);
      assertEquals("UNSUPPORTED_PROTOCOL_VERSION", a.code());
      assertEquals("1.0", a.header("AgenticDriver-Version"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1.0"})
  void versionAbsentOr10_isServed(String version) {
    ApiClient.Call call =
        api.post("/v1/retrieval/search")
            .token(T)
            .json("{\"corpus\": \"c1\", \"query\": \"leave\"}");
    if (!version.isEmpty()) {
      call.header("AgenticDriver-Version", version);
    }
    ok(call.send());
  }

  static String cli(String... args) {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int code =
        dev.quarry.app.cli.QuarryCli.commandLine()
            .setOut(new java.io.PrintWriter(out))
            .setErr(new java.io.PrintWriter(err))
            .execute(args);
    return code + "\n" + out + err;
  }

  @Test
  void cliSearch_printsThePassagesOfARunningServer() {
    String printed =
        cli("search", "--url", server.url(), "--token", T, "--corpus", "c1", "parental", "leave");
    assertTrue(printed.startsWith("0\n"), printed);
    assertTrue(printed.contains("public/leave.md"), printed);
  }

  @Test
  void cliCorpora_listsTheCorpora() {
    String printed = cli("corpora", "--url", server.url(), "--token", T);
    assertTrue(printed.startsWith("0\n") && printed.contains("c1 "), printed);
  }

  @Test
  void cliSearch_withABadToken_saysWhy() {
    String printed =
        cli("search", "--url", server.url(), "--token", "nope", "--corpus", "c1", "leave");
    assertTrue(
        printed.startsWith("1\n") && printed.contains("quarry search: UNAUTHENTICATED: "), printed);
    assertFalse(printed.contains("\tat "), printed);
  }

  @Test
  void largeTextUnderTheLimits_isIndexed() {
    String words = "lorem ipsum dolor sit amet ".repeat(80_000); // about 2 MB
    JsonNode r =
        ok(
            api.retrieval(
                "sources/index",
                T,
                "{\"corpus\": \"c1\", \"source\": \"public/large.md\", \"text\": \""
                    + words
                    + "\"}"));
    assertTrue(r.get("chunks").asInt() > 100, r::toString);
  }

  @Test
  void oversizedText_isRefusedBeforeWork() {
    // over maxRequestBytes (8 MiB by default): refused from Content-Length
    String huge =
        "{\"corpus\": \"c1\", \"source\": \"public/huge\", \"text\": \""
            + "x".repeat(8 * 1024 * 1024)
            + "\"}";
    Answer a = api.retrieval("sources/index", T, huge);
    assertEquals(413, a.status(), () -> a.status() + " " + a.code());
    assertEquals("REQUEST_TOO_LARGE", a.code());
  }
}
