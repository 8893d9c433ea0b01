package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.testing.OpenSearchNodes;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quarry's scoring plugin on a real node: the front finds it in {@code _nodes/plugins}, and the
 * {@code quarry_bm25f} query scores with the statistics of the revision it is given (of the sources
 * it is given, when it is), and refuses what no front sends (a weight, boost, k1, b or revision out
 * of bounds, a repeated term, a field it does not know, statistics sources that are empty or not
 * strings) with a 400 naming the query, while the node answers on. Its scores themselves are held
 * to the embedded store's by {@code StoresDifferentialIT}.
 */
class ScoringPluginIT {
  static ClusterHttp http;
  static final String INDEX = "t-scoring-plugin-" + System.nanoTime() % 100000;

  @BeforeAll
  static void start() throws Exception {
    List<URI> urls = OpenSearchNodes.single().urls();
    http = new ClusterHttp(OpenSearchSettings.of(urls).withReplicas(0));
    http.json(
            "PUT",
            "/" + INDEX,
            ClusterHttp.MAPPER.readTree(
                """
        {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
         "mappings": {"properties": {"tokens": {"type": "text", "analyzer": "whitespace"},
                                     "source": {"type": "keyword"},
                                     "added": {"type": "long"}, "superseded": {"type": "long"}}}}"""))
        .require("creating");
    http.json(
            "PUT",
            "/" + INDEX + "/_doc/1?refresh=true",
            ClusterHttp.MAPPER.readTree(
                """
        {"tokens": "leav absenc leav", "source": "a/1", "added": 1, "superseded": 9223372036854775807}"""))
        .require("indexing");
    http.json(
            "PUT",
            "/" + INDEX + "/_doc/2?refresh=true",
            ClusterHttp.MAPPER.readTree(
                """
        {"tokens": "leav", "source": "b/2", "added": 2, "superseded": 9223372036854775807}"""))
        .require("indexing");
    // Replaced at revision 2: seen at revision 1 only.
    http.json(
            "PUT",
            "/" + INDEX + "/_doc/3?refresh=true",
            ClusterHttp.MAPPER.readTree(
                """
        {"tokens": "leav wither", "source": "a/3", "added": 1, "superseded": 2}"""))
        .require("indexing");
  }

  @Test
  void everyNodeHasIt_andNoOtherPluginIsTakenForIt() {
    assertTrue(ClusterPlugins.everyNodeHas(http, ClusterPlugins.SCORING));
    assertFalse(ClusterPlugins.everyNodeHas(http, "quarry-no-such-plugin"));
  }

  /**
   * Both documents hold the term; at revision 1 only the first is visible, so the statistics count
   * one document (and its length) and score it higher than at revision 2, where the term is in both
   * and the average length is shorter: the revision, not the index, decides the statistics.
   */
  @Test
  void theRevisionsStatistics_decideTheScore() throws Exception {
    String fields = "[{\"name\": \"tokens\", \"weight\": 1}]";
    String terms = "[{\"term\": \"leav\", \"boost\": 1}]";
    double atOne = scoreOfFirst(query(fields, terms, "1.2", "0.75", 1));
    double atTwo = scoreOfFirst(query(fields, terms, "1.2", "0.75", 2));
    assertTrue(atOne > 0 && atTwo > 0 && atOne != atTwo, atOne + " " + atTwo);
    // A revision that sees neither document scores none (the caller's filter would show none
    // either).
    assertEquals(
        0,
        search(query(fields, terms, "1.2", "0.75", 0))
            .require("searching")
            .body()
            .path("hits")
            .path("hits")
            .size());
  }

  /**
   * Asked for visible_only, the query matches the documents the revision sees and no other (the
   * search needs no filter of its own); without it, every document holding a term, as before.
   */
  @Test
  void visibleOnly_matchesWhatTheRevisionSees() throws Exception {
    String fields = "[{\"name\": \"tokens\", \"weight\": 1}]";
    String terms = "[{\"term\": \"leav\", \"boost\": 1}]";
    assertEquals(Set.of("1", "3"), ids(visibleOnly(query(fields, terms, "1.2", "0.75", 1))));
    assertEquals(Set.of("1", "2"), ids(visibleOnly(query(fields, terms, "1.2", "0.75", 2))));
    assertEquals(Set.of("1", "2", "3"), ids(query(fields, terms, "1.2", "0.75", 2)));
    // The same documents score the same with or without it: it decides matches, not statistics.
    assertEquals(
        scoreOfFirst(query(fields, terms, "1.2", "0.75", 2)),
        scoreOfFirst(visibleOnly(query(fields, terms, "1.2", "0.75", 2))));
  }

