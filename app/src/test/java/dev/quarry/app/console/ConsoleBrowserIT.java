package dev.quarry.app.console;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestSeed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The web console in a real headless Chromium against a real {@code quarry serve}: signing in,
 * creating a corpus, uploading documents, searching, pinning, opening a hit at its page, deleting a
 * source and reading its history, the refusals, and indexed markup that must never run.
 *
 * <p>Skipped (visibly) without {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}.
 */
class ConsoleBrowserIT {
  static final String ADMIN = "console-admin-token";
  static final String READER = "console-reader-token";
  static final String TOKENS =
      """
      {"tokens": [
        {"subject": "console-admin", "token": "console-admin-token",
         "grants": [{"corpus": "*", "scopes": ["search", "index", "manage"]}]},
        {"subject": "docs-reader", "token": "console-reader-token",
         "grants": [{"corpus": "docs", "scopes": ["search"]}]}
      ]}""";

  /** Three pages of fifteen words each: with sixteen-word chunks, every chunk stays on its page. */
  static final List<String> PUMP_PAGES =
      List.of(
          "Priming the pump comes first, before any valve opens or any pressure builds in the line.",
          "The turbine spins at night when demand is low and the reservoir refills from the river.",
          "Shutdown drains every pipe, closes each valve in order and records the final pressure reading.");

  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTokens(TOKENS).heapMiB(512);

  /** Files the tests upload. */
  @TempDir static Path dir;

