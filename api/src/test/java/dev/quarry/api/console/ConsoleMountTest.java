package dev.quarry.api.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.Authenticator;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.api.routes.Responses;
import dev.quarry.corpora.Corpora;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import io.javalin.Javalin;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that embeds the plugin serves the web console only when it opts in, below the same path
 * and with the same headers as the standalone server, and leaves its own root alone.
 */
class ConsoleMountTest {
  @TempDir Path data;

  /** Runs {@code check} against a host whose plugin has the console on or off. */
  void withHost(boolean console, java.util.function.Consumer<ApiClient> check) {
    Authenticator nobody = token -> Optional.empty();
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      QuarryPlugin quarry =
          new QuarryPlugin(c -> c.corpora(corpora).authenticator(nobody).console(console));
      Javalin app =
          Javalin.create(
              config -> {
                config.startup.showJavalinBanner = false;
                config.registerPlugin(quarry);
                // The console signs in through the host's protocol endpoint.
                config.routes.get(
                    "/v1/protocol",
                    ctx ->
                        Responses.write(
                            ctx,
                            200,
                            quarry.protocol(),
                            new com.fasterxml.jackson.databind.ObjectMapper()));
                config.routes.get("/", ctx -> ctx.result("the host's own home page"));
              });
      app.start("127.0.0.1", 0);
      try {
        check.accept(new ApiClient("http://127.0.0.1:" + app.port()));
      } finally {
        app.stop();
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void console_optedIn_isServedWithItsPolicy_andTheHostKeepsItsRoot() {
    withHost(
        true,
        api -> {
          Answer page = api.get("/console/").send();
          assertEquals(200, page.status(), page::toString);
          assertTrue(
              page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
          assertTrue(
              page.body().contains("<script type=\"module\" src=\"js/main.js\"></script>"),
              page.body());
          assertEquals(
              ConsoleAssets.CONTENT_SECURITY_POLICY, page.header("Content-Security-Policy"));
          Answer script = api.get("/console/js/view-source.js").send();
          assertEquals(200, script.status());
          assertTrue(
              script.header("Content-Type").startsWith("text/javascript"),
              script.header("Content-Type"));
          Answer bare = api.get("/console").send();
          assertEquals(302, bare.status());
          assertEquals("/console/", bare.header("Location"));
          assertEquals("the host's own home page", api.get("/").send().body());
          assertEquals(404, api.get("/console/missing.js").send().status());
        });
  }

  @Test
  void console_byDefault_isNotServed() {
    withHost(
        false,
        api -> {
          assertEquals(404, api.get("/console/").send().status());
          assertEquals(404, api.get("/console/js/main.js").send().status());
        });
  }
}