  /**
   * Given statistics_sources, the statistics count the visible documents of those sources only (ids
   * and prefixes): at revision 2, "a/*" counts document 1 alone (3 is replaced), as "a/1" does, and
   * scores it otherwise than every source's statistics, which "a/1" with "b/*" gives again. Which
   * documents match does not change: document 2 still matches, outside the sources.
   */
  @Test
  void statisticsSources_decideTheStatistics_notTheMatches() throws Exception {
    String fields = "[{\"name\": \"tokens\", \"weight\": 1}]";
    String terms = "[{\"term\": \"leav\", \"boost\": 1}]";
    String atTwo = visibleOnly(query(fields, terms, "1.2", "0.75", 2));
    double every = scoreOfFirst(atTwo);
    double prefix = scoreOfFirst(statisticsSources(atTwo, "[\"a/*\"]"));
    assertTrue(prefix != every, prefix + " " + every);
    assertEquals(prefix, scoreOfFirst(statisticsSources(atTwo, "[\"a/1\"]")));
    assertEquals(every, scoreOfFirst(statisticsSources(atTwo, "[\"b/*\", \"a/1\", \"a/1\"]")));
    assertEquals(Set.of("1", "2"), ids(statisticsSources(atTwo, "[\"a/*\"]")));
    // Sources that hold no visible document: no statistics, so no term scores and nothing matches.
    assertEquals(Set.of(), ids(statisticsSources(atTwo, "[\"c/*\"]")));
  }

  private static String statisticsSources(String body, String sources) {
    return body.replace("\"revision\"", "\"statistics_sources\": " + sources + ", \"revision\"");
  }

  private static String visibleOnly(String body) {
    return body.replace("\"revision\"", "\"visible_only\": true, \"revision\"");
  }

  private static Set<String> ids(String body) throws Exception {
    Set<String> ids = new HashSet<>();
    for (JsonNode hit : search(body).require("searching").body().path("hits").path("hits")) {
      ids.add(hit.path("_id").asText());
    }
    return ids;
  }

  private static double scoreOfFirst(String body) throws Exception {
    for (JsonNode hit : search(body).require("searching").body().path("hits").path("hits")) {
      if (hit.path("_id").asText().equals("1")) {
        return hit.path("_score").asDouble();
      }
    }
    throw new AssertionError("document 1 not found");
  }

  @Test
  void malformedQueries_areRefusedWith400_andTheNodeAnswersOn() throws Exception {
    String fields = "[{\"name\": \"tokens\", \"weight\": 1}]";
    String terms = "[{\"term\": \"leav\", \"boost\": 1}]";
    List<String> bad =
        List.of(
            query(fields, terms, "1.2", "0.75", 1).replace("\"k1\"", "\"k2\""), // an unknown field
            query(fields, "[{\"term\": \"leav\", \"boost\": 0}]", "1.2", "0.75", 1),
            query(fields, "[{\"term\": \"leav\", \"boost\": -1}]", "1.2", "0.75", 1),
            query(
                fields,
                "[{\"term\": \"leav\", \"boost\": 1}, {\"term\": \"leav\", \"boost\": 1}]",
                "1.2",
                "0.75",
                1),
            query(
                "[{\"name\": \"tokens\", \"weight\": 0.5}]",
                terms,
                "1.2",
                "0.75",
                1), // a weight below 1
            query("[]", terms, "1.2", "0.75", 1),
            query(fields, "[]", "1.2", "0.75", 1),
            query(fields, "{}", "1.2", "0.75", 1),
            query(fields, terms, "-1", "0.75", 1), // k1 below 0
            query(fields, terms, "1.2", "2", 1), // b above 1
            query(fields, terms, "1.2", "0.75", -1), // a negative revision
            query(fields, terms, "1.2", "0.75", 1).replace("\"revision\": 1", "\"revision\": 1.5"),
            query(fields, terms, "1.2", "0.75", 1)
                .replace("\"revision\"", "\"visible_only\": \"yes\", \"revision\""),
            query(fields, terms, "1.2", "0.75", 1).replace("\"leav\"", "7"),
            statisticsSources(query(fields, terms, "1.2", "0.75", 1), "[]"), // would count nothing
            statisticsSources(query(fields, terms, "1.2", "0.75", 1), "[\"\"]"),
            statisticsSources(query(fields, terms, "1.2", "0.75", 1), "\"a/*\""),
            statisticsSources(query(fields, terms, "1.2", "0.75", 1), "[7]"));
    for (String body : bad) {
      ClusterHttp.Answer answer = search(body);
      assertEquals(400, answer.status(), body + " -> " + answer.body());
      assertTrue(answer.body().toString().contains("quarry_bm25f"), answer.body().toString());
    }
    StringBuilder many = new StringBuilder("[");
    for (int t = 0; t <= 1024; t++) {
      many.append(t == 0 ? "" : ",").append("{\"term\": \"t").append(t).append("\", \"boost\": 1}");
    }
    assertEquals(
        400, search(query(fields, many.append("]").toString(), "1.2", "0.75", 1)).status());
    assertEquals(200, search(query(fields, terms, "1.2", "0.75", 1)).status());
  }

