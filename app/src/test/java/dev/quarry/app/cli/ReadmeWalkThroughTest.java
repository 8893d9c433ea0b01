package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

  @TempDir
  Path dir;

  @Test
  void walkThrough_runsAsWritten_againstTheDemo() throws Exception {
    Path readme = ROOT.resolve("README.md");
    assumeTrue(Files.isRegularFile(readme), "not run from a source checkout; skipping");
    assumeTrue(onPath("curl") && onPath("bash"), "curl or bash is not installed; skipping the README walk-through");
    String block = walkThroughBlock(Files.readString(readme));
    assertTrue(block.contains("change-me") && block.contains("examples/handbook.pdf"), block);

    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Process demo = startDemo(tmp);
    try {
      String url = awaitReady(demo);
      String script = "set -euo pipefail\n"
          + "quarry_cli() { \"$QUARRY_JAVA\" -cp \"$QUARRY_CP\" dev.quarry.app.cli.QuarryCli \"$@\"; }\n"
          // Each curl must answer JSON, not nothing (a missing file) and not an error envelope.
          + "curl() { local out; out=$(command curl \"$@\"); printf '%s\\n' \"$out\";"
          + " case \"$out\" in ''|*'\"error\"'*) echo \"README curl failed: $*\" >&2; return 1;; esac; }\n"
          + block.replace("http://127.0.0.1:8080", url).replace("./quarry ", "quarry_cli ");
      Path scriptFile = Files.writeString(dir.resolve("walk-through.sh"), script);
      ProcessBuilder bash = new ProcessBuilder("bash", scriptFile.toString()).directory(ROOT.toFile())
          .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
      bash.environment().put("QUARRY_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
      bash.environment().put("QUARRY_CP", System.getProperty("java.class.path"));
      Process run = bash.start();
      assertTrue(run.waitFor(5, TimeUnit.MINUTES), "the walk-through did not finish in 5 minutes");
      String out = Files.readString(dir.resolve("out.txt"));
      String err = Files.readString(dir.resolve("err.txt"));
      assertEquals(0, run.exitValue(), () -> "stdout:\n" + out + "\nstderr:\n" + err);
      assertTrue(out.contains("\"status\":\"indexed\""), out);
      assertTrue(out.contains("\"extractor\":\"pdfbox\""), "the handbook PDF was ingested: " + out);
      assertTrue(out.matches("(?s).*ingested\\s+3\\b.*"), "the folder's three files were ingested: " + out);
      assertTrue(out.contains("\"source\":\"handbook.pdf\"") && out.contains("\"pages\":{"), out);
    } finally {
      demo.destroy();
      assertTrue(demo.waitFor(60, TimeUnit.SECONDS), "the demo did not stop on SIGTERM");
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

  private Process startDemo(Path tmp) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
        "dev.quarry.app.cli.QuarryCli", "demo", "--token", "change-me", "--port", "0"));
    return new ProcessBuilder(command).redirectError(dir.resolve("demo-err.txt").toFile()).start();
  }

  /** Waits for the demo's last line of instructions and returns its address. */
  private String awaitReady(Process demo) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
      String url = null;
      try {
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("listening on ")) {
            url = line.substring("listening on ".length()).strip();
          } else if (line.startsWith("Stop with Ctrl-C")) {
            Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "demo-stdout");
            drain.setDaemon(true);
            drain.start();
            return url;
          }
        }
      } catch (IOException e) {
        return null;
      }
      return null;
    });
    String url = ready.get(3, TimeUnit.MINUTES);
    assertTrue(url != null && url.startsWith("http://127.0.0.1:"),
        () -> "the demo did not start: " + readQuietly(dir.resolve("demo-err.txt")));
    return url;
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(unreadable)";
    }
  }

  private static boolean onPath(String tool) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, tool))) {
        return true;
      }
    }
    return false;
  }
}
