package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * Facets, snippets and the operator syntax over HTTP on a server whose corpora live on a real
 * OpenSearch node: the answers {@link SearchFeaturesOverHttpIT} expects of a lexical search on the
 * embedded store, for the same sources.
 */
class SearchFeaturesOnClusterIT {
  static final String T = TestTokens.ADMIN;

  @TempDir static Path dir;
  static ServerProcess server;
  static ApiClient api;

  /** Why OpenSearch could not be started here, or null. */
  static String unavailable;

  @BeforeAll
  static void start() {
    Path config;
    try {
      config =
          ClusterConfig.write(
              dir, "cluster.json", ClusterConfig.single(), ClusterConfig.newPrefix("features"), 0);
    } catch (TestAbortedException e) {
      unavailable = e.getMessage();
      return; // every test then skips, saying why
    }
    server = ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), config);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"c1\"}"));
    ok(api.retrieval("sources/batch", T, SearchFeaturesOverHttpIT.sampleBatch("c1")));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void requireCluster() {
    Assumptions.assumeTrue(unavailable == null, unavailable);
  }

  static Answer search(String token, String rest) {
    return api.retrieval("search", token, "{\"corpus\": \"c1\", " + rest + "}");
  }

  static List<String> sources(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer.get("results").forEach(h -> out.add(h.get("source").asText()));
    return out.stream().distinct().sorted().toList();
  }

  @Test
  void facets_countSourcesOverEveryMatch_withinTheGrants() {
    JsonNode a =
        ok(
            search(
                T,
                "\"query\": \"leave\", \"topK\": 1, "
                    + "\"facets\": [\"department\", {\"field\": \"year\", \"size\": 2}, \"tags\"]"));
    assertEquals(1, a.get("results").size());
    assertEquals(
        List.of("hr=2", "finance=1", "hr-finance=1", "distinct=3"),
        SearchFeaturesOverHttpIT.facet(a, 0));
    assertEquals(List.of("2024=2", "2019=1", "distinct=3"), SearchFeaturesOverHttpIT.facet(a, 1));
    assertTrue(a.get("facets").get(1).get("values").get(0).get("value").isIntegralNumber());
    assertEquals(
        List.of("archive=1", "people=1", "policy=1", "distinct=3"),
        SearchFeaturesOverHttpIT.facet(a, 2));
    JsonNode filtered =
        ok(
            search(
                T,
                "\"query\": \"leave\", \"filter\": {\"not\": {\"department\": \"hr\"}}, "
                    + "\"facets\": [\"department\"]"));
    assertEquals(
        List.of("finance=1", "hr-finance=1", "distinct=2"),
        SearchFeaturesOverHttpIT.facet(filtered, 0));
    JsonNode granted =
        ok(search(TestTokens.PUBLIC_C1, "\"query\": \"leave\", \"facets\": [\"department\"]"));
    assertEquals(
        List.of("hr=2", "finance=1", "distinct=2"), SearchFeaturesOverHttpIT.facet(granted, 0));
    assertTrue(ok(search(T, "\"query\": \"leave\"")).path("facets").isMissingNode());
  }

  @Test
  void snippets_areTheEmbeddedStoresWindows() {
    JsonNode hits =
        ok(search(
                T,
                "\"query\": \"parental leave\", \"topK\": 100, \"filter\": {\"tags\": \"people\"}, "
                    + "\"snippet\": {\"maxChars\": 40, \"html\": true, \"pre\": \"<em class='q'>\", \"post\": \"</em>\"}"))
            .get("results");
    assertEquals(1, hits.size());
    assertEquals(
        "<em class='q'>Parental</em> <em class='q'>leave</em> is sixteen weeks of paid\u2026",
        hits.get(0).get("snippet").get("html").asText());
    JsonNode hit =
        ok(search(T, "\"query\": \"reimbursed\", \"snippet\": true, \"highlight\": false"))
            .get("results")
            .get(0);
    assertEquals(
        "Travel on leave days is not reimbursed. Book trains before flights.",
        hit.get("snippet").get("text").asText());
    assertEquals("[[28,38]]", hit.get("snippet").get("highlights").toString());
    assertTrue(hit.get("snippet").path("html").isMissingNode());
    assertEquals(0, hit.get("highlights").size());
  }

  @Test
  void snippets_cutACompoundAtItsHyphens_notInsideAWord() {
    SearchFeaturesOverHttpIT.assertCompoundCutAtHyphens(api);
  }

  @Test
  void operators_decideMatches() {
    String m = "\"topK\": 100, \"syntax\": \"operators\", ";
    assertEquals(
        List.of("public/leave.md", "public/old-leave.md"),
        sources(ok(search(T, m + "\"query\": \"\\\"leave policy\\\" parental\""))));
    assertEquals(
        List.of("public/leave.md"),
        sources(ok(search(T, m + "\"query\": \"\\\"parental leave\\\" -unpaid\""))));
    assertEquals(
        List.of("private/salaries.md", "public/leave.md"),
        sources(ok(search(T, m + "\"query\": \"leave +paid\""))));
    assertEquals(
        sources(ok(search(T, m + "\"query\": \"trains flights\""))),
        sources(ok(search(T, m + "\"query\": \"\\\"trains flights\""))));
    assertEquals(
        0, ok(search(T, "\"syntax\": \"operators\", \"query\": \"-leave\"")).get("results").size());
  }
}
