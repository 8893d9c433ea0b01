package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code jobs/list} over HTTP: a caller finds again exactly the jobs {@code jobs/read} would show
 * it (its own, and every job of a corpus it manages), newest first in keyset pages that neither
 * repeat nor skip a job, narrowed by corpus and state; strict requests; and an empty list, never an
 * error or a count, for a caller that may read no job.
 *
 * <p>Jobs of c1 and c2 are made once and never change after {@code @BeforeAll}; tests that need
 * more make them in c3, which only the admin sees.
 */
class JobListOverHttpIT {
  static final String T = TestTokens.ADMIN;
  static final String PUBLIC = TestTokens.PUBLIC_C1;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens().corpus("c1").corpus("c2").corpus("c3");

  static ApiClient api;

  /** The public writer's jobs on c1. */
  static final List<String> publicC1 = new ArrayList<>();

  /** The admin's jobs on c1; the second is cancelled. */
  static final List<String> adminC1 = new ArrayList<>();

  /** The admin's jobs on c2. */
  static final List<String> adminC2 = new ArrayList<>();

  /** The c2-only token's job on c2. */
  static String otherC2;

  @BeforeAll
  static void start() {
    api = server.client();
    for (int i = 0; i < 3; i++) {
      publicC1.add(create(PUBLIC, "c1"));
    }
    adminC1.add(create(T, "c1"));
    adminC1.add(create(T, "c1"));
    adminC2.add(create(T, "c2"));
    adminC2.add(create(T, "c2"));
    otherC2 = create(TestTokens.C2_ONLY, "c2");
    ok(api.retrieval("jobs/cancel", T, "{\"job\": \"" + adminC1.get(1) + "\"}"));
  }

  static String create(String token, String corpus) {
    return ok(api.retrieval("jobs/create", token, "{\"corpus\": \"" + corpus + "\"}"))
        .at("/job/id")
        .asText();
  }

  static Answer list(String token, String body) {
    return api.retrieval("jobs/list", token, body);
  }

