package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenSearchNodes;
import dev.quarry.testing.TestTokens;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers (fronts) on one real OpenSearch node: front B deletes a corpus that front A has
 * searched (and so keeps), then creates it again with other settings. Over HTTP, A answers
 * CORPUS_NOT_FOUND in between and the new corpus after, CORPUS_REPLACED for the old corpusId, and
 * never the old corpus's data or settings.
 */
class ReplacedCorpusOnClusterIT {
  static final String T = TestTokens.ADMIN;

  @TempDir static Path dir;
  static ServerProcess a;
  static ServerProcess b;

  /** Why OpenSearch could not be started here, or null. */
  static String unavailable;

  @BeforeAll
  static void start() {
    OpenSearchNodes node;
    try {
      node = ClusterConfig.single();
    } catch (org.opentest4j.TestAbortedException e) {
      unavailable = e.getMessage();
      return;
    }
    Path config =
        ClusterConfig.write(dir, "cluster.json", node, ClusterConfig.newPrefix("replaced"), 0);
    Path tokens = TestTokens.write(dir);
    a = ServerProcess.serve(dir.resolve("a"), tokens, config);
    b = ServerProcess.serve(dir.resolve("b"), tokens, config);
  }

  @BeforeEach
  void requireCluster() {
    org.junit.jupiter.api.Assumptions.assumeTrue(unavailable == null, unavailable);
  }

  @AfterAll
  static void stop() {
    for (ServerProcess s : new ServerProcess[] {a, b}) {
      if (s != null && s.isAlive()) {
        s.close();
      }
    }
  }

  static Answer search(ApiClient api, String query, String corpusId) {
    String expected = corpusId == null ? "" : ", \"corpusId\": \"" + corpusId + "\"";
    return api.retrieval(
        "search", T, "{\"corpus\": \"notes\", \"query\": \"" + query + "\"" + expected + "}");
  }

  static String sources(Answer answer) {
    StringBuilder out = new StringBuilder();
    for (JsonNode r : ok(answer).get("results")) {
      out.append(out.isEmpty() ? "" : ",").append(r.get("source").asText());
    }
    return out.toString();
  }

  @Test
  void aCorpusDeletedAndCreatedAgainOnOneFront_answersAsTheNewCorpusOnTheOther() {
    ApiClient frontA = a.client();
    ApiClient frontB = b.client();
    String oldId =
        ok(frontA.retrieval("corpora/create", T, "{\"corpus\": \"notes\"}"))
            .get("corpusId")
            .asText();
    ok(
        frontA.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"notes\", \"source\": \"old\", \"text\": \"the runners were running an ancient race\"}"));
    assertEquals("old", sources(search(frontA, "run", oldId)));

    ok(frontB.retrieval("corpora/delete", T, "{\"corpus\": \"notes\"}"));
    Answer gone = search(frontA, "run", null);
    assertEquals(404, gone.status(), gone::toString);
    assertEquals("CORPUS_NOT_FOUND", gone.code());

    String newId =
        ok(frontB.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"notes\", \"settings\": {\"language\": \"standard\", \"ranking\": {\"titleWeight\": 3}}}"))
            .get("corpusId")
            .asText();
    assertNotEquals(oldId, newId);
    ok(
        frontB.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"notes\", \"source\": \"new\", \"text\": \"the runners were running a fresh race\"}"));

    Answer replaced = search(frontA, "running", oldId);
    assertEquals(409, replaced.status(), replaced::toString);
    assertEquals("CORPUS_REPLACED", replaced.code());
    JsonNode fresh = ok(search(frontA, "running", newId));
    assertEquals(newId, fresh.get("corpusId").asText());
    assertEquals(
        "new", sources(search(frontA, "running", null)), "the new corpus's analyzer: no stemming");
    assertEquals("", sources(search(frontA, "run", null)));
    assertEquals("", sources(search(frontA, "ancient", null)), "never the old corpus's data");
    JsonNode read = ok(frontA.retrieval("corpora/read", T, "{\"corpus\": \"notes\"}"));
    assertEquals(newId, read.get("corpusId").asText());
    assertEquals("standard", read.get("settings").get("language").asText());
    assertEquals(3.0, read.get("settings").get("ranking").get("titleWeight").asDouble());
  }
}
