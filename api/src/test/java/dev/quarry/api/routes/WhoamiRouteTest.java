package dev.quarry.api.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import io.javalin.Javalin;
import java.lang.reflect.Proxy;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/retrieval/whoami} in a host: a token learns its own subject and grants, and
 * nothing else; the answer never touches the corpora (they throw if reached).
 */
class WhoamiRouteTest {
  static Javalin host;
  static ApiClient api;

  @BeforeAll
  static void start() {
    Access team =
        new Access(
            "team-bot",
            List.of(
                new Grant(
                    "team-*", List.of("public/*", "faq.md"), EnumSet.of(Scope.INDEX, Scope.SEARCH)),
                new Grant("shared", null, EnumSet.of(Scope.MANAGE))));
    QuarryPlugin plugin =
        new QuarryPlugin(
            c ->
                c.corpora(unreachable())
                    .authenticator(
                        token ->
                            token.equals("team-token") ? Optional.of(team) : Optional.empty()));
    host =
        Javalin.create(
                config -> {
                  config.startup.showJavalinBanner = false;
                  config.registerPlugin(plugin);
                })
            .start("127.0.0.1", 0);
    api = new ApiClient("http://127.0.0.1:" + host.port());
  }

  /** Corpora that fail the test if any operation reaches them. */
  static Corpora unreachable() {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "ingestsDocuments", "ingestsPdf" -> false;
                  default ->
                      throw new AssertionError("the request reached Corpora." + method.getName());
                });
  }

  @AfterAll
  static void stop() {
    if (host != null) {
      host.stop();
    }
  }

  @Test
  void whoami_answersTheTokensSubjectAndGrants_inWireForm() throws Exception {
    JsonNode answer = ApiClient.ok(api.retrieval("whoami", "team-token", "{}"));
    JsonNode expected =
        ApiClient.JSON.readTree(
            """
        {"subject": "team-bot", "grants": [
          {"corpus": "team-*", "sources": ["public/*", "faq.md"], "scopes": ["search", "index"]},
          {"corpus": "shared", "sources": ["*"], "scopes": ["manage"]}]}""");
    assertEquals(expected, answer);
  }

  @Test
  void whoami_withoutAValidToken_isUnauthenticated() {
    Answer a = api.retrieval("whoami", "someone-else", "{}");
    assertEquals(401, a.status());
    assertEquals("UNAUTHENTICATED", a.code());
  }

  @Test
  void whoami_withAField_isInvalidRequestNamingIt() {
    Answer a = api.retrieval("whoami", "team-token", "{\"subject\": \"admin\"}");
    assertEquals(400, a.status());
    assertEquals("INVALID_REQUEST", a.code());
    assertEquals("subject", a.field());
  }
}
