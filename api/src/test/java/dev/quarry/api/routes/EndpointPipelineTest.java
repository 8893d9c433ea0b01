package dev.quarry.api.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.Authenticator;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.api.runs.AguiEndpoint;
import dev.quarry.api.runs.RunsEndpoint;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import io.javalin.Javalin;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one endpoint pipeline: what every endpoint answers when something fails, whatever the
 * endpoint. Server-side causes never reach the client; a mutation's outcome is uncertain only once
 * its write started; an {@code Error} is answered like any fault.
 */
class EndpointPipelineTest {
  static final String SERVER_PATH = "/srv/quarry/data/corpora/handbook/_0.cfs";
  static final String TOKEN = "token";

  /** A token whose lookup fails with an {@code Error}, as a broken token store might. */
  static final String BROKEN_TOKEN = "broken";

  static Javalin host;
  static ApiClient api;

  /** Corpora whose search fails as storage does, with the server's file path in the cause. */
  static Corpora failingStorage() {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "ingestsDocuments", "ingestsPdf" -> false;
                  case "search" ->
                      throw new QuarryException(
                          ErrorCode.UNAVAILABLE,
                          "corpus 'handbook' could not be searched",
                          new IOException(SERVER_PATH + ": Input/output error"));
                  default ->
                      throw new AssertionError("the request reached Corpora." + method.getName());
                });
  }

  @BeforeAll
  static void start() {
    Authenticator authenticator =
        token -> {
          if (token.equals(BROKEN_TOKEN)) {
            throw new ServiceConfigurationError("the token store is broken");
          }
          return token.equals(TOKEN)
              ? Optional.of(
                  new Access(
                      "user",
                      List.of(
                          new Grant(
                              "*",
                              null,
                              java.util.EnumSet.allOf(dev.quarry.corpora.access.Scope.class)))))
              : Optional.empty();
        };
    QuarryPlugin plugin =
        new QuarryPlugin(c -> c.corpora(failingStorage()).authenticator(authenticator).runs(true));
    RequestGate gate = new RequestGate(4, 4, 1000);
    StrictJson json = new StrictJson();
    EnumSet<Feature> features = EnumSet.allOf(Feature.class);
    host =
        Javalin.create(
                config -> {
                  config.startup.showJavalinBanner = false;
                  config.registerPlugin(plugin);
                  config.routes.post(
                      "/test/fails-before-write",
                      new RetrievalEndpoint(
                          new Route(
                              "test/a",
                              null,
                              Route.Kind.MUTATION,
                              call -> {
                                throw new IllegalStateException(
                                    "broken before writing at " + SERVER_PATH);
                              }),
                          authenticator,
                          features,
                          Limits.DEFAULT,
                          gate,
                          json));
                  config.routes.post(
                      "/test/fails-while-writing",
                      new RetrievalEndpoint(
                          new Route(
                              "test/b",
                              null,
                              Route.Kind.MUTATION,
                              call ->
                                  call.write(
                                      () -> {
                                        throw new IllegalStateException(
                                            "broken while writing at " + SERVER_PATH);
                                      })),
                          authenticator,
                          features,
                          Limits.DEFAULT,
                          gate,
                          json));
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
  void unavailableStorage_answersFixedTextWithAReference_neverTheServersPath() {
    Answer a = api.retrieval("search", TOKEN, "{\"corpus\": \"handbook\", \"query\": \"leave\"}");
    assertEquals(503, a.status());
    assertEquals("UNAVAILABLE", a.code());
    String message = a.json().path("error").path("message").asText();
    assertTrue(message.startsWith("corpus 'handbook' could not be searched (reference "), message);
    assertFalse(a.body().contains("/srv/"), a.body());
  }

  @Test
  void mutationThatFailsBeforeItsWrite_isAPlainFailure() {
    Answer a = api.post("/test/fails-before-write").token(TOKEN).json("{}").send();
    assertEquals(500, a.status());
    assertEquals("INTERNAL", a.code());
    assertNull(a.json().path("error").get("outcome"), a.body());
    assertFalse(a.body().contains("/srv/"), a.body());
  }

  @Test
  void mutationThatFailsWhileWriting_isUncertain() {
    Answer a = api.post("/test/fails-while-writing").token(TOKEN).json("{}").send();
    assertEquals(500, a.status());
    assertEquals("INTERNAL", a.code());
    assertEquals("uncertain", a.json().path("error").path("outcome").asText(), a.body());
    assertFalse(a.body().contains("/srv/"), a.body());
  }

  @Test
  void anErrorInAnyEndpoint_isAnsweredAsInternal() {
    // One path of each kind of endpoint: a JSON route, an upload, a job upload, a run, an AG-UI
    // run.
    for (String path :
        List.of(
            "/v1/retrieval/search",
            "/v1/retrieval/ingest",
            "/v1/retrieval/jobs/upload",
            RunsEndpoint.PATH,
            AguiEndpoint.PATH)) {
      Answer a = api.post(path).token(BROKEN_TOKEN).json("{}").send();
      assertEquals(500, a.status(), path + ": " + a.body());
      assertEquals("INTERNAL", a.code(), path);
      assertEquals("1.0", a.header("AgenticDriver-Version"), path);
      assertFalse(a.body().contains("token store"), a.body());
    }
  }
}
