package dev.quarry.app.console;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium: the system's {@code chromium} driven through the system's {@code
 * chromedriver} (Debian's chromium and chromium-driver packages), never a browser that Selenium
 * downloads. Each instance has a fresh profile folder, deleted on close.
 *
 * <p>Tests that need it call {@link #open}, which skips them visibly when either binary is absent.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of(System.getProperty("quarry.chromium", "/usr/bin/chromium"));
  static final Path CHROMEDRIVER =
      Path.of(System.getProperty("quarry.chromedriver", "/usr/bin/chromedriver"));

  /** Bounds a hang (a page that never shows what it should), not speed. */
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final ChromeDriver driver;
  private final Path profile;
  private final WebDriverWait wait;

  private Browser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
    this.wait = new WebDriverWait(driver, WAIT);
    // The console re-renders a view as answers arrive: an element found a moment ago may be gone by
    // the time it is read. A wait asks again rather than fail on it.
    wait.ignoring(StaleElementReferenceException.class);
  }

  /**
   * Starts Chromium at {@code width} x {@code height}; skips the test when Chromium or its driver
   * is missing.
   */
  static Browser open(int width, int height) {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium end-to-end tests skipped: install chromium and chromium-driver (apt-get install -y chromium chromium-driver); looked for "
            + CHROMIUM
            + " and "
            + CHROMEDRIVER);
    try {
      Path profile = Files.createTempDirectory("quarry-chromium-");
      ChromeOptions options = new ChromeOptions();
      options.setBinary(CHROMIUM.toFile());
      options.addArguments(
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-dev-shm-usage",
          "--user-data-dir=" + profile,
          "--window-size=" + width + "," + height);
      LoggingPreferences logs = new LoggingPreferences();
      logs.enable(LogType.BROWSER, Level.ALL);
      options.setCapability("goog:loggingPrefs", logs);
      ChromeDriverService service =
          new ChromeDriverService.Builder()
              .usingDriverExecutable(CHROMEDRIVER.toFile())
              .usingAnyFreePort()
              .build();
      ChromeDriver driver = new ChromeDriver(service, options);
      driver.manage().window().setSize(new Dimension(width, height));
      return new Browser(driver, profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  WebDriver driver() {
    return driver;
  }

  /**
   * Makes the page behave as if its window were in front, as a person's is: a headless window never
   * gets the system's focus, and a page without it matches no {@code :focus} style at all.
   */
  void focusWindow() {
    driver.executeCdpCommand(
        "Emulation.setFocusEmulationEnabled", java.util.Map.of("enabled", true));
  }

  void get(String url) {
    driver.get(url);
  }

  /** Waits until {@code condition} gives something other than null or false, and returns it. */
  <T> T until(Function<WebDriver, T> condition) {
    return wait.until(condition::apply);
  }

  /** The first element matching {@code css}, once it is there and shown. */
  WebElement shown(String css) {
    return until(
        d ->
            d.findElements(By.cssSelector(css)).stream()
                .filter(WebElement::isDisplayed)
                .findFirst()
                .orElse(null));
  }

  /** Waits until an element matching {@code css} contains {@code text}, and returns it. */
  WebElement showing(String css, String text) {
    return until(
        d ->
            d.findElements(By.cssSelector(css)).stream()
                .filter(e -> e.getText().contains(text))
                .findFirst()
                .orElse(null));
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  Object script(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(js, args);
  }

  /**
   * Console messages since the last call that mean the page misbehaved: script errors and policy
   * violations. Failed API answers (a 401 or a 400 a test provokes) are logged by Chromium too, and
   * are expected.
   */
  List<String> pageErrors() {
    return consoleLog().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .filter(m -> !m.contains("Failed to load resource: the server responded with a status of"))
        .toList();
  }

  /** Opens the console at {@code baseUrl} and signs in with {@code token}. */
  void signIn(String baseUrl, String token) {
    get(baseUrl + "/");
    shown("#token").sendKeys(token);
    shown("#sign-in button[type=submit]").click();
  }

  /** Goes to a console address ({@code #/search?...}) as a link would. */
  void go(String hash) {
    script("location.hash = arguments[0]", hash);
  }

  /**
   * Starts recording the page's API calls afresh: wraps the page's {@code fetch} (the console's
   * only way to the API but for uploads), once per page, and empties the record. Survives moves
   * between the console's views, which change the address's fragment only.
   */
  void recordApiCalls() {
    script(
        """
        window.__quarryCalls = [];
        if (!window.__quarryFetch) {
          window.__quarryFetch = window.fetch;
          window.fetch = function (url, init) {
            window.__quarryCalls.push({endpoint: new URL(String(url), location.href).pathname, body: (init && init.body) || null});
            return window.__quarryFetch.apply(this, arguments);
          };
        }""");
  }

  /**
   * The API calls since {@link #recordApiCalls}, in order: each its path and its JSON body (null
   * for a GET).
   */
  List<ApiCall> apiCalls() {
    @SuppressWarnings("unchecked")
    List<java.util.Map<String, Object>> calls =
        (List<java.util.Map<String, Object>>) script("return window.__quarryCalls");
    return calls.stream()
        .map(c -> new ApiCall((String) c.get("endpoint"), (String) c.get("body")))
        .toList();
  }

  /** One recorded API call: {@code /v1/retrieval/search} and its body. */
  record ApiCall(String endpoint, String body) {}

  /**
   * The copyable curl command of the search shown (inside a closed disclosure, so present but not
   * shown).
   */
  String searchCurl() {
    // Read inside the wait: a new answer may replace the element between finding and reading it.
    return until(
        d ->
            d.findElements(By.cssSelector("#results .curl")).stream()
                .findFirst()
                .map(e -> e.getAttribute("textContent"))
                .orElse(null));
  }

  /**
   * Closes the browser, failing the test first when the page logged errors ({@link #pageErrors})
   * since the last look.
   */
  void closeFailingOnPageErrors() {
    try {
      List<String> errors = pageErrors();
      assertTrue(errors.isEmpty(), () -> "the page logged errors: " + errors);
    } finally {
      close();
    }
  }

  /** The browser's console messages since the last call. */
  List<LogEntry> consoleLog() {
    return driver.manage().logs().get(LogType.BROWSER).getAll();
  }

  void screenshot(Path png) {
    try {
      Files.createDirectories(png.getParent());
      Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException ignored) {
        // A profile left in the temporary folder is harmless.
      }
    }
  }
}
