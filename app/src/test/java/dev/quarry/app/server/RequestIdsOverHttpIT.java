package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Request ids on every answer, in internal failures' envelopes, and the access log, over real HTTP.
 */
class RequestIdsOverHttpIT {
  private static final Pattern GENERATED = Pattern.compile("[0-9a-f]{24}");

  @RegisterExtension static final ServerPerClass server = ServerPerClass.withTestTokens();
  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  @Test
  void everyAnswerCarriesAFreshIdWhenTheClientSendsNone() {
    Answer health = api.get("/healthz").send();
    Answer unknown = api.get("/no/such/path").send();
    Answer unauthenticated =
        api.retrieval("search", "wrong-token", "{\"corpus\": \"c1\", \"query\": \"x\"}");
    for (Answer a : new Answer[] {health, unknown, unauthenticated}) {
      assertNotNull(a.header("X-Request-Id"), a::toString);
      assertTrue(GENERATED.matcher(a.header("X-Request-Id")).matches(), a::toString);
    }
    assertNotEquals(health.header("X-Request-Id"), unknown.header("X-Request-Id"));
    assertEquals(404, unknown.status());
    assertEquals(401, unauthenticated.status());
  }

  @Test
  void aSaneClientIdIsEchoedAndAnInsaneOneReplaced() {
    assertEquals(
        "trace-01.AB_z",
        api.get("/healthz").header("X-Request-Id", "trace-01.AB_z").send().header("X-Request-Id"));
    String tooLong = "a".repeat(129);
    for (String insane : new String[] {tooLong, "has space", "semi;colon", "ünï"}) {
      String echoed =
          api.get("/healthz").header("X-Request-Id", insane).send().header("X-Request-Id");
      assertTrue(GENERATED.matcher(echoed).matches(), insane + " -> " + echoed);
    }
  }

  @Test
  void theAccessLogNamesTheRequestButNeverTheTokenOrTheBody() throws InterruptedException {
    Answer a =
        api.post("/v1/retrieval/search")
            .token(TestTokens.ADMIN)
            .header("X-Request-Id", "access-log-1")
            .json("{\"corpus\": \"nosuchcorpus\", \"query\": \"confidential-query-words\"}")
            .send();
    assertEquals(404, a.status(), a::toString);
    String line = awaitLogLine("request=access-log-1 ");
    assertTrue(
        line.contains(
            "method=POST path=/v1/retrieval/search status=404 bytes="
                + a.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                + " ms="),
        line);
    assertTrue(line.endsWith("subject=admin"), line);
    assertEquals(
        line.indexOf("access-log-1"),
        line.lastIndexOf("access-log-1"),
        () -> "the id twice: " + line);
    String log = server.stderr();
    assertFalse(log.contains(TestTokens.ADMIN), "the token was logged");
    assertFalse(log.contains("confidential-query-words"), "the body was logged");

    api.get("/healthz").header("X-Request-Id", "access-log-2").send();
    assertTrue(awaitLogLine("request=access-log-2 ").contains("status=200"));
    assertTrue(awaitLogLine("request=access-log-2 ").endsWith("subject=-"));
  }

  /**
   * The access log line of a request; it is written once the answer completed, so it may lag the
   * answer.
   */
  private static String awaitLogLine(String needle) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      Optional<String> line = server.stderr().lines().filter(l -> l.contains(needle)).findFirst();
      if (line.isPresent()) {
        return line.get();
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no access log line with " + needle + " in:\n" + server.stderr());
  }

  @Test
  void anInternalFailureQuotesTheRequestIdAsItsReference() {
    // An authenticator that throws is answered 500 INTERNAL (the plugin fails closed).
    QuarryServer failing =
        QuarryServer.start(
            EdgeRulesTest.unreachableCorpora(),
            "127.0.0.1",
            0,
            token -> {
              throw new IllegalStateException("the token store is down");
            },
            ServerConfig.DEFAULT);
    try {
      Answer a =
          new ApiClient(failing.url())
              .post("/v1/retrieval/search")
              .token("any")
              .header("X-Request-Id", "fault-7")
              .json("{\"corpus\": \"c1\", \"query\": \"x\"}")
              .send();
      assertEquals(500, a.status(), a::toString);
      assertEquals("INTERNAL", a.code(), a::toString);
      assertEquals("fault-7", a.header("X-Request-Id"));
      assertTrue(a.json().at("/error/message").asText().contains("reference fault-7"), a::toString);
    } finally {
      failing.close();
    }
  }
}
