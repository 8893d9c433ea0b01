package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What search users expect beyond ranked passages, over HTTP: boolean filters, facet counts,
 * snippets and the operator query syntax, in lexical, semantic and hybrid searches alike, with
 * typed errors naming the field path. Every answer is also checked against openapi.yaml.
 */
class SearchFeaturesOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          .corpus("c1")
          .corpus("h", "{\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    for (String corpus : List.of("c1", "h")) {
      ok(api.retrieval("sources/batch", T, sampleBatch(corpus)));
    }
  }

  static Answer search(String token, String corpus, String rest) {
    return search(api, token, corpus, rest);
  }

  static Answer search(ApiClient api, String token, String corpus, String rest) {
    return api.retrieval("search", token, "{\"corpus\": \"" + corpus + "\", " + rest + "}");
  }

  /** A 400 INVALID_REQUEST naming {@code field}. */
  static void assertInvalid(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
  }

  static List<String> sources(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer.get("results").forEach(h -> out.add(h.get("source").asText()));
    return out.stream().distinct().sorted().toList();
  }

  static Stream<Arguments> everyMode() {
    return Stream.of(
        Arguments.of("c1", "lexical"),
        Arguments.of("h", "lexical"),
        Arguments.of("h", "semantic"),
        Arguments.of("h", "hybrid"));
  }

  // ---- filters

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyMode")
  void booleanFilters_narrowEveryMode(String corpus, String mode) {
    String q = "\"query\": \"leave\", \"mode\": \"" + mode + "\", \"topK\": 100, ";
    assertEquals(
        List.of("private/salaries.md", "public/leave.md", "public/old-leave.md"),
        sources(ok(search(T, corpus, q + "\"filter\": {\"department\": {\"prefix\": \"hr\"}}"))));
    assertEquals(
        List.of("public/leave.md", "public/travel.md"),
        sources(
            ok(
                search(
                    T,
                    corpus,
                    q + "\"filter\": {\"or\": [{\"draft\": true}, {\"tags\": \"people\"}]}"))));
    assertEquals(
        List.of("public/notes.md", "public/travel.md"),
        sources(
            ok(
                search(
                    T,
                    corpus,
                    q + "\"filter\": {\"not\": {\"department\": {\"prefix\": \"hr\"}}}"))));
    assertEquals(
        List.of("public/leave.md", "public/old-leave.md"),
        sources(ok(search(T, corpus, q + "\"filter\": {\"tags\": {\"exists\": true}}"))));
    assertEquals(
        List.of("public/notes.md"),
        sources(ok(search(T, corpus, q + "\"filter\": {\"year\": {\"exists\": false}}"))));
    // (hr and 2020 or later) or (not hr and a draft), with the top level's AND on year
    assertEquals(
        List.of("public/leave.md", "public/travel.md"),
        sources(
            ok(
                search(
                    T,
                    corpus,
                    q
                        + "\"filter\": {\"year\": {\"gte\": 2020}, \"or\": [{\"and\": [{\"department\": \"hr\"}, {\"year\": {\"gte\": 2020}}]},"
                        + " {\"not\": {\"department\": {\"prefix\": \"hr\"}}, \"draft\": true}]}"))));
  }

  @Test
  void filters_respectGrants() {
    // A prefix that would match a source outside the grants returns only what the token may see.
    assertEquals(
        List.of("public/leave.md", "public/old-leave.md"),
        sources(
            ok(
                search(
                    TestTokens.PUBLIC_C1,
                    "c1",
                    "\"query\": \"leave\", \"filter\": {\"department\": {\"prefix\": \"hr\"}}"))));
  }

  static Stream<Arguments> badFilters() {
    String deep = "{\"not\": {\"not\": {\"not\": {\"not\": {\"not\": {\"year\": 1}}}}}}";
    return Stream.of(
        Arguments.of(
            "{\"or\": [{\"year\": 1}, {\"dept\": {\"prefix\": 5}}]}", "filter.or[1].dept.prefix"),
        Arguments.of(
            "{\"or\": [{\"year\": 1}, {\"dept\": {\"prefix\": \"\"}}]}",
            "filter.or[1].dept.prefix"),
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
    assertInvalid(search(T, "c1", "\"query\": \"leave\", \"filter\": " + filter), field);
  }

  @Test
  void tooManyConditions_isRefusedNamingWhereTheCountRanOut() {
    StringBuilder or = new StringBuilder("{\"or\": [");
    for (int i = 0; i < 64; i++) {
      or.append(i == 0 ? "" : ", ").append("{\"year\": ").append(i).append("}");
    }
    assertInvalid(
        search(T, "c1", "\"query\": \"leave\", \"filter\": " + or + "]}"), "filter.or[63].year");
  }

  @Test
  void aValidFilter_onACorpusOutsideTheGrants_isForbidden() {
    Answer a =
        search(
            TestTokens.C2_ONLY, "c1", "\"query\": \"leave\", \"filter\": {\"year\": {\"gt\": 1}}");
    assertEquals(403, a.status(), a::toString);
    assertEquals("FORBIDDEN", a.code(), a::toString);
  }

  @Test
  void protocolAdvertisesTheFilterBounds() {
    JsonNode limits = ok(api.get("/v1/protocol").token(T).send()).get("limits");
    assertEquals(4, limits.get("maxFilterDepth").asInt());
    assertEquals(64, limits.get("maxFilterConditions").asInt());
    assertTrue(limits.has("maxFilterFields"));
    assertEquals(8, limits.get("maxFacets").asInt());
    assertEquals(100, limits.get("maxFacetSize").asInt());
  }

  // ---- facets

  /** A facet's counts as "value=count" strings, then "distinct=n". */
  static List<String> facet(JsonNode answer, int i) {
    JsonNode f = answer.get("facets").get(i);
    List<String> out = new ArrayList<>();
    f.get("values").forEach(v -> out.add(v.get("value").asText() + "=" + v.get("count").asLong()));
    out.add("distinct=" + f.get("distinctValues").asInt());
    return out;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyMode")
  void facets_countSourcesOverEveryMatch_inEveryMode(String corpus, String mode) {
    JsonNode a =
        ok(
            search(
                T,
                corpus,
                "\"query\": \"leave\", \"mode\": \""
                    + mode
                    + "\", \"topK\": 1, "
                    + "\"facets\": [\"department\", {\"field\": \"year\", \"size\": 2}, \"tags\"]"));
    assertEquals(1, a.get("results").size());
    assertEquals(List.of("hr=2", "finance=1", "hr-finance=1", "distinct=3"), facet(a, 0));
    assertEquals(List.of("2024=2", "2019=1", "distinct=3"), facet(a, 1));
    assertTrue(a.get("facets").get(1).get("values").get(0).get("value").isIntegralNumber());
    assertEquals(List.of("archive=1", "people=1", "policy=1", "distinct=3"), facet(a, 2));
    JsonNode filtered =
        ok(
            search(
                T,
                corpus,
                "\"query\": \"leave\", \"mode\": \""
                    + mode
                    + "\", "
                    + "\"filter\": {\"not\": {\"department\": \"hr\"}}, \"facets\": [\"department\"]"));
    assertEquals(List.of("finance=1", "hr-finance=1", "distinct=2"), facet(filtered, 0));
  }

  @Test
  void facets_neverCountSourcesOutsideTheGrants() {
    JsonNode a =
        ok(
            search(
                TestTokens.PUBLIC_C1, "c1", "\"query\": \"leave\", \"facets\": [\"department\"]"));
    assertEquals(List.of("hr=2", "finance=1", "distinct=2"), facet(a, 0));
  }

  /**
   * A token granted public/* that sees one chunk holding four words once each cannot tell which of
   * them sources it may not see also hold: all four score the same (the statistics are those of the
   * chunks it may see), whatever it filters on; the admin's scores still count every source.
   */
  @Test
  void scores_sayNothingOfSourcesOutsideTheGrants() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c1", "source": "public/probe.md", "text": "acquisition zebraword berlin qqqxyz"}"""));
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "c1", "source": "secret/probe-deal.md", "text": "the acquisition of a firm in berlin"}"""));
    List<Double> scores = new ArrayList<>();
    for (String word : List.of("acquisition", "zebraword", "berlin", "qqqxyz")) {
      for (String sources : List.of("\"sources\": [\"public/probe.md\"], ", "")) {
        JsonNode a =
            ok(
                search(
                    TestTokens.PUBLIC_C1,
                    "c1",
                    sources + "\"query\": \"" + word + "\", \"mode\": \"lexical\""));
        assertEquals(1, a.get("results").size(), word);
        scores.add(a.get("results").get(0).get("score").asDouble());
      }
    }
    assertEquals(1, scores.stream().distinct().count(), scores::toString);
    double acquisition =
        ok(search(T, "c1", "\"query\": \"acquisition\", \"sources\": [\"public/probe.md\"]"))
            .get("results")
            .get(0)
            .get("score")
            .asDouble();
    double zebraword =
        ok(search(T, "c1", "\"query\": \"zebraword\", \"sources\": [\"public/probe.md\"]"))
            .get("results")
            .get(0)
            .get("score")
            .asDouble();
    assertTrue(acquisition < zebraword, acquisition + " " + zebraword);
  }

  @Test
  void facets_absentUnlessAskedFor() {
    assertTrue(ok(search(T, "c1", "\"query\": \"leave\"")).path("facets").isMissingNode());
  }

  @Test
  void pinnedFacets_stayTheRevisionsCounts_andPassageMetadataCountsPerValue() {
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"pin\"}"));
    long first =
        ok(api.retrieval(
                "sources/index",
                T,
                """
        {"corpus": "pin", "source": "guide.md", "metadata": {"lang": "en"},
         "passages": [{"text": "install the tool"}, {"text": "install the tool again", "metadata": {"lang": "de"}}]}"""))
            .get("revision")
            .asLong();
    String body = "\"query\": \"install\", \"revision\": " + first + ", \"facets\": [\"lang\"]";
    assertEquals(List.of("de=1", "en=1", "distinct=2"), facet(ok(search(T, "pin", body)), 0));
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "pin", "source": "guide.md", "text": "install it", "metadata": {"lang": "fr"}}"""));
    assertEquals(List.of("de=1", "en=1", "distinct=2"), facet(ok(search(T, "pin", body)), 0));
    assertEquals(
        List.of("fr=1", "distinct=1"),
        facet(ok(search(T, "pin", "\"query\": \"install\", \"facets\": [\"lang\"]")), 0));
  }

  static Stream<Arguments> badFacets() {
    return Stream.of(
        Arguments.of("\"department\"", "facets"),
        Arguments.of("[5]", "facets[0]"),
        Arguments.of("[\"bad key!\"]", "facets[0]"),
        Arguments.of("[\"a\", \"b\", \"a\"]", "facets[2]"),
        Arguments.of("[{\"field\": \"a\", \"size\": 0}]", "facets[0].size"),
        Arguments.of("[{\"field\": \"a\", \"size\": 101}]", "facets[0].size"),
        Arguments.of("[{\"size\": 3}]", "facets[0].field"),
        Arguments.of("[{\"field\": \"a\", \"top\": 3}]", "facets[0].top"),
        Arguments.of("[\"a\", {\"field\": \"a\"}]", "facets[1].field"),
        Arguments.of("[\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"]", "facets"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFacets")
  void badFacets_areTypedErrorsNamingThePath(String facets, String field) {
    assertInvalid(search(T, "c1", "\"query\": \"leave\", \"facets\": " + facets), field);
  }

  // ---- snippets

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyMode")
  void snippets_markTheMatchesInsideTheWindow_inEveryMode(String corpus, String mode) {
    JsonNode hits =
        ok(search(
                T,
                corpus,
                "\"query\": \"parental leave\", \"mode\": \""
                    + mode
                    + "\", \"topK\": 100, "
                    + "\"filter\": {\"tags\": \"people\"}, \"snippet\": {\"maxChars\": 40, \"html\": true, "
                    + "\"pre\": \"<em class='q'>\", \"post\": \"</em>\"}"))
            .get("results");
    assertEquals(1, hits.size());
    JsonNode hit = hits.get(0);
    JsonNode snippet = hit.get("snippet");
    String text = hit.get("text").asText();
    int start = snippet.get("start").asInt();
    assertEquals(text.substring(start, snippet.get("end").asInt()), snippet.get("text").asText());
    assertTrue(snippet.get("text").asText().length() <= 40, snippet::toString);
    List<String> marked = new ArrayList<>();
    snippet
        .get("highlights")
        .forEach(
            h ->
                marked.add(
                    snippet.get("text").asText().substring(h.get(0).asInt(), h.get(1).asInt())));
    assertTrue(marked.contains("Parental") && marked.contains("leave"), snippet::toString);
    assertEquals(
        "<em class='q'>Parental</em> <em class='q'>leave</em> is sixteen weeks of paid\u2026",
        snippet.get("html").asText());
    // the hit's exact offsets into the source stay, and so do its own highlights
    assertEquals(0, hit.get("offsets").get("start").asInt());
    assertTrue(hit.get("highlights").size() >= 3, hit::toString);
  }

  @Test
  void snippetTrue_givesTheDefaults_withoutHtml_andHighlightFalseKeepsSnippetMatches() {
    JsonNode hit =
        ok(search(T, "c1", "\"query\": \"reimbursed\", \"snippet\": true, \"highlight\": false"))
            .get("results")
            .get(0);
    assertEquals(
        "Travel on leave days is not reimbursed. Book trains before flights.",
        hit.get("snippet").get("text").asText());
    assertEquals("[[28,38]]", hit.get("snippet").get("highlights").toString());
    assertTrue(hit.get("snippet").path("html").isMissingNode());
    assertEquals(0, hit.get("highlights").size());
    assertTrue(
        ok(search(T, "c1", "\"query\": \"reimbursed\", \"snippet\": false"))
            .get("results")
            .get(0)
            .path("snippet")
            .isMissingNode());
  }

  @Test
  void htmlSnippets_escapeTheText() {
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"esc\"}"));
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "esc", "source": "x.html", "text": "<script>alert('leave')</script> & more"}"""));
    JsonNode snippet =
        ok(search(T, "esc", "\"query\": \"leave\", \"snippet\": {\"html\": true}"))
            .get("results")
            .get(0)
            .get("snippet");
    assertEquals(
        "&lt;script&gt;alert(&#39;<mark>leave</mark>&#39;)&lt;/script&gt; &amp; more",
        snippet.get("html").asText());
  }

  @Test
  void snippets_cutACompoundAtItsHyphens_notInsideAWord() {
    assertCompoundCutAtHyphens(api);
  }

  /**
   * A word joined by hyphens with no space near the match: the window is cut at a hyphen (on every
   * store).
   */
  static void assertCompoundCutAtHyphens(ApiClient api) {
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"compound\"}"));
    ok(
        api.retrieval(
            "sources/index",
            T,
            """
        {"corpus": "compound", "source": "c.md",
         "text": "alongcompoundwordthatkeepsgoingon-needle-anotherlongcompoundwordthatgoesonandon"}"""));
    JsonNode snippet =
        ok(search(
                api,
                T,
                "compound",
                "\"query\": \"needle\", \"snippet\": {\"maxChars\": 20, \"html\": true}"))
            .get("results")
            .get(0)
            .get("snippet");
    assertEquals("needle", snippet.get("text").asText(), snippet::toString);
    assertEquals("\u2026<mark>needle</mark>\u2026", snippet.get("html").asText());
    assertEquals("[[0,6]]", snippet.get("highlights").toString());
    assertEquals(34, snippet.get("start").asInt());
  }

  static Stream<Arguments> badSnippets() {
    return Stream.of(
        Arguments.of("\"yes\"", "snippet"),
        Arguments.of("{\"maxChars\": 19}", "snippet.maxChars"),
        Arguments.of("{\"maxChars\": 2001}", "snippet.maxChars"),
        Arguments.of("{\"maxChars\": 50.5}", "snippet.maxChars"),
        Arguments.of("{\"pre\": \"<b>\"}", "snippet.pre"),
        Arguments.of("{\"html\": false, \"post\": \"</b>\"}", "snippet.post"),
        Arguments.of("{\"html\": true, \"pre\": \"" + "x".repeat(65) + "\"}", "snippet.pre"),
        Arguments.of("{\"html\": \"true\"}", "snippet.html"),
        Arguments.of("{\"length\": 5}", "snippet.length"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badSnippets")
  void badSnippets_areTypedErrorsNamingThePath(String snippet, String field) {
    assertInvalid(search(T, "c1", "\"query\": \"leave\", \"snippet\": " + snippet), field);
  }

  // ---- query syntax

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyMode")
  void operators_decideMatches_inEveryMode(String corpus, String mode) {
    String m = "\"mode\": \"" + mode + "\", \"topK\": 100, \"syntax\": \"operators\", ";
    assertEquals(
        List.of("public/leave.md", "public/old-leave.md"),
        sources(ok(search(T, corpus, m + "\"query\": \"\\\"leave policy\\\" parental\""))));
    assertEquals(
        List.of("public/leave.md"),
        sources(ok(search(T, corpus, m + "\"query\": \"\\\"parental leave\\\" -unpaid\""))));
    assertEquals(
        List.of("private/salaries.md", "public/leave.md"),
        sources(ok(search(T, corpus, m + "\"query\": \"leave +paid\""))));
    // an unbalanced quote is ignored: the words after it are plain words
    assertEquals(
        sources(ok(search(T, corpus, m + "\"query\": \"trains flights\""))),
        sources(ok(search(T, corpus, m + "\"query\": \"\\\"trains flights\""))));
  }

  @Test
  void operators_keepThePlainScoresOfTheirWords_andPlainSyntaxIsTheDefault() {
    JsonNode operators =
        ok(search(
                T,
                "c1",
                "\"syntax\": \"operators\", \"query\": \"\\\"parental leave\\\" -unpaid\""))
            .get("results")
            .get(0);
    JsonNode plain = ok(search(T, "c1", "\"query\": \"parental leave\"")).get("results");
    JsonNode same = null;
    for (JsonNode h : plain) {
      if (h.get("source").equals(operators.get("source"))) {
        same = h;
      }
    }
    assertNotNull(
        same, () -> operators.get("source") + " is not among the plain query's hits: " + plain);
    assertEquals(same.get("score"), operators.get("score"));
    // by default the quote and the minus are text: "-unpaid" scores the word unpaid
    List<String> byDefault =
        sources(
            ok(search(T, "c1", "\"topK\": 100, \"query\": \"\\\"parental leave\\\" -unpaid\"")));
    assertTrue(byDefault.contains("public/old-leave.md"), byDefault::toString);
  }

  @Test
  void onlyExclusions_matchNothingLexically_andAreA400NamingQueryInSemanticSearch() {
    assertEquals(
        0,
        ok(search(T, "c1", "\"syntax\": \"operators\", \"query\": \"-leave\""))
            .get("results")
            .size());
    assertInvalid(
        search(T, "h", "\"syntax\": \"operators\", \"mode\": \"semantic\", \"query\": \"-leave\""),
        "query");
  }

  @Test
  void anUnknownSyntax_isA400NamingIt() {
    assertInvalid(search(T, "c1", "\"syntax\": \"lucene\", \"query\": \"leave\""), "syntax");
  }

  /**
   * The five sources every search-feature test reads, as a {@code sources/batch} body for {@code
   * corpus}.
   */
  static String sampleBatch(String corpus) {
    return """
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
            "text": "Notes about leave requests, without any metadata."}}]}"""
        .formatted(corpus);
  }
}