  /**
   * Every job the list gives {@code token} for {@code filters} (JSON members, or ""), page by page
   * of {@code limit}.
   */
  static List<JsonNode> all(String token, String filters, int limit) {
    List<JsonNode> jobs = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      String body =
          "{\"limit\": "
              + limit
              + (filters.isEmpty() ? "" : ", " + filters)
              + (cursor == null ? "" : ", \"cursor\": \"" + cursor + "\"")
              + "}";
      JsonNode page = ok(list(token, body));
      assertTrue(page.get("jobs").size() <= limit, page::toString);
      page.get("jobs").forEach(jobs::add);
      cursor = page.path("nextCursor").asText(null);
      assertTrue(
          cursor == null || page.get("jobs").size() == limit,
          () -> "a page before the last is full: " + page);
      assertTrue(++pages < 100, "the pages end");
    } while (cursor != null);
    return jobs;
  }

  static List<String> ids(List<JsonNode> jobs) {
    return jobs.stream().map(j -> j.get("id").asText()).toList();
  }

  static Set<String> set(List<String> a, List<String> b, String... more) {
    Set<String> out = new HashSet<>(a);
    out.addAll(b);
    out.addAll(List.of(more));
    return out;
  }

  static void assertNewestFirst(List<JsonNode> jobs) {
    for (int i = 1; i < jobs.size(); i++) {
      Instant before = Instant.parse(jobs.get(i - 1).get("createdAt").asText());
      Instant after = Instant.parse(jobs.get(i).get("createdAt").asText());
      assertFalse(after.isAfter(before), () -> "newest first: " + jobs);
    }
  }

  static void assertInvalid(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
  }

  @Test
  void submitter_seesItsOwnJobs_eachAsJobsReadSummarizesIt() {
    List<JsonNode> jobs = all(PUBLIC, "", 100);
    assertEquals(new HashSet<>(publicC1), new HashSet<>(ids(jobs)), jobs::toString);
    assertEquals(publicC1.size(), jobs.size(), "each job once");
    assertNewestFirst(jobs);
    for (JsonNode job : jobs) {
      JsonNode read =
          ok(api.retrieval("jobs/read", PUBLIC, "{\"job\": \"" + job.get("id").asText() + "\"}"));
      assertEquals(read.get("job"), job);
    }
  }

  @Test
  void manager_seesEveryJobOfTheCorporaItManages_andNoOther() {
    assertEquals(set(publicC1, adminC1), new HashSet<>(ids(all(TestTokens.MANAGE_C1, "", 100))));
    assertEquals(
        set(adminC2, List.of(), otherC2), new HashSet<>(ids(all(TestTokens.C2_ONLY, "", 100))));
    assertTrue(new HashSet<>(ids(all(T, "", 100))).containsAll(set(publicC1, adminC1, otherC2)));
  }

  @Test
  void callerThatMayReadNoJob_getsAnEmptyList_notAnError() {
    // search on c1: a grant on the corpus, but neither a submitter nor a manager of any job there.
    for (String body : List.of("{}", "{\"corpus\": \"c1\"}", "{\"state\": \"open\"}")) {
      JsonNode page = ok(list(TestTokens.SEARCH_C1, body));
      assertEquals(0, page.get("jobs").size(), page::toString);
      assertFalse(page.has("nextCursor"), page::toString);
    }
    // A corpus outside every grant is refused as on any endpoint, whether or not it holds jobs.
    Answer c2 = list(TestTokens.SEARCH_C1, "{\"corpus\": \"c2\"}");
    Answer none = list(TestTokens.SEARCH_C1, "{\"corpus\": \"nowhere\"}");
    assertEquals(403, c2.status(), c2::toString);
    assertEquals("FORBIDDEN", c2.code());
    assertEquals(none.status(), c2.status());
    assertEquals(
        none.json().at("/error/message"),
        c2.json().at("/error/message"),
        "the same refusal either way");
    assertFalse(c2.body().contains("job_"), c2::toString);
  }

  @Test
  void pages_coverEveryJobOnce_newestFirst_andAJobCreatedBetweenPagesShiftsNothing() {
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      made.add(create(T, "c3"));
    }
    List<JsonNode> whole = all(T, "\"corpus\": \"c3\"", 100);
    assertEquals(5, whole.size(), whole::toString);
    assertNewestFirst(whole);
    assertEquals(new HashSet<>(made), new HashSet<>(ids(whole)));
    for (int limit = 1; limit <= 6; limit++) {
      assertEquals(
          ids(whole),
          ids(all(T, "\"corpus\": \"c3\"", limit)),
          "pages of " + limit + " give the same list");
    }

    JsonNode first = ok(list(T, "{\"corpus\": \"c3\", \"limit\": 2}"));
    String newcomer = create(T, "c3");
    List<String> seen =
        new ArrayList<>(ids(List.of(first.get("jobs").get(0), first.get("jobs").get(1))));
    String cursor = first.get("nextCursor").asText();
    while (cursor != null) {
      JsonNode page =
          ok(list(T, "{\"corpus\": \"c3\", \"limit\": 2, \"cursor\": \"" + cursor + "\"}"));
      page.get("jobs").forEach(j -> seen.add(j.get("id").asText()));
      cursor = page.path("nextCursor").asText(null);
    }
    assertEquals(
        ids(whole),
        seen,
        "the pages after the first are those of the list as it was: no gap, no repeat");
    assertEquals(newcomer, ids(all(T, "\"corpus\": \"c3\"", 100)).get(0), "a new job comes first");
  }

  @Test
  void filters_byCorpusAndByState() {
    assertEquals(
        set(adminC2, List.of(), otherC2), new HashSet<>(ids(all(T, "\"corpus\": \"c2\"", 2))));
    assertEquals(
        List.of(adminC1.get(1)), ids(all(TestTokens.MANAGE_C1, "\"state\": \"cancelled\"", 10)));
    Set<String> open = set(publicC1, List.of(), adminC1.get(0));
    assertEquals(open, new HashSet<>(ids(all(TestTokens.MANAGE_C1, "\"state\": \"open\"", 2))));
    assertEquals(
        open,
        new HashSet<>(
            ids(all(TestTokens.MANAGE_C1, "\"corpus\": \"c1\", \"state\": \"open\"", 3))));
    assertEquals(List.of(), ids(all(PUBLIC, "\"state\": \"cancelled\"", 10)));
    assertEquals(List.of(), ids(all(T, "\"state\": \"failed\"", 10)));
    for (JsonNode job : all(T, "\"state\": \"open\"", 3)) {
      assertEquals("open", job.get("state").asText(), job::toString);
    }
    // A corpus inside the grants is a filter only: one that does not exist simply has no jobs.
    assertEquals(List.of(), ids(all(T, "\"corpus\": \"nosuch\"", 10)));
  }

  @Test
  void invalidFields_areRefusedWithTheirPath_beforeGrants() {
    String fileCursor =
        java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("v1:file:3".getBytes());
    String tampered =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("v1:job:Bad!:x".getBytes());
    assertInvalid(list(T, "{\"bogus\": 1}"), "bogus");
    assertInvalid(list(T, "{\"state\": \"done\"}"), "state");
    assertInvalid(list(T, "{\"state\": \"OPEN\"}"), "state");
    assertInvalid(list(T, "{\"state\": 1}"), "state");
    assertInvalid(list(T, "{\"state\": null}"), "state");
    assertInvalid(list(T, "{\"corpus\": \"Not A Name\"}"), "corpus");
    assertInvalid(list(T, "{\"corpus\": 7}"), "corpus");
    assertInvalid(list(T, "{\"limit\": 0}"), "limit");
    assertInvalid(list(T, "{\"limit\": \"10\"}"), "limit");
    assertInvalid(list(T, "{\"limit\": 2.5}"), "limit");
    assertInvalid(list(T, "{\"cursor\": \"\"}"), "cursor");
    assertInvalid(list(T, "{\"cursor\": \"not-a-cursor\"}"), "cursor");
    assertInvalid(list(T, "{\"cursor\": \"" + fileCursor + "\"}"), "cursor");
    assertInvalid(list(T, "{\"cursor\": \"" + tampered + "\"}"), "cursor");
    assertInvalid(list(T, "{\"job\": \"" + adminC1.get(0) + "\"}"), "job");
    // Validation comes before grants: a malformed request on a corpus outside the grants is 400,
    // not 403.
    assertInvalid(list(TestTokens.SEARCH_C1, "{\"corpus\": \"c2\", \"state\": \"done\"}"), "state");
  }
}