  /**
   * The {@code quarry_dense} query refuses what no front sends (an unknown field such as a boost,
   * which would change the scores, a vector that is not whole floats in base64 or holds a NaN, a
   * revision that is negative or not whole) with a 400 naming the query; on an index without
   * vectors a well-formed one matches nothing.
   */
  @Test
  void malformedDenseQueries_areRefusedWith400_andTheNodeAnswersOn() throws Exception {
    String vector = ClusterCorpusIndex.denseVector(new float[] {0.6f, 0.8f});
    List<String> bad =
        List.of(
            dense(
                "\"field\": \"vector\", \"vector\": \""
                    + vector
                    + "\", \"revision\": 1, \"boost\": 2"),
            dense("\"field\": \"vector\", \"revision\": 1"),
            dense("\"field\": \"vector\", \"vector\": \"!!!\", \"revision\": 1"),
            dense("\"field\": \"vector\", \"vector\": \"AAAA\", \"revision\": 1"), // three bytes
            dense("\"field\": \"vector\", \"vector\": \"\", \"revision\": 1"),
            dense(
                "\"field\": \"vector\", \"vector\": \""
                    + ClusterCorpusIndex.denseVector(new float[] {Float.NaN})
                    + "\", \"revision\": 1"),
            dense("\"field\": \"vector\", \"vector\": [0.6, 0.8], \"revision\": 1"),
            dense("\"field\": \"\", \"vector\": \"" + vector + "\", \"revision\": 1"),
            dense("\"field\": \"vector\", \"vector\": \"" + vector + "\", \"revision\": -1"),
            dense("\"field\": \"vector\", \"vector\": \"" + vector + "\", \"revision\": 1.5"));
    for (String body : bad) {
      ClusterHttp.Answer answer = search(body);
      assertEquals(400, answer.status(), body + " -> " + answer.body());
      assertTrue(answer.body().toString().contains("quarry_dense"), answer.body().toString());
    }
    ClusterHttp.Answer fine =
        search(dense("\"field\": \"vector\", \"vector\": \"" + vector + "\", \"revision\": 1"));
    assertEquals(200, fine.status(), fine.body().toString());
    assertEquals(0, fine.body().path("hits").path("hits").size());
  }

  /**
   * A stored value that is not one value of the length the query reads (a vector of other
   * dimensions) fails the search, saying what it holds, rather than be scored as what it is not;
   * values of the query's length, before and after it, score.
   */
  @Test
  void aStoredVectorOfAnotherLength_failsTheSearch() throws Exception {
    String index = INDEX + "-vectors";
    http.json(
            "PUT",
            "/" + index,
            ClusterHttp.MAPPER.readTree(
                """
        {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
         "mappings": {"properties": {"vector": {"type": "binary", "doc_values": true},
                                     "source": {"type": "keyword"},
                                     "added": {"type": "long"}, "superseded": {"type": "long"}}}}"""))
        .require("creating");
    String query =
        dense(
            "\"field\": \"vector\", \"vector\": \""
                + ClusterCorpusIndex.denseVector(new float[] {0.6f, 0.8f})
                + "\", \"revision\": 1");
    putVector(index, 1, new byte[] {10, 20});
    putVector(index, 2, new byte[] {-30, 40});
    ClusterHttp.Answer fine =
        http.json("POST", "/" + index + "/_search", ClusterHttp.MAPPER.readTree(query));
    assertEquals(200, fine.status(), fine.body().toString());
    assertEquals(2, fine.body().path("hits").path("hits").size());
    putVector(index, 3, new byte[] {1, 2, 3});
    ClusterHttp.Answer wrong =
        http.json("POST", "/" + index + "/_search", ClusterHttp.MAPPER.readTree(query));
    assertTrue(wrong.status() >= 400, wrong.body().toString());
    assertTrue(
        wrong.body().toString().contains("a stored vector has 3 bytes; the query reads 2"),
        wrong.body().toString());
  }

