package dev.quarry.app.server;

import static dev.quarry.api.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.ApiClient;
import dev.quarry.api.ApiClient.Answer;
import dev.quarry.api.TestTokens;
import dev.quarry.app.ServerProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What search users expect beyond ranked passages, over HTTP: boolean filters, facet counts,
 * snippets and the operator query syntax, in lexical, semantic and hybrid searches alike, with
 * typed errors naming the field path. Every answer is also checked against openapi.yaml.
 */
class SearchFeaturesOverHttpTest {
  static final String T = TestTokens.ADMIN;

  @TempDir
  static Path dir;
  static ServerProcess server;
  static ApiClient api;

  @BeforeAll
  static void start() {
    server = ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), null);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"c1\"}"));
    ok(api.retrieval("corpora/create", T, """
        {"corpus": "h", "settings": {"embedding": {"model": "all-minilm-l6-v2"}}}"""));
    for (String corpus : List.of("c1", "h")) {
      ok(api.retrieval("sources/batch", T, """
          {"corpus": "%s", "operations": [
            {"index": {"source": "public/leave.md", "title": "Leave policy",
              "text": "Parental leave is sixteen weeks of paid leave for every new parent.",
              "metadata": {"department": "hr", "year": 2024, "tags": ["policy", "people"]}}},
            {"index": {"source": "public/travel.md", "title": "Travel",
              "text": "Travel on leave days is not reimbursed. Book trains before flights.",
              "metadata": {"department": "finance", "year": 2023, "draft": true}}},
            {"index": {"source": "public/old-leave.md", "title": "Old leave policy",
              "text": "Leave was twelve weeks, unpaid, before the new parental policy.",
              "metadata": {"department": "hr", "year": 2019, "tags": ["archive"]}}},
            {"index": {"source": "private/salaries.md", "title": "Salaries",
              "text": "Salaries and paid leave budgets for the hr department.",
              "metadata": {"department": "hr-finance", "year": 2024}}},
            {"index": {"source": "public/notes.md",
              "text": "Notes about leave requests, without any metadata."}}]}""".formatted(corpus)));
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Answer search(String token, String corpus, String rest) {
    return api.retrieval("search", token, "{\"corpus\": \"" + corpus + "\", " + rest + "}");
  }

  static List<String> sources(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer.get("results").forEach(h -> out.add(h.get("source").asText()));
    return out.stream().distinct().sorted().toList();
  }

  static Stream<Arguments> everyMode() {
    return Stream.of(Arguments.of("c1", "lexical"), Arguments.of("h", "lexical"), Arguments.of("h", "semantic"),
        Arguments.of("h", "hybrid"));
  }

  // ---- filters

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyMode")
  void booleanFilters_narrowEveryMode(String corpus, String mode) {
    String q = "\"query\": \"leave\", \"mode\": \"" + mode + "\", \"topK\": 100, ";
    assertEquals(List.of("private/salaries.md", "public/leave.md", "public/old-leave.md"),
        sources(ok(search(T, corpus, q + "\"filter\": {\"department\": {\"prefix\": \"hr\"}}"))));
    assertEquals(List.of("public/leave.md", "public/travel.md"), sources(ok(search(T, corpus, q
        + "\"filter\": {\"or\": [{\"draft\": true}, {\"tags\": \"people\"}]}"))));
    assertEquals(List.of("public/notes.md", "public/travel.md"), sources(ok(search(T, corpus, q
        + "\"filter\": {\"not\": {\"department\": {\"prefix\": \"hr\"}}}"))));
    assertEquals(List.of("public/leave.md", "public/old-leave.md"), sources(ok(search(T, corpus, q
        + "\"filter\": {\"tags\": {\"exists\": true}}"))));
    assertEquals(List.of("public/notes.md"), sources(ok(search(T, corpus, q
        + "\"filter\": {\"year\": {\"exists\": false}}"))));
    // (hr and 2020 or later) or (not hr and a draft), with the top level's AND on year
    assertEquals(List.of("public/leave.md", "public/travel.md"), sources(ok(search(T, corpus, q
        + "\"filter\": {\"year\": {\"gte\": 2020}, \"or\": [{\"and\": [{\"department\": \"hr\"}, {\"year\": {\"gte\": 2020}}]},"
        + " {\"not\": {\"department\": {\"prefix\": \"hr\"}}, \"draft\": true}]}"))));
  }

  @Test
  void filters_respectGrants() {
    // A prefix that would match a source outside the grants returns only what the token may see.
    assertEquals(List.of("public/leave.md", "public/old-leave.md"), sources(ok(search(TestTokens.PUBLIC_C1, "c1",
        "\"query\": \"leave\", \"filter\": {\"department\": {\"prefix\": \"hr\"}}"))));
  }

  static Stream<Arguments> badFilters() {
    String deep = "{\"not\": {\"not\": {\"not\": {\"not\": {\"not\": {\"year\": 1}}}}}}";
    return Stream.of(
        Arguments.of("{\"or\": [{\"year\": 1}, {\"dept\": {\"prefix\": 5}}]}", "filter.or[1].dept.prefix"),
        Arguments.of("{\"or\": [{\"year\": 1}, {\"dept\": {\"prefix\": \"\"}}]}", "filter.or[1].dept.prefix"),
        Arguments.of("{\"or\": []}", "filter.or"),
        Arguments.of("{\"or\": {\"year\": 1}}", "filter.or"),
        Arguments.of("{\"and\": [{}]}", "filter.and[0]"),
        Arguments.of("{\"and\": [5]}", "filter.and[0]"),
        Arguments.of("{\"not\": [{\"year\": 1}]}", "filter.not"),
        Arguments.of("{\"not\": {}}", "filter.not"),
        Arguments.of(deep, "filter.not.not.not.not.not"),
        Arguments.of("{\"year\": {\"exists\": \"yes\"}}", "filter.year.exists"),
        Arguments.of("{\"year\": {\"exists\": true, \"gt\": 1}}", "filter.year"),
        Arguments.of("{\"year\": {\"prefix\": \"a\", \"in\": [\"b\"]}}", "filter.year"),
        Arguments.of("{\"and\": [{\"year\": {\"between\": 1}}]}", "filter.and[0].year.between"),
        Arguments.of("{\"or\": [{\"year\": null}]}", "filter.or[0].year"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFilters")
  void badFilters_areTypedErrorsNamingThePath(String filter, String field) {
    Answer a = search(T, "c1", "\"query\": \"leave\", \"filter\": " + filter);
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
  }

  @Test
  void tooManyConditions_isRefusedNamingWhereTheCountRanOut() {
    StringBuilder or = new StringBuilder("{\"or\": [");
    for (int i = 0; i < 64; i++) {
      or.append(i == 0 ? "" : ", ").append("{\"year\": ").append(i).append("}");
    }
    Answer a = search(T, "c1", "\"query\": \"leave\", \"filter\": " + or + "]}");
    assertEquals(400, a.status(), a::toString);
    assertEquals("filter.or[63].year", a.field(), a::toString);
  }

  @Test
  void aValidFilter_onACorpusOutsideTheGrants_isForbidden() {
    Answer a = search(TestTokens.C2_ONLY, "c1", "\"query\": \"leave\", \"filter\": {\"year\": {\"gt\": 1}}");
    assertEquals(403, a.status(), a::toString);
  }

  @Test
  void protocolAdvertisesTheFilterBounds() {
    JsonNode limits = ok(api.get("/v1/protocol").token(T).send()).get("limits");
    assertEquals(4, limits.get("maxFilterDepth").asInt());
    assertEquals(64, limits.get("maxFilterConditions").asInt());
    assertTrue(limits.has("maxFilterFields"));
  }
}
