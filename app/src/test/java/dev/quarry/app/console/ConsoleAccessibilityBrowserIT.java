package dev.quarry.app.console;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.Upload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.Keys;
import org.openqa.selenium.interactions.Actions;

/**
 * The console's accessibility in a real headless Chromium against a real {@code quarry serve}:
 * every view, in the state that shows the most of it, has named controls, readable contrast and a
 * sound outline ({@link PageAudit}); and a keyboard alone signs in, searches and opens a hit, with
 * a visible focus indicator on every control it passes.
 *
 * <p>Skipped (visibly) without {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}.
 */
class ConsoleAccessibilityBrowserIT {
  static final String ADMIN = ConsoleBrowserIT.ADMIN;
  static final String CORPUS = "manuals";

  /** Bounds a walk through the page with Tab that never reaches its target. */
  private static final int MAX_TABS = 60;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTokens(ConsoleBrowserIT.TOKENS).heapMiB(512);

  @TempDir static Path dir;
  static ApiClient api;
  static String job;
  Browser browser;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"" + CORPUS + "\"}"));
    index("pump.md", "Pump manual", "The turbine spins at night when demand is low.", "ops");
    index(
        "valves.md",
        "Valve guide",
        "Grease the valves monthly, and the turbine yearly.",
        "maintenance");
    job =
        ok(Upload.post(
                api,
                ADMIN,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \""
                        + CORPUS
                        + "\", \"files\": [{\"source\": \"notes.md\"}, {\"source\": \"noise.bin\"}]}",
                    List.of("notes.md", "noise.bin"),
                    List.of(
                        "# Notes\n\nThe pump hums.\n".getBytes(StandardCharsets.UTF_8),
                        new byte[] {0, 1, 2, 3, (byte) 0xff, (byte) 0xfe, 7, 8}))))
            .at("/job/id")
            .asText();
  }

  private static void index(String source, String title, String text, String dept) {
    ObjectNode body =
        ApiClient.JSON
            .createObjectNode()
            .put("corpus", CORPUS)
            .put("source", source)
            .put("title", title)
            .put("text", text);
    body.putObject("metadata").put("dept", dept);
    ok(api.retrieval("sources/index", ADMIN, body.toString()));
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.closeFailingOnPageErrors();
    }
  }

  @ParameterizedTest(name = "{0} px wide")
  @ValueSource(ints = {1280, 390})
  void everyView_namesItsControls_hasReadableText_andASoundOutline(int width) {
    browser = Browser.open(width, 900);
    Map<String, PageAudit.Findings> findings = new LinkedHashMap<>();
    browser.get(server.url() + "/");
    browser.shown("#token");
    findings.put("sign-in", PageAudit.of(browser));
    browser.signIn(server.url(), ADMIN);
    browser.showing("#who-subject", "console-admin");

    findings.put("status", visit("#/status", "#health"));
    findings.put("corpora, the create form open", visit("#/corpora", "#create-corpus"));
    findings.put("search with results", visit("#/search?corpus=" + CORPUS + "&q=turbine", ".hit"));
    findings.put(
        "search with results, facets, a filter and the options open",
        visit(
            "#/search?corpus="
                + CORPUS
                + "&q=turbine&facets=dept&picks="
                + java.net.URLEncoder.encode(
                    "{\"dept\": [\"ops\", \"maintenance\"]}", StandardCharsets.UTF_8),
            "#facets"));
    findings.put(
        "search refused",
        visit("#/search?corpus=" + CORPUS + "&q=turbine&filter=%7B", "#results [role=alert]"));
    findings.put("sources", visit("#/sources?corpus=" + CORPUS, "#sources"));
    findings.put(
        "a source at a hit, with its history",
        visit("#/source?corpus=" + CORPUS + "&source=pump.md&q=turbine&chunk=0", "#timeline li"));
    findings.put("history", visit("#/history?corpus=" + CORPUS, "#timeline li"));
    findings.put("ingest", visit("#/ingest?corpus=" + CORPUS, "#drop"));
    browser
        .shown("#files")
        .sendKeys(
            String.join(
                "\n",
                TinyDocuments.text(dir, "guide-" + width + ".md", "# Guide\n\nThe turbine hums.\n")
                    .toString(),
                TinyDocuments.bytes(
                        dir,
                        "noise-" + width + ".bin",
                        new byte[] {0, 1, 2, 3, (byte) 0xff, (byte) 0xfe, 7, 8})
                    .toString()));
    browser.showing("#summary", "2 files: 1 indexed, 0 unchanged, 1 failed");
    findings.put("ingest, after an upload", PageAudit.of(browser));
    findings.put("jobs list", visit("#/jobs", "#jobs tbody tr"));
    findings.put("a job", visit("#/jobs?job=" + job, "#job-files tr"));

    StringBuilder report = new StringBuilder();
    findings.forEach(
        (view, f) -> {
          assertTrue(
              f.textsChecked() > 0 && f.controlsChecked() > 0,
              () -> view + ": the audit saw no text or no control");
          if (!f.clean()) {
            report.append("\n").append(view).append(":");
            f.unnamedControls()
                .forEach(s -> report.append("\n  control without a name: ").append(s));
            f.lowContrast().forEach(s -> report.append("\n  low contrast: ").append(s));
            f.structure().forEach(s -> report.append("\n  outline: ").append(s));
          }
        });
    assertTrue(report.isEmpty(), () -> "accessibility findings:" + report);
  }

  @Test
  void aKeyboardAlone_signsIn_searches_andOpensAHit_withTheFocusAlwaysShown() {
    browser = Browser.open(1280, 900);
    browser.focusWindow();
    browser.get(server.url() + "/");
    browser.shown("#token");
    List<String> unmarked = new ArrayList<>();
    tabUntil(id("token"), unmarked);
    keys(ADMIN, Keys.ENTER);
    browser.showing("#who-subject", "console-admin");

    tabUntil(matches("#nav a[data-view=search]"), unmarked);
    keys(Keys.ENTER);
    browser.shown("#query");
    tabUntil(id("query"), unmarked);
    keys("turbine", Keys.ENTER);
    browser.shown(".hit a.open-hit");
    assertEquals(
        "query", focused(), "the search moved the keyboard's place away from the query box");

    tabUntil(matches(".hit:first-child a.open-hit"), unmarked);
    String opened =
        (String) browser.script("return document.activeElement.closest('.hit').dataset.source");
    keys(Keys.ENTER);
    browser.showing("#source-title", opened);
    assertTrue(unmarked.isEmpty(), () -> "focused without a visible focus indicator: " + unmarked);
  }

  /**
   * Goes to a view, waits for {@code ready} and for loading to end, opens every disclosure and
   * audits the page.
   */
  private PageAudit.Findings visit(String hash, String ready) {
    browser.go(hash);
    browser.shown(ready);
    browser.until(
        d ->
            browser.all("main p.muted").stream().noneMatch(e -> e.getText().equals("Loading…"))
                ? true
                : null);
    browser.script("document.querySelectorAll('main details').forEach(d => { d.open = true; })");
    return PageAudit.of(browser);
  }

  private void keys(CharSequence... keys) {
    new Actions(browser.driver()).sendKeys(keys).perform();
  }

  /**
   * Presses Tab until the focused element passes {@code target} (no press when it already does),
   * adding to {@code unmarked} each control focused on the way that shows no focus indicator.
   */
  private void tabUntil(Predicate<String> target, List<String> unmarked) {
    if (target.test(focused()) && !focusShown()) {
      unmarked.add(describeFocused());
    }
    for (int presses = 0; !target.test(focused()); presses++) {
      assertTrue(
          presses < MAX_TABS, "Tab never reached the control; last focused: " + describeFocused());
      keys(Keys.TAB);
      if (!focusShown()) {
        unmarked.add(describeFocused());
      }
    }
  }

  /** The focused element's id, or "" when it has none. */
  private String focused() {
    return (String)
        browser.script("return document.activeElement ? document.activeElement.id : ''");
  }

  private Predicate<String> id(String id) {
    return id::equals;
  }

  private Predicate<String> matches(String css) {
    return ignored ->
        Boolean.TRUE.equals(
            browser.script(
                "return document.activeElement !== null && document.activeElement.matches(arguments[0])",
                css));
  }

  private String describeFocused() {
    return (String)
        browser.script(
            """
        const e = document.activeElement;
        return e ? e.localName + (e.id ? '#' + e.id : '') + ' "' + (e.innerText || e.value || '').trim().slice(0, 30) + '"' : 'nothing'""");
  }

  /** Whether the focused element draws an outline or a box shadow (as :focus-visible styles do). */
  private boolean focusShown() {
    return Boolean.TRUE.equals(
        browser.script(
            """
        const e = document.activeElement;
        if (!e || e === document.body) return true;
        const s = getComputedStyle(e);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';"""));
  }
}
