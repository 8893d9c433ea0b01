package dev.quarry.app.console;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The screenshots of docs/console.md, taken from {@code quarry demo} in headless Chromium. Runs
 * only when asked, with the folder to write them to:
 *
 * <pre>
 * mvn -B -q -pl app -am verify -Dtest=ConsoleScreenshots -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dquarry.screenshots=$PWD/docs/console
 * </pre>
 */
class ConsoleScreenshots {
  private static final String FACETED_POLICIES =
      """
      {"corpus": "policies", "operations": [
        {"index": {"source": "hr/parental-leave.md", "title": "Parental leave",
          "metadata": {"department": "hr", "year": 2024},
          "text": "Parental leave is sixteen weeks of paid leave for every new parent, taken in one block or in two parts within the first year. Tell your manager at least eight weeks before the leave starts; your pay and benefits continue while you are away, and your role is kept for you."}},
        {"index": {"source": "hr/sick-leave.md", "title": "Sick leave",
          "metadata": {"department": "hr", "year": 2023},
          "text": "Sick leave is paid from the first day. After three days away, a note from a doctor is needed; long absences are planned with the people team so that your return is gradual."}},
        {"index": {"source": "finance/travel.md", "title": "Travel during leave",
          "metadata": {"department": "finance", "year": 2024},
          "text": "Travel booked for work and cancelled because of leave is refunded in full; keep the booking and the cancellation notice and file them with your expenses."}}]}""";

  @TempDir Path dir;

  @Test
  void takeScreenshots() throws Exception {
    String target = System.getProperty("quarry.screenshots");
    assumeTrue(
        target != null && !target.isBlank(),
        "screenshots are taken only with -Dquarry.screenshots=FOLDER");
    Path out = Path.of(target);
    try (ServerProcess demo = ServerProcess.demo(dir.resolve("data"))) {
      String token = ConsoleOverHttpIT.demoToken(demo);
      try (Browser browser = Browser.open(1200, 760)) {
        browser.get(demo.url() + "/");
        browser.shown("#token");
        browser.screenshot(out.resolve("sign-in.png"));
        browser.shown("#token").sendKeys(token);
        browser.shown("#sign-in button[type=submit]").click();
        browser.shown("#corpora");
        browser.screenshot(out.resolve("corpora.png"));

        Path files = Files.createDirectories(dir.resolve("files"));
        List<Path> uploads =
            List.of(
                TinyDocuments.pdf(files, "pump-manual.pdf", ConsoleBrowserIT.PUMP_PAGES),
                TinyDocuments.docx(
                    files,
                    "valves.docx",
                    List.of("Valve maintenance", "Grease the valves monthly.")),
                TinyDocuments.bytes(files, "photo.raw", new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
        // Chunks of sixteen words, so each page of the manual is a passage of its own.
        dev.quarry.testing.ApiClient.ok(
            demo.client()
                .retrieval(
                    "corpora/create",
                    token,
                    "{\"corpus\": \"manuals\", \"settings\": {\"chunking\": {\"maxWords\": 16, \"overlapWords\": 0}}}"));
        hash(browser, "#/ingest?corpus=manuals");
        browser.shown("#source-prefix").sendKeys("plant/");
        browser
            .shown("#files")
            .sendKeys(uploads.stream().map(Path::toString).collect(Collectors.joining("\n")));
        browser.showing("#summary", "3 files: 2 indexed, 0 unchanged, 1 failed");
        browser.screenshot(out.resolve("ingest.png"));

        hash(browser, "#/search?corpus=handbook&q=parental%20leave");
        browser.shown(".hit");
        browser.screenshot(out.resolve("search.png"));
        browser.shown("#pin").click();
        browser.shown("#answered.pinned");
        browser.shown("#results details summary").click();
        browser.script("window.scrollTo(0, 0)");
        browser.screenshot(out.resolve("search-pinned.png"));

        // A small corpus with metadata, so the facets have values to count.
        dev.quarry.testing.ApiClient.ok(
            demo.client().retrieval("corpora/create", token, "{\"corpus\": \"policies\"}"));
        dev.quarry.testing.ApiClient.ok(
            demo.client().retrieval("sources/batch", token, FACETED_POLICIES));
        hash(browser, "#/search?corpus=policies&q=leave&facets=department%2C%20year");
        browser.shown("#facets");
        browser.script("document.getElementById('answered').scrollIntoView()");
        browser.screenshot(out.resolve("search-facets.png"));

        hash(browser, "#/source?corpus=manuals&source=plant%2Fpump-manual.pdf&q=turbine&chunk=1");
        browser.shown("#passages .hit.opened");
        browser.shown("#timeline li");
        browser.script(
            "document.querySelector('#passages .hit.opened').scrollIntoView({block: 'center'})");
        browser.screenshot(out.resolve("source.png"));

        hash(browser, "#/status");
        browser.shown("#health");
        browser.screenshot(out.resolve("status.png"));
      }
      try (Browser phone = Browser.open(390, 760)) {
        phone.get(demo.url() + "/");
        phone.shown("#token").sendKeys(token);
        phone.shown("#sign-in button[type=submit]").click();
        phone.shown("#corpora");
        hash(phone, "#/search?corpus=handbook&q=expenses");
        phone.shown(".hit");
        phone.screenshot(out.resolve("phone-search.png"));
      }
    }
  }

  private static void hash(Browser browser, String hash) {
    browser.go(hash);
    browser.until(d -> browser.all("main h1").isEmpty() ? null : true);
  }
}
