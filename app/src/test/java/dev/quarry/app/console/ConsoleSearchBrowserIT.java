package dev.quarry.app.console;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The search page's controls in a real headless Chromium against a real {@code quarry serve}:
 * facets and the filters they add, snippets, the operator syntax, and the server's refusals. The
 * mode selector of an embedding corpus is in {@link ConsoleBrowserIT}, whose server already has
 * one.
 *
 * <p>Skipped (visibly) without {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}.
 */
class ConsoleSearchBrowserIT {
  static final String ADMIN = ConsoleBrowserIT.ADMIN;

  /**
   * About a hundred words without a query word of the tests, to make a chunk longer than a snippet.
   */
  static final String FILLER =
      "Routine checks keep the plant running smoothly every day. ".repeat(11);

  static final String ATTACK =
      "<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>";

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTokens(ConsoleBrowserIT.TOKENS).heapMiB(512);

  static ApiClient api;
  Browser browser;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"policies\"}"));
    index(
        "policies",
        "hr/leave.md",
        "Parental leave is sixteen weeks of paid leave for every new parent.",
        Map.of("dept", "hr", "year", 2024));
    index(
        "policies",
        "hr/sick.md",
        "Sick leave needs a note from a doctor after three days.",
        Map.of("dept", "hr", "year", 2023));
    index(
        "policies",
        "finance/travel.md",
        "Travel expenses during leave are not refunded.",
        Map.of("dept", "finance", "year", 2024));
    index(
        "policies",
        "ops/turbines.md",
        FILLER + "The turbine spins at night. " + FILLER,
        Map.of("dept", "ops"));
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"hostile\"}"));
    index(
        "hostile",
        "evil.md",
        FILLER + "Take leave " + ATTACK + " now. " + FILLER,
        Map.of("dept", ATTACK));
    ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"notes\"}"));
    index(
        "notes",
        "rules.md",
        "## Leave rules\nParental leave is sixteen weeks.\n\n#hashtag stays as written.",
        Map.of());
  }

  private static void index(
      String corpus, String source, String text, Map<String, Object> metadata) {
    ObjectNode body =
        ApiClient.JSON
            .createObjectNode()
            .put("corpus", corpus)
            .put("source", source)
            .put("text", text);
    body.set("metadata", ApiClient.JSON.valueToTree(metadata));
    ok(api.retrieval("sources/index", ADMIN, body.toString()));
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.closeFailingOnPageErrors();
    }
  }

  private void signIn() {
    browser = Browser.open(1280, 900);
    browser.signIn(server.url(), ADMIN);
    browser.showing("#who-subject", "console-admin");
  }

  @Test
  void facetCounts_areTheServers_andAClickOnAValueNarrowsTheHitsToIt() {
    signIn();
    browser.go("#/search?corpus=policies&q=leave&facets=dept");
    browser.shown("#facets button.facet-value");
    JsonNode answer =
        ok(
            api.retrieval(
                "search",
                ADMIN,
                "{\"corpus\": \"policies\", \"query\": \"leave\", \"facets\": [\"dept\"]}"));
    Map<String, String> expected = new HashMap<>();
    answer
        .at("/facets/0/values")
        .forEach(v -> expected.put(v.path("value").asText(), v.path("count").asText()));
    assertEquals(Map.of("hr", "2", "finance", "1"), expected);
    Map<String, String> shown =
        browser.all("#facets button.facet-value").stream()
            .collect(
                Collectors.toMap(
                    b -> b.getAttribute("data-value"),
                    b -> b.findElement(By.cssSelector(".count")).getText()));
    assertEquals(expected, shown);
    assertEquals(Set.of("hr/leave.md", "hr/sick.md", "finance/travel.md"), hitSources());

    browser.shown("#facets button.facet-value[data-value='finance']").click();
    browser.until(d -> hitSources().equals(Set.of("finance/travel.md")) ? true : null);
    WebElement chip = browser.shown("#active-filters .active-filter");
    assertEquals("dept", chip.getAttribute("data-field"));
    assertEquals("finance", chip.getAttribute("data-value"));
    assertTrue(
        browser.searchCurl().contains("\"filter\":{\"dept\":\"finance\"}"), browser.searchCurl());
    assertEquals(
        "true",
        browser
            .shown("#facets button.facet-value[data-value='finance']")
            .getAttribute("aria-pressed"));

    // The picked field is counted without its own pick, so its other values stay offered.
    assertEquals(expected, facetCounts("dept"));
    assertEquals(
        "false",
        browser.shown("#facets button.facet-value[data-value='hr']").getAttribute("aria-pressed"));

    browser.shown("#active-filters .active-filter[data-value='finance'] button.remove").click();
    browser.until(
        d -> hitSources().size() == 3 && browser.all("#active-filters").isEmpty() ? true : null);
    assertFalse(browser.searchCurl().contains("\"filter\""), browser.searchCurl());
  }

  @Test
  void aSecondValueOfAPickedField_joinsItsInSet_andAFacetClickCostsOneSearch() throws Exception {
    signIn();
    browser.recordApiCalls();
    // An address with a pick, as a bookmark gives it: the search, and the picked field counted
    // without it.
    browser.go(
        "#/search?corpus=policies&q=leave&facets=dept,year&picks="
            + java.net.URLEncoder.encode(
                "{\"dept\": [\"hr\"]}", java.nio.charset.StandardCharsets.UTF_8));
    browser.until(d -> hitSources().equals(Set.of("hr/leave.md", "hr/sick.md")) ? true : null);
    long revision =
        ok(api.retrieval("corpora/read", ADMIN, "{\"corpus\": \"policies\"}"))
            .path("revision")
            .asLong();
    List<Browser.ApiCall> searches = calls("/v1/retrieval/search");
    assertEquals(2, searches.size(), browser.apiCalls().toString());
    JsonNode facetOnly = ApiClient.JSON.readTree(searches.get(1).body());
    assertEquals("[\"dept\"]", facetOnly.path("facets").toString());
    assertEquals(1, facetOnly.path("topK").asInt());
    assertFalse(facetOnly.has("filter"), facetOnly.toString());
    assertEquals(revision, facetOnly.path("revision").asLong());
    assertEquals(Map.of("hr", "2", "finance", "1"), facetCounts("dept"));
    assertEquals(Map.of("2024", "1", "2023", "1"), facetCounts("year"));

    // A second value of the field: one search, no corpus read, and the field's values are any of
    // them.
    browser.recordApiCalls();
    browser.shown("#facets button.facet-value[data-field='dept'][data-value='finance']").click();
    browser.until(d -> hitSources().size() == 3 ? true : null);
    assertEquals(List.of("/v1/retrieval/search"), endpoints());
    assertTrue(
        browser.searchCurl().contains("\"filter\":{\"dept\":{\"in\":[\"hr\",\"finance\"]}}"),
        browser.searchCurl());
    assertEquals(2, browser.all("#active-filters .active-filter").size());
    assertEquals(Map.of("hr", "2", "finance", "1"), facetCounts("dept"));
    assertEquals(Map.of("2024", "2", "2023", "1"), facetCounts("year"));

    // A value of another field: its counts were the last answer's, the first field is counted
    // again.
    browser.recordApiCalls();
    browser.shown("#facets button.facet-value[data-field='year'][data-value='2024']").click();
    browser.until(
        d -> hitSources().equals(Set.of("hr/leave.md", "finance/travel.md")) ? true : null);
    searches = calls("/v1/retrieval/search");
    assertEquals(2, searches.size(), browser.apiCalls().toString());
    assertEquals(
        "{\"year\":2024}",
        ApiClient.JSON.readTree(searches.get(1).body()).path("filter").toString());
    JsonNode counted =
        ok(
            api.retrieval(
                "search",
                ADMIN,
                "{\"corpus\": \"policies\", \"query\": \"leave\", \"filter\": {\"year\": 2024}, \"facets\": [\"dept\"]}"));
    Map<String, String> expected = new HashMap<>();
    counted
        .at("/facets/0/values")
        .forEach(v -> expected.put(v.path("value").asText(), v.path("count").asText()));
    assertEquals(Map.of("hr", "1", "finance", "1"), expected);
    assertEquals(expected, facetCounts("dept"));
    assertEquals(Map.of("2024", "2", "2023", "1"), facetCounts("year"));
    assertEquals(
        "true",
        browser
            .shown("#facets button.facet-value[data-field='year'][data-value='2024']")
            .getAttribute("aria-pressed"));
  }

  @Test
  void aPickedValue_joinsTheTypedFilter() {
    signIn();
    browser.go(
        "#/search?corpus=policies&q=leave&facets=dept&filter="
            + java.net.URLEncoder.encode(
                "{\"year\": 2024}", java.nio.charset.StandardCharsets.UTF_8));
    browser.until(
        d -> hitSources().equals(Set.of("hr/leave.md", "finance/travel.md")) ? true : null);
    assertEquals(
        "1", browser.shown("#facets button.facet-value[data-value='hr'] .count").getText());
    browser.shown("#facets button.facet-value[data-value='hr']").click();
    browser.until(d -> hitSources().equals(Set.of("hr/leave.md")) ? true : null);
    assertTrue(
        browser.searchCurl().contains("\"filter\":{\"year\":2024,\"dept\":\"hr\"}"),
        browser.searchCurl());
    browser.shown("#clear-filters").click();
    browser.until(
        d -> hitSources().size() == 2 && browser.all("#active-filters").isEmpty() ? true : null);
  }

  @Test
  void aFieldTheHitsCarry_isOfferedAsAFacet_andAddsIt() {
    signIn();
    browser.go("#/search?corpus=policies&q=leave");
    browser.shown("#facet-suggestions .add-facet[data-field='year']").click();
    WebElement year = browser.shown("#facets .facet[data-field='year']");
    assertTrue(year.getText().contains("2024"), year.getText());
    assertEquals(
        "2", year.findElement(By.cssSelector("button[data-value='2024'] .count")).getText());
    assertEquals("year", browser.shown("#facet-fields").getAttribute("value"));
  }

  @Test
  void facetSuggestions_readAsAList_notRunTogether() {
    signIn();
    browser.go("#/search?corpus=policies&q=leave");
    browser.shown("#facet-suggestions .add-facet[data-field='year']");
    assertEquals("Facet on: dept, year", browser.shown("#facet-suggestions").getText());
  }

  @Test
  void aMarkdownHeading_inAPassage_isShownAsAHeading_withItsMatchesStillMarked() {
    signIn();
    browser.go("#/search?corpus=notes&q=leave");
    WebElement passage = browser.shown(".hit[data-source='rules.md'] .passage");
    String text = passage.getAttribute("textContent");
    assertFalse(text.contains("## "), text);
    assertTrue(text.startsWith("Leave rules\nParental leave"), text);
    assertTrue(
        text.contains("#hashtag stays as written."), "only a heading's marker is hidden: " + text);
    WebElement heading = passage.findElement(By.cssSelector("strong.md-heading"));
    assertEquals("Leave rules", heading.getText());
    assertEquals("Leave", heading.findElement(By.cssSelector("mark")).getText());
    assertEquals(
        List.of("Leave", "leave"),
        passage.findElements(By.cssSelector("mark")).stream().map(WebElement::getText).toList());
  }

  @Test
  void aSourceIdWithBidiControls_isShownEscaped_inItsPageAndInHits() {
    signIn();
    String spoof = "x\u202Egnp.exe";
    String escaped = "x\\u202Egnp.exe";
    browser.go(
        "#/source?corpus=policies&source="
            + java.net.URLEncoder.encode(spoof, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(escaped, browser.shown("#source-title").getText());
    // A hit under such an id, as a server holding one stored before ids were checked would answer.
    browser.script(
        """
        if (!window.__spoofFetch) {
          window.__spoofFetch = window.fetch;
          window.fetch = async function (url, init) {
            const response = await window.__spoofFetch.apply(this, arguments);
            if (!String(url).endsWith('/v1/retrieval/search') || !response.ok) return response;
            const body = await response.json();
            for (const r of body.results) if (r.source === 'hr/leave.md') r.source = 'x\\u202Egnp.exe';
            return new Response(JSON.stringify(body), {status: response.status, headers: response.headers});
          };
        }""");
    browser.go("#/search?corpus=policies&q=parental");
    WebElement hit = browser.shown(".hit[data-source='" + spoof + "']");
    assertEquals(escaped, hit.findElement(By.cssSelector(".source-id")).getText());
    assertEquals(
        escaped,
        hit.findElement(By.cssSelector("h3")).getText(),
        "a hit without a title is named by its id");
  }

  @Test
  void aLexicalCorpus_hasNoModeSelector_andHitsShowTheirSnippetWithItsMatchesMarked() {
    signIn();
    browser.go("#/search?corpus=policies&q=turbine");
    WebElement hit = browser.shown(".hit[data-source='ops/turbines.md']");
    assertTrue(browser.all("#mode").isEmpty(), "a mode selector on a lexical corpus");
    WebElement snippet = hit.findElement(By.cssSelector(".snippet"));
    assertEquals("turbine", snippet.findElement(By.cssSelector("mark")).getText().toLowerCase());
    assertTrue(
        snippet.getText().startsWith("…") && snippet.getText().endsWith("…"), snippet.getText());
    String whole =
        hit.findElement(By.cssSelector("details.whole .passage")).getAttribute("textContent");
    assertTrue(whole.length() > snippet.getText().length() + 100, whole);
    assertTrue(
        whole.contains(snippet.getText().replace("…", "")), "the snippet is a part of the passage");
  }

  @Test
  void operatorSyntax_excludesAWord_andThePlainSyntaxDoesNot() {
    signIn();
    browser.go("#/search?corpus=policies");
    browser.shown("#query").sendKeys("leave -expenses\n");
    browser.until(d -> hitSources().contains("finance/travel.md") ? true : null);
    assertFalse(browser.searchCurl().contains("\"syntax\""), browser.searchCurl());
    assertTrue(
        browser.shown("#operators-hint").getText().contains("-word"),
        browser.shown("#operators-hint").getText());
    browser.shown("#operators").click();
    browser.shown("#search-form button[type=submit]").click();
    browser.until(d -> hitSources().equals(Set.of("hr/leave.md", "hr/sick.md")) ? true : null);
    assertTrue(browser.searchCurl().contains("\"syntax\":\"operators\""), browser.searchCurl());
    assertTrue(browser.shown("#operators").isSelected());
  }

  @Test
  void aRefusal_isShownWithItsCodeAndMessage() {
    signIn();
    browser.go("#/search?corpus=policies&q=leave&facets=a,b,c,d,e,f,g,h,i");
    WebElement alert = browser.shown("#results [role=alert]");
    assertTrue(alert.getText().contains("INVALID_REQUEST"), alert.getText());
    // Said once: the server's message names the field and what is wrong, with no generic sentence
    // ("The value of facets is not valid.") saying the same before it.
    assertTrue(
        alert.getText().startsWith("facets may have at most 8 entries; got 9 INVALID_REQUEST"),
        alert.getText());
    assertEquals(1, alert.getText().split("facets", -1).length - 1, alert.getText());
    assertEquals("facets", alert.getAttribute("data-field"));
  }

  @Test
  void hostileTextAndMetadata_inSnippetsFacetsAndFilters_areShownAsText() {
    signIn();
    browser.go("#/search?corpus=hostile&q=leave&facets=dept");
    WebElement value = browser.shown("#facets button.facet-value");
    assertEquals(ATTACK, value.findElement(By.cssSelector(".value")).getText());
    WebElement snippet = browser.shown(".hit[data-source='evil.md'] .snippet");
    assertTrue(snippet.getText().contains("leave " + ATTACK), snippet.getText());
    value.click();
    WebElement chip = browser.shown("#active-filters .active-filter");
    assertTrue(chip.getText().contains("dept: " + ATTACK), chip.getText());
    browser.shown(".hit[data-source='evil.md']");
    assertEquals(1, browser.all(".hit").size());
    assertNull(browser.script("return window.__pwned === undefined ? null : window.__pwned"));
    assertEquals(
        0L, browser.script("return document.querySelectorAll('img[src=x], main script').length"));
  }

  /** The values a field's facet shows, each with its count. */
  private Map<String, String> facetCounts(String field) {
    return browser.all("#facets button.facet-value[data-field='" + field + "']").stream()
        .collect(
            Collectors.toMap(
                b -> b.getAttribute("data-value"),
                b -> b.findElement(By.cssSelector(".count")).getText()));
  }

  /** The recorded API calls to {@code endpoint}. */
  private List<Browser.ApiCall> calls(String endpoint) {
    return browser.apiCalls().stream().filter(c -> c.endpoint().equals(endpoint)).toList();
  }

  /** The endpoints of the recorded API calls, in order. */
  private List<String> endpoints() {
    return browser.apiCalls().stream().map(Browser.ApiCall::endpoint).toList();
  }

  /** The sources of the hits now shown, once the answer is in. */
  private Set<String> hitSources() {
    browser.shown("#answered");
    return browser.all(".hit").stream()
        .map(e -> e.getAttribute("data-source"))
        .collect(Collectors.toSet());
  }
}
