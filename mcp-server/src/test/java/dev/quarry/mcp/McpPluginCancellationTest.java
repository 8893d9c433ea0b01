package dev.quarry.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import io.javalin.Javalin;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin in a host's own Javalin app, beside QuarryPlugin, over real HTTP: a client's {@code
 * notifications/cancelled} stops a search in flight. The corpora are real; a wrapper holds the
 * search at its resolving phase until the cancellation has arrived and counts the searches that
 * reach the index, which must be none.
 */
class McpPluginCancellationTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String TOKEN = "test-token";

  @TempDir Path dir;
  Corpora real;
  Javalin app;
  String url;
  final HttpClient http = HttpClient.newHttpClient();
  final CountDownLatch resolving = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicInteger searches = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    real = Corpora.builder().dataDir(Files.createDirectories(dir.resolve("data"))).build();
    Corpora held =
        (Corpora)
            Proxy.newProxyInstance(
                Corpora.class.getClassLoader(),
                new Class<?>[] {Corpora.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("countSources")) {
                    resolving.countDown();
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                  } else if (method.getName().equals("search")) {
                    searches.incrementAndGet();
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    Access admin =
        new Access("tester", List.of(new Grant("*", Grant.EVERY_SOURCE, Set.of(Scope.values()))));
    QuarryPlugin quarry =
        new QuarryPlugin(
            c ->
                c.corpora(held)
                    .authenticator(t -> TOKEN.equals(t) ? Optional.of(admin) : Optional.empty()));
    McpPlugin mcp =
        new McpPlugin(
            c ->
                c.corpora(held)
                    .authenticator(t -> TOKEN.equals(t) ? Optional.of(admin) : Optional.empty())
                    .beside(quarry));
    app =
        Javalin.create(
                config -> {
                  config.startup.showJavalinBanner = false;
                  config.registerPlugin(quarry);
                  config.registerPlugin(mcp);
                })
            .start("127.0.0.1", 0);
    url = "http://127.0.0.1:" + app.port();
    post("/v1/retrieval/corpora/create", null, "{\"corpus\": \"c1\"}", "application/json");
    post(
        "/v1/retrieval/sources/index",
        null,
        "{\"corpus\": \"c1\", \"source\": \"a.md\", \"text\": \"Leave is long.\"}",
        "application/json");
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    app.stop();
    real.close();
  }

  HttpResponse<String> post(String path, String session, String body, String accept)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url + path))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Content-Type", "application/json")
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void cancelledSearch_stopsBeforeItReachesTheIndex() throws Exception {
    String both = "application/json, text/event-stream";
    HttpResponse<String> init =
        post(
            "/mcp",
            null,
            """
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
         "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""",
            both);
    assertEquals(200, init.statusCode(), init.body());
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(
        "/mcp", session, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}", both);

    CompletableFuture<HttpResponse<String>> call =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return post(
                    "/mcp",
                    session,
                    """
            {"jsonrpc": "2.0", "id": "call-7", "method": "tools/call",
             "params": {"name": "search", "arguments": {"corpus": "c1", "query": "leave"}}}""",
                    both);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertTrue(resolving.await(30, TimeUnit.SECONDS), "the search reached its resolving phase");
    HttpResponse<String> cancel =
        post(
            "/mcp",
            session,
            """
        {"jsonrpc": "2.0", "method": "notifications/cancelled",
         "params": {"requestId": "call-7", "reason": "the user stopped it"}}""",
            both);
    assertEquals(202, cancel.statusCode());
    release.countDown();

    HttpResponse<String> answered = call.get(30, TimeUnit.SECONDS);
    JsonNode result = null;
    for (String line : answered.body().split("\n")) {
      if (line.startsWith("data:")) {
        result = JSON.readTree(line.substring(5).strip()).get("result");
      }
    }
    assertTrue(result != null && result.get("isError").asBoolean(), answered.body());
    JsonNode error = JSON.readTree(result.at("/content/0/text").asText()).get("error");
    assertEquals("CANCELLED", error.get("code").asText());
    assertTrue(error.get("message").asText().contains("the user stopped it"), error::toString);
    assertEquals(0, searches.get(), "a cancelled search never reaches the index");
  }
}
