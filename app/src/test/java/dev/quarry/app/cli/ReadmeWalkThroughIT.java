package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk through the API (docs/getting-started.md, which the README sends a newcomer to after
 * {@code ./quarry demo}), pasted as a user would: its shell block runs in bash, from the top folder
 * (where {@code examples/} is), against {@code quarry demo --token change-me} over real HTTP. Only
 * the address changes (the demo takes a free port), and {@code ./quarry} runs this build's CLI.
 * Every curl must print a JSON answer that is not an error.
 */
class ReadmeWalkThroughIT {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  /** Where the walk-through lives, from the top folder. */
  static final String DOC = "docs/getting-started.md";

  private static final String SECTION = "## A walk through the API";

  /** Each curl must answer JSON, not nothing (a missing file) and not an error envelope. */
  static final String CURL_MUST_ANSWER =
      "curl() { local out; out=$(command curl \"$@\"); printf '%s\\n' \"$out\";"
          + " case \"$out\" in ''|*'\"error\"'*) echo \"curl failed: $*\" >&2; return 1;; esac; }\n";

  @TempDir Path dir;

  @Test
  void walkThrough_runsAsWritten_againstTheDemo() throws Exception {
    Path doc = ROOT.resolve(DOC);
    assumeTrue(
        Files.isRegularFile(ROOT.resolve("README.md")), "not run from a source checkout; skipping");
    assumeTrue(
        DemoProcess.onPath("curl") && DemoProcess.onPath("bash"),
        "curl or bash is not installed; skipping the walk-through");
    String block = walkThroughBlock(Files.readString(doc));
    assertTrue(block.contains("change-me") && block.contains("examples/handbook.pdf"), block);

    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    try (DemoProcess demo = DemoProcess.start(tmp, dir.resolve("demo-err.txt"))) {
      String script =
          "set -euo pipefail\n"
              + DemoProcess.CLI_FUNCTION
              + CURL_MUST_ANSWER
              + block
                  .replace("http://127.0.0.1:8080", demo.url())
                  .replace("./quarry ", "quarry_cli ");
      Path scriptFile = Files.writeString(dir.resolve("walk-through.sh"), script);
      Process run =
          DemoProcess.bash(scriptFile, ROOT)
              .redirectOutput(dir.resolve("out.txt").toFile())
              .redirectError(dir.resolve("err.txt").toFile())
              .start();
      assertTrue(run.waitFor(5, TimeUnit.MINUTES), "the walk-through did not finish in 5 minutes");
      String out = Files.readString(dir.resolve("out.txt"));
      String err = Files.readString(dir.resolve("err.txt"));
      assertEquals(0, run.exitValue(), () -> "stdout:\n" + out + "\nstderr:\n" + err);
      assertTrue(out.contains("\"status\":\"indexed\""), out);
      assertTrue(out.contains("\"extractor\":\"pdfbox\""), "the handbook PDF was ingested: " + out);
      assertTrue(
          out.matches("(?s).*ingested\\s+3\\b.*"),
          "the folder's three files were ingested: " + out);
      assertTrue(out.contains("\"source\":\"handbook.pdf\"") && out.contains("\"pages\":{"), out);

      // The README's one search, of the demo's own corpus, answers what the README shows.
      String readme = Files.readString(ROOT.resolve("README.md"));
      assertTrue(
          readme.contains("./quarry demo --token change-me") && readme.contains("./quarry test"),
          "the README keeps its two first commands");
      String search = block(readme, README_SEARCH, "sh");
      Path searchFile =
          Files.writeString(
              dir.resolve("readme-search.sh"),
              "set -euo pipefail\n"
                  + CURL_MUST_ANSWER
                  + search.replace("http://127.0.0.1:8080", demo.url()));
      Process searched =
          DemoProcess.bash(searchFile, ROOT)
              .redirectOutput(dir.resolve("search.txt").toFile())
              .redirectError(dir.resolve("search-err.txt").toFile())
              .start();
      assertTrue(
          searched.waitFor(1, TimeUnit.MINUTES), "the README's search did not finish in a minute");
      String answer = Files.readString(dir.resolve("search.txt"));
      String searchErr = Files.readString(dir.resolve("search-err.txt"));
      assertEquals(0, searched.exitValue(), () -> answer + searchErr);
      ObjectMapper json = new ObjectMapper();
      String shown = block(readme, README_SEARCH, "json");
      List<String> differences = new ArrayList<>();
      contains(json.readTree(answer), json.readTree(shown), "$", differences);
      assertEquals(
          List.of(),
          differences,
          () -> "the README shows an answer the demo does not give; it gives:\n" + answer);
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(
          List.of(),
          left.filter(p -> p.getFileName().toString().startsWith("quarry-demo-")).toList(),
          "the demo removes the temporary data folder it made");
    }
  }

  /** The README's search and its answer follow this sentence. */
  private static final String README_SEARCH = "One search of the demo's";

  /** The first code block of {@code language} after {@code marker}. */
  private static String block(String markdown, String marker, String language) {
    int at = markdown.indexOf(marker);
    assertTrue(at >= 0, "the README has no '" + marker + "'");
    Matcher block = Pattern.compile("(?s)```" + language + "\n(.*?)```").matcher(markdown);
    assertTrue(block.find(at), "no " + language + " block after '" + marker + "'");
    return block.group(1);
  }

  /**
   * Whether {@code actual} holds what {@code shown} shows: the same value, an object with at least
   * the shown fields (a shortened answer leaves some out), an array that starts with the shown
   * elements, or a text that starts as a shown one ending in {@code ...} does.
   */
  static void contains(JsonNode actual, JsonNode shown, String path, List<String> differences) {
    if (shown.isObject()) {
      for (Map.Entry<String, JsonNode> field : shown.properties()) {
        JsonNode value = actual.isObject() ? actual.get(field.getKey()) : null;
        if (value == null) {
          differences.add(path + "." + field.getKey() + " is missing");
        } else {
          contains(value, field.getValue(), path + "." + field.getKey(), differences);
        }
      }
    } else if (shown.isArray()) {
      if (!actual.isArray() || actual.size() < shown.size()) {
        differences.add(path + " has fewer than " + shown.size() + " elements");
      } else {
        for (int i = 0; i < shown.size(); i++) {
          contains(actual.get(i), shown.get(i), path + "[" + i + "]", differences);
        }
      }
    } else if (shown.isTextual() && shown.asText().endsWith("...")) {
      String start = shown.asText().substring(0, shown.asText().length() - 3);
      if (!actual.isTextual() || !actual.asText().startsWith(start)) {
        differences.add(path + " is " + actual + ", which does not start as shown: " + shown);
      }
    } else if (!shown.equals(actual)) {
      differences.add(path + " is " + actual + ", not " + shown);
    }
  }

  /** The first {@code sh} code block after the walk-through heading. */
  static String walkThroughBlock(String markdown) {
    int section = markdown.indexOf(SECTION);
    assertTrue(section >= 0, DOC + " has no section '" + SECTION + "'");
    Matcher block = Pattern.compile("(?s)```sh\n(.*?)```").matcher(markdown);
    assertTrue(block.find(section), "no sh block in " + SECTION);
    return block.group(1);
  }
}