  static ApiClient api;
  Browser browser;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"docs\"}"));
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"private\"}"));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"docs\", \"source\": \"readme.md\", \"text\": \"Quarry answers searches.\"}"));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"private\", \"source\": \"salaries.md\", \"text\": \"Confidential pay.\"}"));
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.closeFailingOnPageErrors();
    }
  }

  /** Signs in, in the browser a test opened or else in one of desktop size. */
  private void signIn(String token) {
    browser = browser != null ? browser : Browser.open(1280, 900);
    browser.signIn(server.url(), token);
  }

  private void go(String hash) {
    browser.go(hash);
  }

  @Test
  void root_redirectsToTheConsole_andSignInKeepsTheTokenInSessionStorageOnly() {
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    assertTrue(
        browser.driver().getCurrentUrl().startsWith(server.url() + "/console/"),
        browser.driver().getCurrentUrl());
    assertFalse(browser.driver().getCurrentUrl().contains(ADMIN));
    assertEquals(ADMIN, browser.script("return sessionStorage.getItem('quarry.token')"));
    assertEquals(0L, browser.script("return localStorage.length"));
    assertEquals("", browser.script("return document.cookie"));
  }

  @Test
  void statusPage_showsSubjectGrantsVersionFeaturesAndHealth() {
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/status");
    browser.showing("#health", "ok");
    String server = browser.shown("#server").getText();
    assertTrue(server.contains("Protocol version\n1.0"), server);
    assertFalse(server.contains("unknown"), server);
    assertTrue(
        browser.shown("#features").getText().contains("pdf-ingestion on"),
        browser.shown("#features").getText());
    String grants = browser.shown("#grants").getText();
    assertTrue(grants.contains("search, index, manage"), grants);
  }

  @Test
  void wrongToken_isRefusedInWords_andNothingIsShown() {
    signIn("not-a-token");
    WebElement alert = browser.shown("[role=alert]");
    assertTrue(alert.getText().contains("The token is not valid"), alert.getText());
    assertTrue(alert.getText().contains("UNAUTHENTICATED"), alert.getText());
    assertTrue(
        browser.all("#nav:not([hidden])").isEmpty(), "navigation shown without a valid token");
    assertNull(browser.script("return sessionStorage.getItem('quarry.token')"));
  }

  @Test
  @ExtendWith(TestSeed.class)
  void ingest_pdfDocxAndMarkdown_showReceipts_andAnUnsupportedFileFailsAlone(Random random)
      throws Exception {
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/corpora");
    createCorpus("manuals");
    go("#/ingest?corpus=manuals");
    Path files = Files.createDirectories(dir.resolve("upload-1"));
    byte[] noise = new byte[4096];
    random.nextBytes(noise);
    List<Path> uploads =
        List.of(
            TinyDocuments.pdf(files, "pump.pdf", PUMP_PAGES),
            TinyDocuments.docx(
                files,
                "valves.docx",
                List.of("Valve maintenance schedule", "Grease the valves monthly.")),
            TinyDocuments.text(
                files, "notes.md", "# Field notes\n\nThe compressor hums quietly.\n"),
            TinyDocuments.bytes(files, "noise.bin", noise));
    browser
        .shown("#files")
        .sendKeys(uploads.stream().map(Path::toString).collect(Collectors.joining("\n")));
    browser.showing("#summary", "4 files: 3 indexed, 0 unchanged, 1 failed");
    assertEquals("indexed", row("pump.pdf").getAttribute("data-status"));
    assertTrue(row("pump.pdf").getText().contains("application/pdf"), row("pump.pdf").getText());
    assertTrue(row("pump.pdf").getText().contains("3 pages"), row("pump.pdf").getText());
    assertEquals("indexed", row("valves.docx").getAttribute("data-status"));
    assertEquals("indexed", row("notes.md").getAttribute("data-status"));
    WebElement failed = row("noise.bin");
    assertEquals("UNSUPPORTED_MEDIA_TYPE", failed.getAttribute("data-code"), TestSeed.replay());
    assertTrue(failed.getText().contains("This kind of file cannot be read."), failed.getText());
    assertEquals(
        3,
        ok(api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"manuals\"}"))
            .path("sources")
            .asInt());
  }

  @Test
  void search_opensAHitAtItsPage_andPinsTheRevision() throws Exception {
    ingestSample("pinning");
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/search?corpus=pinning");
    browser.shown("#query").sendKeys("turbine\n");
    WebElement hit = browser.shown(".hit[data-source='pump.pdf']");
    assertTrue(hit.getText().contains("p. 2\n"), hit.getText());
    assertEquals("turbine", hit.findElement(By.cssSelector("mark")).getText().toLowerCase());
    String answered = browser.shown("#answered").getText();
    long revision =
        ok(api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"pinning\"}"))
            .path("revision")
            .asLong();
    assertTrue(answered.contains("Answered at revision " + revision), answered);
    assertTrue(browser.searchCurl().contains("\"query\":\"turbine\""));

    // A later change must not move a pinned search.
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"pinning\", \"source\": \"later.md\", \"text\": \"A second turbine arrived later.\"}"));
    browser.shown("#pin").click();
    String pinned = browser.showing("#answered", "Pinned at revision " + revision).getText();
    assertTrue(pinned.contains("exactly the results the corpus held"), pinned);
    assertTrue(
        browser.all(".hit[data-source='later.md']").isEmpty(),
        "a pinned search saw a later source");
    assertTrue(browser.searchCurl().contains("\"revision\":" + revision));

    browser.shown(".hit[data-source='pump.pdf'] a.open-hit").click();
    WebElement opened = browser.shown("#passages .hit.opened");
    assertTrue(opened.getText().contains("p. 2"), opened.getText());
    assertTrue(opened.getText().contains("The turbine spins at night"), opened.getText());
    assertFalse(opened.getText().contains("Priming"), opened.getText());
    String state = browser.shown("#source-state").getText();
    assertTrue(state.contains("application/pdf"), state);
    assertTrue(state.contains("Extraction report"), state);

    // The whole text, chunk by chunk at the pinned revision, the hit's chunk marked.
    browser.showing("#text-revision", "at revision " + revision + " (pinned)");
    String text = browser.shown("#chunks").getText();
    assertTrue(text.contains("Priming") && text.contains("The turbine spins at night"), text);
    WebElement openedChunk = browser.shown("#chunks .chunk.opened");
    assertEquals(opened.getAttribute("data-chunk"), openedChunk.getAttribute("data-chunk"));
    assertTrue(openedChunk.getText().contains("p. 2"), openedChunk.getText());
  }

  @Test
  void aDeletedSource_showsItsTextAtARevisionOfItsHistory() throws Exception {
    ingestSample("then");
    ok(api.retrieval("sources/delete", ADMIN, "{\"corpus\": \"then\", \"source\": \"notes.md\"}"));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/source?corpus=then&source=notes.md");
    browser.shown("#source-absent");
    browser.shown("#timeline li[data-operation=ingest] a.text-at").click();
    browser.showing("#text-revision", "(pinned)");
    assertTrue(
        browser.shown("#chunks").getText().contains("The compressor hums quietly."),
        browser.shown("#chunks").getText());
  }

  @Test
  void aHybridSearch_showsEachHitsLexicalAndSemanticParts() {
    ok(
        api.retrieval(
            "corpora/create",
            ADMIN,
            """
        {"corpus": "hybrid", "settings": {"embedding": {"model": "all-minilm-l6-v2"}}}"""));
    ok(
        api.retrieval(
            "sources/batch",
            ADMIN,
            """
        {"corpus": "hybrid", "operations": [
          {"index": {"source": "cats.md", "text": "The kitten curled up and slept on the warm rug."}},
          {"index": {"source": "rates.md", "text": "Shares fell after the central bank raised interest rates."}}]}"""));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/search?corpus=hybrid&q=interest+rates");
    WebElement hit = browser.shown(".hit[data-source='rates.md']");
    String lexical = hit.findElement(By.cssSelector(".lexical")).getText();
    String semantic = hit.findElement(By.cssSelector(".semantic")).getText();
    assertTrue(lexical.matches("lexical -?\\d+\\.\\d{4} \\(#1\\)"), lexical);
    assertTrue(semantic.matches("semantic -?\\d+\\.\\d{4} \\(#1\\)"), semantic);

    // An embedding corpus offers the modes; fusion only for hybrid, the default.
    assertTrue(
        browser.shown("#mode-controls").getText().contains("all-minilm-l6-v2"),
        browser.shown("#mode-controls").getText());
    assertTrue(browser.shown("#fusion-controls").isDisplayed());
    new Select(browser.shown("#mode")).selectByValue("semantic");
    assertFalse(
        browser.all("#fusion-controls").get(0).isDisplayed(),
        "fusion offered for a semantic search");
    browser.shown("#search-form button[type=submit]").click();
    browser.until(d -> browser.searchCurl().contains("\"mode\":\"semantic\"") ? true : null);
    browser.shown(".hit[data-source='rates.md']");
    assertFalse(browser.searchCurl().contains("\"fusion\""), browser.searchCurl());

    new Select(browser.shown("#mode")).selectByValue("");
    new Select(browser.shown("#fusion")).selectByValue("rrf");
    assertFalse(browser.shown("#semantic-weight").isEnabled(), "a weight offered for rrf");
    browser.shown("#search-form button[type=submit]").click();
    browser.until(
        d -> browser.searchCurl().contains("\"fusion\":{\"method\":\"rrf\"}") ? true : null);
    assertFalse(browser.searchCurl().contains("\"mode\""), browser.searchCurl());
    browser.shown(".hit[data-source='rates.md'] .semantic");

    new Select(browser.shown("#fusion")).selectByValue("");
    browser.shown("#semantic-weight").sendKeys("0.7");
    browser.shown("#search-form button[type=submit]").click();
    browser.until(
        d ->
            browser
                    .searchCurl()
                    .contains("\"fusion\":{\"method\":\"convex\",\"semanticWeight\":0.7}")
                ? true
                : null);
    browser.shown(".hit[data-source='rates.md']");
  }

  @Test
  void aHybridCorpussJob_showsItsPassagesEmbeddedAndTheirRate() throws Exception {
    ok(
        api.retrieval(
            "corpora/create",
            ADMIN,
            "{\"corpus\": \"hybrid-batch\", \"settings\": {\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}}"));
    String job =
        ok(dev.quarry.testing.Upload.post(
                api,
                ADMIN,
                "/v1/retrieval/jobs/submit",
                dev.quarry.testing.Upload.namedBody(
                    "{\"corpus\": \"hybrid-batch\", \"files\": [{\"source\": \"pump.md\"}]}",
                    List.of("pump.md"),
                    List.of(
                        "# Pump\n\nThe pump hums when the tank is full.\n"
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8)))))
            .at("/job/id")
            .asText();
    signIn(ADMIN);
    browser.shown("#nav a[data-view=jobs]").click();
    browser.shown("#job-id").sendKeys(job + "\n");
    browser.until(
        d -> {
          if ("completed"
              .equals(
                  browser.script(
                      "const s = document.getElementById('job-state'); return s && s.textContent"))) {
            return true;
          }
          browser.script("const b = document.getElementById('refresh-job'); if (b) b.click()");
          return null;
        });
    String passages = browser.shown("#job-passages").getText();
    // Ended: the total is exact (no "about"), the rate is this server's, and no time is left.
    assertTrue(passages.matches("1 of 1 passages embedded · [0-9]+\\.[0-9] per second"), passages);
    browser.shown("#all-jobs").click();
    String row = browser.shown("#jobs tr[data-job='" + job + "'] .counts").getText();
    assertTrue(row.contains("1 of 1 passages embedded"), row);
  }

  @Test
  void anIngestionJob_listsItsFilesWithTheirOutcomes_andAnUnknownJobIsRefused() throws Exception {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"batch\"}"));
    String job =
        ok(dev.quarry.testing.Upload.post(
                api,
                ADMIN,
                "/v1/retrieval/jobs/submit",
                dev.quarry.testing.Upload.namedBody(
                    "{\"corpus\": \"batch\", \"files\": [{\"source\": \"notes.md\"}, {\"source\": \"noise.bin\"}]}",
                    List.of("notes.md", "noise.bin"),
                    List.of(
                        "# Notes\n\nThe pump hums.\n"
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        new byte[] {0, 1, 2, 3, (byte) 0xff, (byte) 0xfe, 7, 8}))))
            .at("/job/id")
            .asText();
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    browser.shown("#nav a[data-view=jobs]").click();
    browser.shown("#job-id").sendKeys(job + "\n");
    // The job runs in the background: refresh until it has ended, as a person would.
    browser.until(
        d -> {
          if ("completed"
              .equals(
                  browser.script(
                      "const s = document.getElementById('job-state'); return s && s.textContent"))) {
            return true;
          }
          browser.script("const b = document.getElementById('refresh-job'); if (b) b.click()");
          return null;
        });
    assertTrue(
        browser.shown("#job-counts").getText().contains("indexed 1"),
        browser.shown("#job-counts").getText());
    assertTrue(
        browser.driver().findElements(By.id("job-passages")).isEmpty(),
        "a lexical corpus's job embeds nothing");
    WebElement indexed = browser.shown("#job-files tr[data-source='notes.md']");
    assertEquals("indexed", indexed.getAttribute("data-status"));
    assertTrue(indexed.getText().contains("revision "), indexed.getText());
    WebElement failed = browser.shown("#job-files tr[data-source='noise.bin']");
    assertEquals("failed", failed.getAttribute("data-status"));
    assertTrue(failed.getText().contains(failed.getAttribute("data-code")), failed.getText());
    indexed.findElement(By.cssSelector("a")).click();
    browser.showing("#source-title", "notes.md");

    go("#/jobs?job=job_" + "a".repeat(24));
    WebElement alert = browser.shown("[role=alert]");
    assertTrue(
        alert.getText().contains("There is no such job")
            && alert.getText().contains("JOB_NOT_FOUND"),
        alert.getText());
    go("#/jobs?job=Not-A-Job");
    alert = browser.showing("[role=alert]", "INVALID_REQUEST");
    assertTrue(
        alert.getText().startsWith("job must be a job id as a job's answer gave it"),
        alert.getText());
    assertEquals("job", alert.getAttribute("data-field"));
  }

  @Test
  void jobsList_showsTheServersOrder_filtersByCorpusAndState_pagesOn_andOpensAJob() {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"jobs-a\"}"));
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"jobs-b\"}"));
    // One more job of jobs-b than a page of the list holds (25), each closed at once.
    for (int i = 0; i < 26; i++) {
      String id =
          ok(api.retrieval("jobs/create", ADMIN, "{\"corpus\": \"jobs-b\"}"))
              .at("/job/id")
              .asText();
      ok(api.retrieval("jobs/close", ADMIN, "{\"job\": \"" + id + "\"}"));
    }
    String open =
        ok(api.retrieval("jobs/create", ADMIN, "{\"corpus\": \"jobs-a\"}")).at("/job/id").asText();
    try {
      signIn(ADMIN);
      browser.showing("#who-subject", "console-admin");
      browser.shown("#nav a[data-view=jobs]").click();
      browser.shown("#jobs tr[data-job='" + open + "']");

      new Select(browser.shown("#corpus")).selectByValue("jobs-b");
      browser.until(
          d ->
              jobRows().size() == 25 && jobRows().stream().allMatch(r -> r.get(2).equals("jobs-b"))
                  ? true
                  : null);
      List<String> expected = new java.util.ArrayList<>();
      ok(api.retrieval("jobs/list", ADMIN, "{\"corpus\": \"jobs-b\", \"limit\": 100}"))
          .path("jobs")
          .forEach(j -> expected.add(j.path("id").asText()));
      assertEquals(26, expected.size());
      assertEquals(expected.subList(0, 25), jobRows().stream().map(r -> r.get(0)).toList());
      String firstRow = browser.shown("#jobs tbody tr").getText();
      assertTrue(firstRow.contains("0 files"), firstRow);
      assertTrue(
          browser.driver().getCurrentUrl().endsWith("#/jobs?corpus=jobs-b"),
          browser.driver().getCurrentUrl());
      browser.shown("#next-page").click();
      browser.until(d -> jobRows().size() == 1 ? true : null);
      assertEquals(expected.get(25), jobRows().get(0).get(0));
      browser.showing(".pager a", "First page").click();
      browser.until(d -> jobRows().size() == 25 ? true : null);

      new Select(browser.shown("#job-state-filter")).selectByValue("open");
      browser.shown("#no-jobs");
      assertTrue(
          browser.driver().getCurrentUrl().endsWith("#/jobs?corpus=jobs-b&state=open"),
          browser.driver().getCurrentUrl());
      new Select(browser.shown("#corpus")).selectByValue("");
      browser.until(d -> jobRows().stream().anyMatch(r -> r.get(0).equals(open)) ? true : null);
      assertTrue(jobRows().stream().allMatch(r -> r.get(1).equals("open")), jobRows().toString());

      browser.shown("#jobs tr[data-job='" + open + "'] a.open-job").click();
      browser.showing("#job-state", "open");
      assertTrue(browser.shown("#job h2").getText().equals(open));
      browser.shown("#all-jobs").click();
      browser.shown("#jobs tr[data-job='" + open + "']");
    } finally {
      ok(api.retrieval("jobs/cancel", ADMIN, "{\"job\": \"" + open + "\"}"));
    }
  }

  @Test
  void aCorpusDeletedAndCreatedAgain_isReadAgain_andItsNewSettingsShow() {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"reborn\"}"));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"reborn\", \"source\": \"a.md\", \"text\": \"Gravel and sand.\"}"));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/search?corpus=reborn&q=gravel");
    browser.shown(".hit[data-source='a.md']");
    assertTrue(browser.all("#mode").isEmpty(), "a mode selector on a lexical corpus");

    // Searching again asks the server nothing but the search: the corpus's settings are kept.
    browser.recordApiCalls();
    browser.shown("#query").sendKeys(" sand\n");
    browser.until(d -> browser.searchCurl().contains("gravel sand") ? true : null);
    browser.shown(".hit[data-source='a.md']");
    assertEquals(
        List.of("/v1/retrieval/search"),
        browser.apiCalls().stream().map(Browser.ApiCall::endpoint).toList());

    // Deleted: the search says so, and what was kept of it is forgotten.
    ok(api.retrieval("corpora/delete", ADMIN, "{\"corpus\": \"reborn\"}"));
    browser.shown("#search-form button[type=submit]").click();
    browser.showing("#results [role=alert]", "CORPUS_NOT_FOUND");
    ok(
        api.retrieval(
            "corpora/create",
            ADMIN,
            """
        {"corpus": "reborn", "settings": {"embedding": {"model": "all-minilm-l6-v2"}}}"""));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"reborn\", \"source\": \"b.md\", \"text\": \"Gravel pits.\"}"));
    browser.shown("#search-form button[type=submit]").click();
    browser.shown(".hit[data-source='b.md']");
    browser.shown("#mode");

    // Replaced between two searches: the answer's corpus id differs from the one kept, so the
    // settings are read again (a lexical corpus now: no mode to choose).
    ok(api.retrieval("corpora/delete", ADMIN, "{\"corpus\": \"reborn\"}"));
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"reborn\"}"));
    ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"reborn\", \"source\": \"c.md\", \"text\": \"Gravel roads.\"}"));
    browser.recordApiCalls();
    browser.shown("#search-form button[type=submit]").click();
    browser.shown(".hit[data-source='c.md']");
    browser.until(d -> browser.all("#mode").isEmpty() ? true : null);
    assertTrue(
        browser.apiCalls().stream()
            .anyMatch(c -> c.endpoint().equals("/v1/retrieval/corpora/read")),
        browser.apiCalls().toString());
  }

  @Test
  void sourcesList_pagesOnAndBackToTheFirstPage() {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"paged\"}"));
    // One more source than a page holds (25), so the list has a second page.
    String operations =
        java.util.stream.IntStream.range(0, 26)
            .mapToObj(
                i ->
                    "{\"index\": {\"source\": \"s%02d.md\", \"text\": \"Note %d.\"}}"
                        .formatted(i, i))
            .collect(Collectors.joining(", "));
    ok(
        api.retrieval(
            "sources/batch",
            ADMIN,
            "{\"corpus\": \"paged\", \"operations\": [" + operations + "]}"));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/sources?corpus=paged");
    browser.shown("#sources tr[data-source='s24.md']");
    assertTrue(
        browser.all("#sources tr[data-source='s25.md']").isEmpty(), "more than a page shown");
    assertTrue(browser.all(".pager a:not(#next-page)").isEmpty(), "a way back from the first page");
    browser.shown("#next-page").click();
    browser.shown("#sources tr[data-source='s25.md']");
    assertEquals(1, browser.all("#sources tbody tr").size());
    assertTrue(browser.all("#next-page").isEmpty(), "a next page after the last");
    browser.showing(".pager a", "First page").click();
    browser.shown("#sources tr[data-source='s00.md']");
    assertTrue(
        browser.driver().getCurrentUrl().endsWith("#/sources?corpus=paged"),
        browser.driver().getCurrentUrl());
  }

  @Test
  void deletingASource_needsConfirmation_andItsHistoryRemains() throws Exception {
    ingestSample("history");
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/sources?corpus=history");
    browser.shown("#sources tr[data-source='notes.md'] a").click();
    browser.shown("#delete-source").click();
    browser.shown("#confirm-delete").click();
    browser.shown("#source-absent");
    List<WebElement> entries =
        browser.until(
            d -> {
              List<WebElement> items = d.findElements(By.cssSelector("#timeline li"));
              return items.size() >= 2 ? items : null;
            });
    assertEquals("ingest", entries.get(0).getAttribute("data-operation"));
    assertEquals("delete", entries.get(entries.size() - 1).getAttribute("data-operation"));
    assertTrue(
        entries.get(entries.size() - 1).getText().contains("deleted by console-admin"),
        entries.get(1).getText());
    assertEquals(
        404,
        api.retrieval("sources/read", ADMIN, "{\"corpus\": \"history\", \"source\": \"notes.md\"}")
            .status());
  }

  @Test
  void purgingASource_takesItsTypedName_andEvenASearchPinnedBeforeFindsNothing() throws Exception {
    ingestSample("purging");
    long before =
        ok(api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"purging\"}"))
            .path("revision")
            .asLong();
    String pinned =
        "{\"corpus\": \"purging\", \"query\": \"compressor hums\", \"revision\": " + before + "}";
    assertEquals(1, ok(api.retrieval("search", ADMIN, pinned)).path("results").size());
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/sources?corpus=purging");
    browser.shown("#sources tr[data-source='notes.md'] a").click();
    browser.shown("#purge-source").click();
    WebElement confirm = browser.shown("form.confirm button.danger");
    browser.shown("#confirm-text").sendKeys("notes.m");
    assertFalse(confirm.isEnabled(), "a name typed short of the source's purges nothing");
    browser.shown("#confirm-text").sendKeys("d");
    confirm.click();
    browser.showing("#flash", "notes.md purged at revision " + (before + 1) + ".");
    List<WebElement> entries =
        browser.until(
            d -> {
              List<WebElement> items = d.findElements(By.cssSelector("#timeline li"));
              return items.size() >= 2 ? items : null;
            });
    assertEquals("purge", entries.get(entries.size() - 1).getAttribute("data-operation"));
    assertEquals(
        0,
        ok(api.retrieval("search", ADMIN, pinned)).path("results").size(),
        "a purge erases the source from every revision, the pinned one included");
  }

  @Test
  void deletingACorpus_takesItsTypedName() throws Exception {
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"doomed\"}"));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/corpora");
    browser.shown("#corpora tr[data-corpus='doomed'] [data-action=delete]").click();
    WebElement confirm = browser.shown("#corpus-panel button.danger");
    assertFalse(confirm.isEnabled());
    browser.shown("#confirm-text").sendKeys("doome");
    assertFalse(confirm.isEnabled());
    browser.shown("#confirm-text").sendKeys("d");
    confirm.click();
    browser.showing("#flash", "Corpus doomed deleted.");
    assertEquals(404, api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"doomed\"}").status());
  }

  @Test
  void aCorpusOutsideTheGrants_isRefused_andNothingBeyondTheGrantsIsOffered() {
    signIn(READER);
    browser.showing("#who-subject", "docs-reader");
    WebElement table = browser.shown("#corpora");
    assertTrue(table.getText().contains("docs"), table.getText());
    assertFalse(table.getText().contains("private"), table.getText());
    assertTrue(browser.all("#create-corpus").isEmpty(), "a create form without manage");
    assertTrue(browser.all("[data-action=delete]").isEmpty(), "a delete button without manage");
    assertTrue(
        browser.all("#corpora a[href^='#/ingest']").isEmpty(), "an ingest link without index");
    assertFalse(
        browser.shown("#nav a[data-view=search]").getAttribute("hidden") != null,
        "search hidden from a searcher");
    assertTrue(
        browser.all("#nav a[data-view=ingest]").stream().noneMatch(WebElement::isDisplayed),
        "ingest offered without index");
    assertTrue(
        browser.all("#nav a[data-view=history]").stream().noneMatch(WebElement::isDisplayed),
        "history offered without index");
    go("#/source?corpus=private&source=salaries.md");
    WebElement alert = browser.shown("[role=alert]");
    assertTrue(alert.getText().contains("Your token's grants do not allow this."), alert.getText());
    assertTrue(alert.getText().contains("FORBIDDEN"), alert.getText());
    assertFalse(browser.driver().getPageSource().contains("Confidential"));
  }

  @Test
  void indexedMarkup_isShownAsText_andNeverRuns() {
    String attack = "<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>";
    ObjectNode body =
        ApiClient.JSON
            .createObjectNode()
            .put("corpus", "docs")
            .put("source", "evil/" + attack)
            .put("title", "Title " + attack)
            .put("text", "payload " + attack + " payload");
    body.putObject("metadata").put("note", attack);
    ok(api.retrieval("sources/index", ADMIN, body.toString()));
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    go("#/search?corpus=docs&q=payload");
    WebElement hit = browser.shown(".hit[data-source^='evil/']");
    assertTrue(hit.getText().contains("<img src=x onerror="), hit.getText());
    hit.findElement(By.cssSelector("a.open-hit")).click();
    browser.shown("#passages .hit.opened");
    browser.shown("#source-title");
    assertTrue(
        browser.shown("#chunks .chunk").getText().contains("<img src=x onerror="),
        "the source's text is shown as text");
    go("#/sources?corpus=docs&prefix=evil/");
    browser.shown("#sources tr[data-source^='evil/']");
    go("#/history?corpus=docs");
    browser.shown("#timeline li");
    assertNull(browser.script("return window.__pwned === undefined ? null : window.__pwned"));
    assertEquals(
        0L, browser.script("return document.querySelectorAll('img[src=x], main script').length"));
  }

  @Test
  void phoneWidth_hasNoSidewaysScrolling() throws Exception {
    browser = Browser.open(390, 844);
    signIn(ADMIN);
    browser.showing("#who-subject", "console-admin");
    for (String hash :
        List.of(
            "#/corpora",
            "#/search?corpus=docs&q=quarry",
            "#/sources?corpus=docs",
            "#/ingest?corpus=docs",
            "#/jobs",
            "#/status")) {
      go(hash);
      browser.until(d -> browser.all("main h1").isEmpty() ? null : true);
      browser.until(
          d ->
              browser.all("main p.muted").stream().noneMatch(e -> e.getText().equals("Loading…"))
                  ? true
                  : null);
      Object overflow =
          browser.script("return document.documentElement.scrollWidth - window.innerWidth");
      assertTrue(
          ((Number) overflow).longValue() <= 0, hash + " scrolls sideways by " + overflow + " px");
    }
  }

  /** The rows of the jobs list shown: each its job id, state and corpus. */
  @SuppressWarnings("unchecked")
  private List<List<String>> jobRows() {
    return (List<List<String>>)
        browser.script(
            "return [...document.querySelectorAll('#jobs tbody tr')].map(r => [r.dataset.job, r.dataset.state, r.dataset.corpus])");
  }

  private WebElement row(String source) {
    return browser.shown("#uploads li[data-source='" + source + "']");
  }

  /** Creates a corpus through the console's form, with chunks small enough to stay on one page. */
  private void createCorpus(String name) {
    browser.shown("#new-corpus").sendKeys(name);
    browser.shown("#create-corpus summary").click();
    browser.shown("#new-max-words").sendKeys("16");
    browser.shown("#new-overlap").sendKeys("0");
    browser.shown("#create-corpus button[type=submit]").click();
    browser.showing("#flash", "Corpus " + name + " created at revision 0.");
    browser.shown("#corpora tr[data-corpus='" + name + "']");
  }

  /** The corpus with a two-page PDF and a Markdown note, ingested over HTTP. */
  private static void ingestSample(String corpus) throws Exception {
    ok(
        api.retrieval(
            "corpora/create",
            ADMIN,
            "{\"corpus\": \""
                + corpus
                + "\", \"settings\": {\"chunking\": {\"maxWords\": 16, \"overlapWords\": 0}}}"));
    Path files = Files.createDirectories(dir.resolve("sample-" + corpus));
    Path pdf = TinyDocuments.pdf(files, "pump.pdf", PUMP_PAGES);
    ok(
        dev.quarry.testing.Upload.send(
            api,
            ADMIN,
            "{\"corpus\": \"" + corpus + "\", \"source\": \"pump.pdf\"}",
            "pump.pdf",
            Files.readAllBytes(pdf)));
    ok(
        dev.quarry.testing.Upload.send(
            api,
            ADMIN,
            "{\"corpus\": \"" + corpus + "\", \"source\": \"notes.md\"}",
            "notes.md",
            "# Field notes\n\nThe compressor hums quietly.\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }
}
