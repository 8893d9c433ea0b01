package dev.quarry.app.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.console.ConsoleAssets;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's files over plain HTTP, from {@code quarry demo}: where they are and the headers
 * they carry.
 */
class ConsoleOverHttpIT {
  @TempDir static Path dir;
  static ServerProcess demo;
  static ApiClient api;

  @BeforeAll
  static void start() {
    demo = ServerProcess.demo(dir.resolve("data"));
    api = demo.client();
  }

  @AfterAll
  static void stop() {
    if (demo != null) {
      demo.close();
    }
  }

  /** The token {@code quarry demo} printed. */
  static String demoToken(ServerProcess demo) throws InterruptedException {
    Pattern printed = Pattern.compile("Token \\(every scope on every corpus\\): (\\S+)");
    for (int i = 0; i < 1200; i++) {
      for (String line : demo.laterStdout()) {
        Matcher m = printed.matcher(line);
        if (m.find()) {
          return m.group(1);
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no token printed; stdout: " + demo.laterStdout());
  }

  @Test
  void demo_printsTheConsoleAddress() throws InterruptedException {
    demoToken(demo);
    assertTrue(
        demo.laterStdout()
            .contains("Web console: " + demo.url() + "/console/ (sign in with the token above)"),
        () -> String.join("\n", demo.laterStdout()));
  }

  @Test
  void root_andBareConsolePath_redirectToTheConsole() {
    for (String path : new String[] {"/", "/console"}) {
      Answer a = api.get(path).send();
      assertEquals(302, a.status(), path);
      assertEquals("/console/", a.header("Location"), path);
    }
  }

  @Test
  void consolePage_carriesAStrictContentSecurityPolicy() {
    Answer page = api.get("/console/").send();
    assertEquals(200, page.status());
    assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
    assertTrue(page.body().contains("<script type=\"module\" src=\"js/main.js\"></script>"));
    String csp = page.header("Content-Security-Policy");
    assertEquals(ConsoleAssets.CONTENT_SECURITY_POLICY, csp);
    assertTrue(
        csp.contains("script-src 'self'")
            && !csp.contains("unsafe-inline")
            && !csp.contains("unsafe-eval"),
        csp);
    assertTrue(csp.contains("require-trusted-types-for 'script'"), csp);
    assertEquals("nosniff", page.header("X-Content-Type-Options"));
    assertEquals("DENY", page.header("X-Frame-Options"));
  }

  @Test
  void scripts_areServedAsJavaScript_andRevalidatedByETag() {
    Answer script = api.get("/console/js/main.js").send();
    assertEquals(200, script.status());
    assertTrue(
        script.header("Content-Type").startsWith("text/javascript"), script.header("Content-Type"));
    String etag = script.header("ETag");
    assertNotNull(etag);
    Answer again = api.get("/console/js/main.js").header("If-None-Match", etag).send();
    assertEquals(304, again.status());
    assertEquals("", again.body());
  }

  @Test
  void noInlineScript_andNoInnerHtml_inAnyConsoleFile() throws Exception {
    String page = api.get("/console/").send().body();
    assertTrue(
        !page.matches("(?s).*<script(?![^>]*\\bsrc=)[^>]*>.*"), "an inline script in index.html");
    // Every module the page loads: main.js and, from it, every import in turn, so a new module is
    // checked without being listed here.
    Pattern imported = Pattern.compile("from '\\./([a-z0-9-]+\\.js)'");
    Set<String> checked = new TreeSet<>();
    Deque<String> toCheck = new ArrayDeque<>(List.of("main.js"));
    while (!toCheck.isEmpty()) {
      String file = toCheck.pop();
      if (!checked.add(file)) {
        continue;
      }
      Answer js = api.get("/console/js/" + file).send();
      assertEquals(200, js.status(), file);
      assertTrue(
          !js.body().contains(".innerHTML")
              && !js.body().contains("outerHTML")
              && !js.body().contains("insertAdjacentHTML")
              && !js.body().contains("document.write"),
          file + " writes markup from strings");
      for (Matcher m = imported.matcher(js.body()); m.find(); ) {
        toCheck.push(m.group(1));
      }
    }
    assertTrue(
        checked.containsAll(
            List.of(
                "main.js",
                "dom.js",
                "api.js",
                "common.js",
                "hits.js",
                "history.js",
                "grants.js",
                "words.js",
                "session.js",
                "view-corpora.js",
                "view-search.js",
                "view-sources.js",
                "view-source.js",
                "view-ingest.js",
                "view-history.js",
                "view-status.js",
                "search-request.js",
                "search-form.js",
                "facets.js",
                "view-jobs.js",
                "corpus-cache.js",
                "facet-counts.js")),
        "modules not reached from main.js: " + checked);
  }

  @Test
  void unknownOrEscapingConsolePaths_areTheEnvelopesNotFound() {
    for (String path :
        new String[] {
          "/console/nothing.js",
          "/console/%2e%2e/quarry-version.properties",
          "/console/..%2fquarry-version.properties",
          "/console/js/../../simplelogger.properties",
          "/console/a/b/c.js"
        }) {
      Answer a = api.get(path).send();
      assertNotEquals(200, a.status(), path);
      assertTrue(a.status() == 404 || a.status() == 400, path + " -> " + a);
    }
  }

  @Test
  void protocol_namesTheServerAndItsVersion() throws InterruptedException {
    Answer a = api.get("/v1/protocol").token(demoToken(demo)).send();
    assertEquals("quarry", a.json().at("/server/name").asText());
    String version = a.json().at("/server/version").asText();
    assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
  }
}
