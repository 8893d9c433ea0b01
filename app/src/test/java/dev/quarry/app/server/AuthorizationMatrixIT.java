package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every endpoint against every kind of caller that must be refused: no token, an unknown token, a
 * token without the scope, a token for another corpus, a token for other sources of the same
 * corpus. No answer to a refused or narrowed caller ever names a corpus or source outside its
 * grants.
 */
class AuthorizationMatrixIT {
  static final String ADMIN = TestTokens.ADMIN;

  /** Names only the admin may learn of. */
  static final List<String> HIDDEN = List.of("secret/b.md", "secret/", "hidden-corpus", "zebra");

  @RegisterExtension static final ServerPerClass server = ServerPerClass.withTestTokens();
  static ApiClient api;

  /**
   * A valid body for each endpoint, aimed at corpus c1 and, where a source is named, at
   * secret/b.md.
   */
  static final Map<String, String> BODIES =
      Map.ofEntries(
          Map.entry(
              "search",
              "{\"corpus\": \"c1\", \"query\": \"zebra policy\", \"sources\": [\"secret/*\"]}"),
          Map.entry(
              "sources/index",
              "{\"corpus\": \"c1\", \"source\": \"secret/b.md\", \"text\": \"new zebra\"}"),
          Map.entry("sources/delete", "{\"corpus\": \"c1\", \"source\": \"secret/b.md\"}"),
          Map.entry(
              "sources/batch",
              "{\"corpus\": \"c1\", \"operations\": [{\"index\": {\"source\": \"public/new.md\","
                  + " \"text\": \"ok\"}}, {\"delete\": {\"source\": \"secret/b.md\"}}]}"),
          Map.entry("sources/read", "{\"corpus\": \"c1\", \"source\": \"secret/b.md\"}"),
          Map.entry("sources/chunks", "{\"corpus\": \"c1\", \"source\": \"secret/b.md\"}"),
          Map.entry("sources/list", "{\"corpus\": \"c1\", \"prefix\": \"secret/\"}"),
          Map.entry("corpora/history", "{\"corpus\": \"c1\"}"),
          Map.entry("corpora/create", "{\"corpus\": \"c1-new\"}"),
          Map.entry("corpora/read", "{\"corpus\": \"c1\"}"),
          Map.entry("corpora/list", "{}"),
          Map.entry("corpora/delete", "{\"corpus\": \"c1\"}"));