  private static void putVector(String index, int id, byte[] vector) throws Exception {
    http.json(
            "PUT",
            "/" + index + "/_doc/" + id + "?refresh=true",
            ClusterHttp.MAPPER
                .createObjectNode()
                .put("vector", java.util.Base64.getEncoder().encodeToString(vector))
                .put("source", "s/" + id)
                .put("added", 1)
                .put("superseded", Long.MAX_VALUE))
        .require("indexing");
  }

  /**
   * The {@code quarry_coded} query refuses what no front sends (a boost, planes that are not whole
   * longs or not as many as its words and bits say, bits or words out of range, a double that is
   * not finite, a revision not whole) with a 400 naming the query; on an index without codes a
   * well-formed one matches nothing.
   */
  @Test
  void malformedCodedQueries_areRefusedWith400_andTheNodeAnswersOn() throws Exception {
    String planes = ClusterCorpusIndex.planes(new long[] {1, 2, 3, 4});
    String rest =
        "\"low\": "
            + Double.doubleToRawLongBits(-0.1)
            + ", \"step\": "
            + Double.doubleToRawLongBits(0.01)
            + ", \"constant\": 0, \"revision\": 1";
    String fine =
        "\"field\": \"code\", \"planes\": \""
            + planes
            + "\", \"query_bits\": 4,"
            + " \"code_bits\": 2, \"words\": 1, "
            + rest;
    List<String> bad =
        List.of(
            coded(fine + ", \"boost\": 2"),
            coded(fine.replace("\"words\": 1", "\"words\": 2")),
            coded(fine.replace("\"query_bits\": 4", "\"query_bits\": 9")),
            coded(fine.replace("\"code_bits\": 2", "\"code_bits\": 0")),
            coded(fine.replace("\"words\": 1", "\"words\": -1")),
            coded(fine.replace(planes, "AAAA")),
            coded(fine.replace("\"planes\": \"" + planes + "\", ", "")),
            coded(
                fine.replace(
                    "\"constant\": 0", "\"constant\": " + Double.doubleToRawLongBits(Double.NaN))),
            coded(fine.replace("\"low\": " + Double.doubleToRawLongBits(-0.1), "\"low\": -0.1")),
            coded(fine.replace("\"revision\": 1", "\"revision\": 1.5")));
    for (String body : bad) {
      ClusterHttp.Answer answer = search(body);
      assertEquals(400, answer.status(), body + " -> " + answer.body());
      assertTrue(answer.body().toString().contains("quarry_coded"), answer.body().toString());
    }
    ClusterHttp.Answer answer = search(coded(fine));
    assertEquals(200, answer.status(), answer.body().toString());
    assertEquals(0, answer.body().path("hits").path("hits").size());
  }

  private static String coded(String fields) {
    return "{\"query\": {\"quarry_coded\": {" + fields + "}}}";
  }

  private static String dense(String fields) {
    return "{\"query\": {\"quarry_dense\": {" + fields + "}}}";
  }

  private static String query(String fields, String terms, String k1, String b, long revision) {
    return "{\"query\": {\"quarry_bm25f\": {\"fields\": "
        + fields
        + ", \"terms\": "
        + terms
        + ", \"k1\": "
        + k1
        + ", \"b\": "
        + b
        + ", \"revision\": "
        + revision
        + "}}}";
  }

  private static ClusterHttp.Answer search(String body) throws Exception {
    return http.json("POST", "/" + INDEX + "/_search", ClusterHttp.MAPPER.readTree(body));
  }
}
