package dev.quarry.app.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * What an accessibility audit finds on the page a {@link Browser} shows: controls without an
 * accessible name, text whose contrast with its background is too low, and an outline that is not
 * sound (not one main, no language, images without alternatives, skipped heading levels). The page
 * is read by {@code accessibility-audit.js}; contrast is judged by {@link Contrast}.
 */
final class PageAudit {
  private static final String SCRIPT = load("accessibility-audit.js");

  private PageAudit() {}

  /**
   * The findings on one page, each list empty when the page passes, and how many controls and
   * pieces of text were looked at (so a page that showed nothing does not pass unseen).
   */
  record Findings(
      List<String> unnamedControls,
      List<String> lowContrast,
      List<String> structure,
      int controlsChecked,
      int textsChecked) {
    boolean clean() {
      return unnamedControls.isEmpty() && lowContrast.isEmpty() && structure.isEmpty();
    }
  }

  @SuppressWarnings("unchecked")
  static Findings of(Browser browser) {
    Map<String, Object> page = (Map<String, Object>) browser.script(SCRIPT);
    List<Map<String, Object>> texts = (List<Map<String, Object>>) page.get("texts");
    List<String> lowContrast =
        texts.stream().map(PageAudit::contrastProblem).filter(p -> p != null).toList();
    return new Findings(
        (List<String>) page.get("unnamed"),
        lowContrast,
        (List<String>) page.get("structure"),
        ((Number) page.get("controls")).intValue(),
        texts.size());
  }

  /** The problem with one piece of text's contrast, or null when it is readable. */
  @SuppressWarnings("unchecked")
  private static String contrastProblem(Map<String, Object> text) {
    Contrast.Rgba color = Contrast.Rgba.parse((String) text.get("color"));
    Contrast.Rgba background = Contrast.background((List<String>) text.get("backgrounds"));
    double ratio = Contrast.ratio(color, background);
    double needed =
        Contrast.required(
            ((Number) text.get("fontSize")).doubleValue(),
            ((Number) text.get("fontWeight")).intValue());
    return ratio >= needed
        ? null
        : "%s \"%s\": %s on %s is %.3f:1, needs %.1f:1"
            .formatted(text.get("selector"), text.get("text"), color, background, ratio, needed);
  }

  private static String load(String name) {
    try (InputStream in = PageAudit.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
