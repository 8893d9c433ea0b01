package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code quarry demo --token change-me} in a process of its own, on a free port, as the shell
 * examples of the README and docs/ expect it; and what a bash script needs to run this build's CLI
 * where they say {@code ./quarry}.
 */
final class DemoProcess implements AutoCloseable {
  /** Defines {@code quarry_cli}, this build's command line, for scripts run by {@link #bash}. */
  static final String CLI_FUNCTION =
      "quarry_cli() { \"$QUARRY_JAVA\" $QUARRY_JAVA_OPTS -cp \"$QUARRY_CP\" dev.quarry.app.cli.QuarryCli \"$@\"; }\n";

  private final Process process;
  private final Path stderr;
  private final String url;

  private DemoProcess(Process process, Path stderr, String url) {
    this.process = process;
    this.stderr = stderr;
    this.url = url;
  }

  /**
   * Starts the demo with its temporary data folder under {@code tmp}, its stderr in {@code stderr}.
   */
  static DemoProcess start(Path tmp, Path stderr) throws Exception {
    List<String> command = ChildJvm.command(256, "demo");
    command.addAll(
        List.of(
            "-Djava.io.tmpdir=" + tmp,
            "dev.quarry.app.cli.QuarryCli",
            "demo",
            "--token",
            "change-me",
            "--port",
            "0"));
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    int[] firstSearch = {0};
    String url = awaitReady(process, firstSearch);
    DemoProcess demo = new DemoProcess(process, stderr, url);
    assertTrue(
        url != null && url.startsWith("http://127.0.0.1:"),
        () -> "the demo did not start: " + demo.stderr());
    assertEquals(
        200,
        firstSearch[0],
        "a search sent as soon as the demo said it was listening: its sample corpus is indexed");
    return demo;
  }

  /** The demo's address, {@code http://127.0.0.1:PORT}. */
  String url() {
    return url;
  }

  String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(unreadable)";
    }
  }

  /** Stops the demo with SIGTERM, as Ctrl-C would. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the demo did not stop on SIGTERM");
  }

  /**
   * bash running {@code script} in {@code folder}, with what {@link #CLI_FUNCTION} needs in its
   * environment.
   */
  static ProcessBuilder bash(Path script, Path folder) {
    ProcessBuilder bash = new ProcessBuilder("bash", script.toString()).directory(folder.toFile());
    bash.environment().put("QUARRY_JAVA", ChildJvm.java());
    bash.environment().put("QUARRY_JAVA_OPTS", String.join(" ", ChildJvm.options("shell")));
    bash.environment().put("QUARRY_CP", ChildJvm.classPath());
    return bash;
  }

  /** The status of a search of the demo's sample corpus; 0 when none came. */
  private static int search(String url) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + "/v1/retrieval/search"))
            .header("Authorization", "Bearer change-me")
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"corpus\":\"handbook\",\"query\":\"leave\"}"))
            .build();
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  static boolean onPath(String tool) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, tool))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits for the demo's last line of instructions and returns its address (null if it never came),
   * with the status of a search of its sample corpus sent as soon as its {@code listening on} line
   * came in {@code firstSearch}.
   */
  private static String awaitReady(Process demo, int[] firstSearch) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready =
        CompletableFuture.supplyAsync(
            () -> {
              String url = null;
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  if (line.startsWith("listening on ")) {
                    url = line.substring("listening on ".length()).strip();
                    firstSearch[0] = search(url);
                  } else if (line.startsWith("Stop with Ctrl-C")) {
                    Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "demo-stdout");
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
    return ready.get(3, TimeUnit.MINUTES);
  }
}
