package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's walk through the API, pasted as a user would: its shell block runs in bash, from
 * the top folder (where {@code examples/} is), against {@code quarry demo --token change-me}
 * over real HTTP. Only the address changes (the demo takes a free port), and {@code ./quarry}
 * runs this build's CLI. Every curl must print a JSON answer that is not an error.
 */
class ReadmeWalkThroughTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final String SECTION = "## A walk through the API";
  /** Each curl must answer JSON, not nothing (a missing file) and not an error envelope. */
  static final String CURL_MUST_ANSWER = "curl() { local out; out=$(command curl \"$@\"); printf '%s\\n' \"$out\";"
      + " case \"$out\" in ''|*'\"error\"'*) echo \"curl failed: $*\" >&2; return 1;; esac; }\n";

  @TempDir
  Path dir;

  @Test
  void walkThrough_runsAsWritten_againstTheDemo() throws Exception {
    Path readme = ROOT.resolve("README.md");
    assumeTrue(Files.isRegularFile(readme), "not run from a source checkout; skipping");
    assumeTrue(DemoProcess.onPath("curl") && DemoProcess.onPath("bash"),
        "curl or bash is not installed; skipping the README walk-through");
    String block = walkThroughBlock(Files.readString(readme));
    assertTrue(block.contains("change-me") && block.contains("examples/handbook.pdf"), block);

    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    try (DemoProcess demo = DemoProcess.start(tmp, dir.resolve("demo-err.txt"))) {
      String script = "set -euo pipefail\n" + DemoProcess.CLI_FUNCTION + CURL_MUST_ANSWER
          + block.replace("http://127.0.0.1:8080", demo.url()).replace("./quarry ", "quarry_cli ");
      Path scriptFile = Files.writeString(dir.resolve("walk-through.sh"), script);
      Process run = DemoProcess.bash(scriptFile, ROOT)
          .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
      assertTrue(run.waitFor(5, TimeUnit.MINUTES), "the walk-through did not finish in 5 minutes");
      String out = Files.readString(dir.resolve("out.txt"));
      String err = Files.readString(dir.resolve("err.txt"));
      assertEquals(0, run.exitValue(), () -> "stdout:\n" + out + "\nstderr:\n" + err);
      assertTrue(out.contains("\"status\":\"indexed\""), out);
      assertTrue(out.contains("\"extractor\":\"pdfbox\""), "the handbook PDF was ingested: " + out);
      assertTrue(out.matches("(?s).*ingested\\s+3\\b.*"), "the folder's three files were ingested: " + out);
      assertTrue(out.contains("\"source\":\"handbook.pdf\"") && out.contains("\"pages\":{"), out);
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("quarry-demo-")).toList(),
          "the demo removes the temporary data folder it made");
    }
  }

  /** The first {@code sh} code block after the walk-through heading. */
  static String walkThroughBlock(String readme) {
    int section = readme.indexOf(SECTION);
    assertTrue(section >= 0, "the README has no section '" + SECTION + "'");
    Matcher block = Pattern.compile("(?s)```sh\n(.*?)```").matcher(readme);
    assertTrue(block.find(section), "no sh block in " + SECTION);
    return block.group(1);
  }
}