  @BeforeAll
  static void start() {
    api = server.client();
    for (String corpus : List.of("c1", "c2", "hidden-corpus")) {
      assertEquals(
          200, api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"" + corpus + "\"}").status());
    }
    Answer loaded =
        api.retrieval(
            "sources/batch",
            ADMIN,
            """
        {"corpus": "c1", "operations": [
          {"index": {"source": "public/a.md", "text": "The public policy on leave applies to everyone."}},
          {"index": {"source": "secret/b.md", "text": "The secret zebra policy on leave is confidential."}}]}""");
    assertEquals(200, loaded.status(), loaded::toString);
  }

  static void assertRefused(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
    assertNoHiddenNames(a);
  }

  static void assertNoHiddenNames(Answer a) {
    for (String hidden : HIDDEN) {
      assertFalse(a.body().contains(hidden), () -> "answer names '" + hidden + "': " + a);
    }
  }

  static Stream<String> endpoints() {
    return BODIES.keySet().stream().sorted();
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void noToken_isUnauthenticated(String endpoint) {
    assertRefused(
        api.post("/v1/retrieval/" + endpoint).json(BODIES.get(endpoint)).send(),
        401,
        "UNAUTHENTICATED");
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void unknownToken_isUnauthenticated(String endpoint) {
    assertRefused(
        api.retrieval(endpoint, "not-a-token", BODIES.get(endpoint)), 401, "UNAUTHENTICATED");
  }

  static Stream<Arguments> missingScope() {
    List<Arguments> out = new ArrayList<>();
    // search only: nothing that writes, nothing of history, nothing of corpus management
    for (String e :
        List.of(
            "sources/index",
            "sources/delete",
            "sources/batch",
            "corpora/history",
            "corpora/create",
            "corpora/delete")) {
      out.add(Arguments.of(e, TestTokens.SEARCH_C1));
    }
    // manage only: no search, no source reads
    for (String e :
        List.of(
            "search",
            "sources/index",
            "sources/delete",
            "sources/batch",
            "sources/read",
            "sources/chunks",
            "sources/list",
            "corpora/history")) {
      out.add(Arguments.of(e, TestTokens.MANAGE_C1));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("missingScope")
  void tokenWithoutTheScope_isForbidden(String endpoint, String token) {
    assertRefused(api.retrieval(endpoint, token, BODIES.get(endpoint)), 403, "FORBIDDEN");
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void tokenForAnotherCorpus_isForbidden(String endpoint) {
    if (endpoint.equals("corpora/list")) {
      JsonNode list = api.retrieval(endpoint, TestTokens.C2_ONLY, "{}").json();
      assertEquals(1, list.get("corpora").size(), list::toString);
      assertEquals("c2", list.at("/corpora/0/corpus").asText());
      return;
    }
    assertRefused(
        api.retrieval(endpoint, TestTokens.C2_ONLY, BODIES.get(endpoint)), 403, "FORBIDDEN");
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void tokenForAnotherCorpus_isForbiddenWhetherOrNotItExists(String endpoint) {
    if (endpoint.equals("corpora/list")) {
      return;
    }
    String body =
        BODIES
            .get(endpoint)
            .replace("\"c1\"", "\"no-such-corpus\"")
            .replace("\"c1-new\"", "\"no-such-corpus\"");
    assertRefused(api.retrieval(endpoint, TestTokens.C2_ONLY, body), 403, "FORBIDDEN");
  }

  @ParameterizedTest
  @MethodSource("endpoints")
  void tokenForOtherSources_isForbiddenOrNarrowed(String endpoint) {
    Answer a = api.retrieval(endpoint, TestTokens.PUBLIC_C1, BODIES.get(endpoint));
    switch (endpoint) {
      case "sources/list", "corpora/history", "corpora/read", "corpora/list" -> {
        assertEquals(200, a.status(), a::toString);
        assertNoHiddenNames(a);
      }
      default -> assertRefused(a, 403, "FORBIDDEN");
    }
  }

  @Test
  void forbiddenBatch_appliesNothing() {
    long before =
        api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"c1\"}")
            .json()
            .get("revision")
            .asLong();
    assertRefused(
        api.retrieval("sources/batch", TestTokens.PUBLIC_C1, BODIES.get("sources/batch")),
        403,
        "FORBIDDEN");
    assertEquals(
        before,
        api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"c1\"}")
            .json()
            .get("revision")
            .asLong());
    assertEquals(
        404,
        api.retrieval("sources/read", ADMIN, "{\"corpus\": \"c1\", \"source\": \"public/new.md\"}")
            .status());
  }

  @Test
  void searchWithoutSources_onlyReturnsGrantedSources() {
    Answer a =
        api.retrieval(
            "search", TestTokens.PUBLIC_C1, "{\"corpus\": \"c1\", \"query\": \"policy leave\"}");
    assertEquals(200, a.status(), a::toString);
    assertTrue(a.json().get("results").size() >= 1, a::toString);
    for (JsonNode r : a.json().get("results")) {
      assertTrue(r.get("source").asText().startsWith("public/"), a::toString);
    }
    assertNoHiddenNames(a);
  }

  @Test
  void searchForEverything_withAPrefixGrant_isForbidden() {
    assertRefused(
        api.retrieval(
            "search",
            TestTokens.PUBLIC_C1,
            "{\"corpus\": \"c1\", \"query\": \"policy\", \"sources\": [\"*\"]}"),
        403,
        "FORBIDDEN");
  }

  @Test
  void corpusRead_countsOnlyVisibleSources() {
    JsonNode c = api.retrieval("corpora/read", TestTokens.PUBLIC_C1, "{\"corpus\": \"c1\"}").json();
    assertEquals(1, c.get("sources").asLong(), c::toString);
    JsonNode all = api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"c1\"}").json();
    assertEquals(2, all.get("sources").asLong(), all::toString);
  }

  @Test
  void manageOnly_mayReadTheCorpus() {
    assertEquals(
        200, api.retrieval("corpora/read", TestTokens.MANAGE_C1, "{\"corpus\": \"c1\"}").status());
  }

  @Test
  void searchOnly_mayReadAndListSources() {
    assertEquals(
        200,
        api.retrieval(
                "sources/read",
                TestTokens.SEARCH_C1,
                "{\"corpus\": \"c1\", \"source\": \"public/a.md\"}")
            .status());
    assertEquals(
        200, api.retrieval("sources/list", TestTokens.SEARCH_C1, "{\"corpus\": \"c1\"}").status());
    assertEquals(
        200,
        api.retrieval(
                "sources/chunks",
                TestTokens.SEARCH_C1,
                "{\"corpus\": \"c1\", \"source\": \"public/a.md\"}")
            .status());
  }

  @Test
  void sourceChunks_outsideTheGrants_isForbiddenWhetherOrNotTheSourceExists() {
    for (String source : List.of("secret/b.md", "secret/no-such-source.md")) {
      assertRefused(
          api.retrieval(
              "sources/chunks",
              TestTokens.PUBLIC_C1,
              "{\"corpus\": \"c1\", \"source\": \"" + source + "\"}"),
          403,
          "FORBIDDEN");
    }
    assertRefused(
        api.retrieval(
            "sources/chunks",
            TestTokens.PUBLIC_C1,
            "{\"corpus\": \"c1\", \"source\": \"public/no-such-source.md\"}"),
        404,
        "SOURCE_NOT_FOUND");
  }

  @Test
  void protocol_needsAValidTokenButNoGrant() {
    assertEquals(200, api.get("/v1/protocol").token(TestTokens.MANAGE_C1).send().status());
    assertRefused(api.get("/v1/protocol").token("nope").send(), 401, "UNAUTHENTICATED");
  }
}
