package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README, ARCHITECTURE.md, TESTING.md and docs/ (docs/dev/ included)
 * reaches a file that exists, and a link to a heading ({@code file.md#anchor}) a heading that
 * exists, with the anchor GitHub derives from it. Docs move (user docs, developer notes); their
 * links must move with them. Links in code blocks and absolute ones ({@code https:}) are not read.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final Pattern FENCED = Pattern.compile("(?ms)^[ \\t]*```.*?^[ \\t]*```");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.*?)\\s*$");

  @Test
  void everyRelativeLink_reachesAFileAndHeading() throws IOException {
    assumeTrue(Files.isDirectory(ROOT.resolve("docs")), "not run from a source checkout; skipping");
    List<Path> files =
        new ArrayList<>(
            List.of(
                ROOT.resolve("README.md"),
                ROOT.resolve("ARCHITECTURE.md"),
                ROOT.resolve("TESTING.md")));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path file : files) {
      Matcher link = LINK.matcher(prose(Files.readString(file)));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue;
        }
        links++;
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path reached = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        String where = ROOT.relativize(file) + ": " + target;
        if (!Files.exists(reached)) {
          broken.add(where + " (no such file)");
        } else if (hash >= 0
            && reached.toString().endsWith(".md")
            && !anchors(Files.readString(reached)).contains(target.substring(hash + 1))) {
          broken.add(where + " (no such heading)");
        }
      }
    }
    assertTrue(links > 100, "read only " + links + " relative links");
    assertEquals(
        List.of(), broken, () -> broken.size() + " broken links:\n" + String.join("\n", broken));
  }

  @Test
  void anchors_areGitHubs() {
    assertEquals(
        Set.of("full-scifact-bge-small-en-v15-defaults", "get-v1protocol", "tests", "tests-1"),
        anchors(
            "### Full SciFact, bge-small-en-v1.5 (defaults)\n## `GET /v1/protocol`\n## Tests\n## Tests\n"
                + "```\n# not a heading\n```\n"));
  }

  /** The Markdown outside its fenced code blocks. */
  private static String prose(String markdown) {
    return FENCED.matcher(markdown).replaceAll("");
  }

  /**
   * The anchors GitHub gives the headings: lower case, punctuation dropped, spaces to hyphens,
   * repeats numbered.
   */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher heading = HEADING.matcher(prose(markdown));
    while (heading.find()) {
      String slug =
          heading
              .group(1)
              .replaceAll("[`*]", "")
              .strip()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
              .replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? slug : slug + "-" + n);
    }
    return anchors;
  }
}
