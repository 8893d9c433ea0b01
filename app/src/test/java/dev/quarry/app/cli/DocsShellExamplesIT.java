package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shell example of docs/*.md, pasted as a reader would: each {@code sh} or {@code bash} block
 * runs in bash against {@code quarry demo --token change-me}, over real HTTP, after the
 * walk-through of docs/getting-started.md (some examples use its corpus {@code company}; it runs
 * first, once), from a folder that holds {@code examples/} as the top folder does, with {@code
 * TOKEN=change-me}. Only the address changes (the demo takes a free port; {@code QUARRY_URL} says
 * so to commands that use the default), and {@code ./quarry} runs this build's CLI. Every curl must
 * print a JSON answer that is not an error, and every command must succeed.
 *
 * <p>A block that cannot run here (it needs a cluster, a container engine, a release archive,
 * Tesseract) says so in the Markdown, on the line before it: {@code <!-- not run: REASON -->}. The
 * test lists those it leaves out, and reports each failing block by file and line.
 */
class DocsShellExamplesIT {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final Pattern BLOCK =
      Pattern.compile("(?ms)^([ \\t]*)```(?:sh|bash)\\n(.*?)^\\1```");
  private static final Pattern NOT_RUN = Pattern.compile("<!--\\s*not run:\\s*(.*?)\\s*-->");

  /**
   * One shell block: where it starts (file and the line of its opening fence), its text, and why it
   * is not run (or null).
   */
  record Block(String file, int line, String code, String notRun) {
    String where() {
      return file + ":" + line;
    }
  }

  @TempDir Path dir;

  @Test
  void everyShellExample_runsAsWritten_againstTheDemo() throws Exception {
    Path docs = ROOT.resolve("docs");
    assumeTrue(Files.isDirectory(docs), "not run from a source checkout; skipping");
    assumeTrue(
        DemoProcess.onPath("curl") && DemoProcess.onPath("bash"),
        "curl or bash is not installed; skipping");
    List<Block> blocks = new ArrayList<>();
    try (Stream<Path> files = Files.list(docs)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
        blocks.addAll(blocks("docs/" + file.getFileName(), Files.readString(file)));
      }
    }
    List<Block> run = blocks.stream().filter(b -> b.notRun() == null).toList();
    assertTrue(run.size() >= 5, "docs/ has shell examples to run: " + blocks);
    blocks.stream()
        .filter(b -> b.notRun() != null)
        .forEach(b -> System.out.println("not run: " + b.where() + " (" + b.notRun() + ")"));

    Path work = Files.createDirectories(dir.resolve("work"));
    Files.createSymbolicLink(work.resolve("examples"), ROOT.resolve("examples"));
    List<String> failures = new ArrayList<>();
    try (DemoProcess demo =
        DemoProcess.start(
            Files.createDirectories(dir.resolve("tmp")), dir.resolve("demo-err.txt"))) {
      String walkThrough =
          ReadmeWalkThroughIT.walkThroughBlock(
              Files.readString(ROOT.resolve(ReadmeWalkThroughIT.DOC)));
      String setUp = runBlock(new Block(ReadmeWalkThroughIT.DOC, 0, walkThrough, null), demo, work);
      assertEquals(null, setUp, "the walk-through, run first: " + setUp);
      for (Block block : run) {
        if (block.file().equals(ReadmeWalkThroughIT.DOC) && block.code().equals(walkThrough)) {
          continue; // the set-up above: a second run would create its corpus twice
        }
        String failed = runBlock(block, demo, work);
        if (failed != null) {
          failures.add(failed);
        }
      }
    }
    assertEquals(
        List.of(),
        failures,
        () ->
            failures.size()
                + " of "
                + run.size()
                + " shell examples failed:\n"
                + String.join("\n\n", failures));
  }

  @Test
  void blocks_areFound_withTheirLine_andTheirNotRunMarker() {
    String md =
        """
        # Title

        ```sh
        echo one
        ```

        <!-- not run: needs a cluster -->
        ```bash
        echo two
        ```

        - a list item:

          ```sh
          echo three
          ```
        ```json
        {"not": "shell"}
        ```
        """;
    List<Block> found = blocks("x.md", md);
    assertEquals(
        List.of(
            new Block("x.md", 3, "echo one\n", null),
            new Block("x.md", 8, "echo two\n", "needs a cluster"),
            new Block("x.md", 14, "echo three\n", null)),
        found);
  }

  /**
   * The shell blocks of one Markdown file, each with its not-run reason when the line before the
   * fence gives one.
   */
  static List<Block> blocks(String file, String markdown) {
    List<Block> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(markdown);
    while (m.find()) {
      String indent = m.group(1);
      String code =
          m.group(2)
              .lines()
              .map(l -> l.startsWith(indent) ? l.substring(indent.length()) : l)
              .reduce(
                  new StringBuilder(), (sb, l) -> sb.append(l).append('\n'), StringBuilder::append)
              .toString();
      String before = markdown.substring(0, m.start()).stripTrailing();
      String lastLine = before.substring(before.lastIndexOf('\n') + 1).strip();
      Matcher notRun = NOT_RUN.matcher(lastLine);
      String reason = notRun.matches() ? notRun.group(1) : null;
      assertFalse(reason != null && reason.isBlank(), file + ": a not-run marker gives its reason");
      int line = (int) markdown.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
      blocks.add(new Block(file, line, code, reason));
    }
    return blocks;
  }

  /** Runs one block in {@code work}; null when it succeeded, else what failed, naming the block. */
  private String runBlock(Block block, DemoProcess demo, Path work) throws Exception {
    String address = demo.url().substring("http://".length());
    String script =
        "set -euo pipefail\n"
            + DemoProcess.CLI_FUNCTION
            + ReadmeWalkThroughIT.CURL_MUST_ANSWER
            + block
                .code()
                .replace("http://127.0.0.1:8080", demo.url())
                .replace("localhost:8080", address)
                .replace("./quarry ", "quarry_cli ");
    String name = block.where().replaceAll("[^A-Za-z0-9]+", "-");
    Path scriptFile = Files.writeString(dir.resolve(name + ".sh"), script);
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder bash =
        DemoProcess.bash(scriptFile, work).redirectOutput(out.toFile()).redirectError(err.toFile());
    bash.environment().put("TOKEN", "change-me");
    // The command line's default address is the demo's usual one, 127.0.0.1:8080; here the demo's
    // port.
    bash.environment().put("QUARRY_URL", demo.url());
    Process process = bash.start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      return block.where() + ": did not finish in 3 minutes\n" + block.code();
    }
    if (process.exitValue() != 0) {
      return block.where()
          + ": exit code "
          + process.exitValue()
          + "\n--- the block:\n"
          + block.code()
          + "--- stdout:\n"
          + Files.readString(out)
          + "--- stderr:\n"
          + Files.readString(err);
    }
    return null;
  }
}
