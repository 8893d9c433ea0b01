package dev.quarry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.wire.Feature;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import io.javalin.Javalin;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plugin inside a host's own Javalin app: it answers its routes and leaves the host's alone.
 */
class QuarryPluginTest {
  static Javalin host;
  static QuarryPlugin plugin;
  static ApiClient api;

  static Corpora unreachable() {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) -> {
              if (method.getName().equals("ingestsDocuments")
                  || method.getName().equals("ingestsPdf")) {
                return false;
              }
              throw new AssertionError("the request reached Corpora." + method.getName());
            });
  }

  @BeforeAll
  static void start() {
    plugin =
        new QuarryPlugin(
            c ->
                c.corpora(unreachable())
                    .authenticator(
                        token ->
                            token.equals("host-token")
                                ? Optional.of(new Access("host-user", List.of()))
                                : Optional.empty())
                    .disable(Feature.RETRIEVAL_INDEXING));
    host =
        Javalin.create(
                config -> {
                  config.startup.showJavalinBanner = false;
                  config.registerPlugin(plugin);
                  config.routes.get("/hello", ctx -> ctx.result("hello from the host"));
                  config.routes.error(
                      404,
                      ctx -> {
                        if (!dev.quarry.api.routes.Responses.answered(ctx)) {
                          ctx.result("host's own 404");
                        }
                      });
                })
            .start("127.0.0.1", 0);
    api = new ApiClient("http://127.0.0.1:" + host.port());
  }

  @AfterAll
  static void stop() {
    if (host != null) {
      host.stop();
    }
  }

  @Test
  void hostRoutes_areUntouched() {
    Answer a = api.get("/hello").send();
    assertEquals("hello from the host", a.body());
    assertEquals(null, a.header("AgenticDriver-Version"));
    assertEquals("host's own 404", api.get("/elsewhere").send().body());
  }

  @Test
  void pluginRoutes_answerWithTheEnvelopeAndVersion() {
    Answer a = api.post("/v1/retrieval/search").json("{}").send();
    assertEquals(401, a.status());
    assertEquals("UNAUTHENTICATED", a.code());
    assertEquals("1.0", a.header("AgenticDriver-Version"));
  }

  @Test
  void unknownPluginRoute_isTheEnvelopesNotFound() {
    Answer a = api.post("/v1/retrieval/nothing").json("{}").send();
    assertEquals(404, a.status());
    assertEquals("NOT_FOUND", a.code());
  }

  @Test
  void switchedOffFeature_isLeftOutOfWhatTheHostAdvertises() {
    assertEquals(List.of("scoped-retrieval"), plugin.features());
    assertTrue(plugin.limits().containsKey("maxTopK"));
    Answer a = api.post("/v1/retrieval/sources/index").token("host-token").json("{}").send();
    assertEquals("INDEXING_UNAVAILABLE", a.code());
  }

  @Test
  void pluginWithoutCorpora_failsNamingTheFix() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> new QuarryPlugin(c -> c.authenticator(token -> Optional.empty())));
    assertTrue(e.getMessage().contains("config.corpora("), e.getMessage());
  }
}
