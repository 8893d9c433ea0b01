package dev.quarry.app;

import dev.quarry.testing.ApiClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A server started the way a user starts it: {@code QuarryCli serve} in its own JVM, on a free
 * port, ready once it printed its {@code listening on} line.
 */
public final class ServerProcess implements AutoCloseable {
  /**
   * Generous: the first start of a JVM on a busy machine is slow; this bounds a hang, not speed.
   */
  private static final long START_TIMEOUT_SECONDS = 120;

  static final int DEFAULT_HEAP_MIB = 256;

  private final Process process;
  private final String url;
  private final Path stderr;
  private final List<String> stdout;

  private ServerProcess(Process process, String url, Path stderr, List<String> stdout) {
    this.process = process;
    this.url = url;
    this.stderr = stderr;
    this.stdout = stdout;
  }

  /** A server config that turns backups on, written into {@code backups}. */
  public static String backupConfig(Path backups) {
    return "{\"backup\": {\"directory\": \"" + backups.toString().replace("\\", "\\\\") + "\"}}";
  }

  /** Starts {@code serve --data data --port 0 --tokens tokens [--config config]}. */
  public static ServerProcess serve(Path data, Path tokens, Path config) {
    return serve(data, tokens, config, DEFAULT_HEAP_MIB);
  }

  /** {@link #serve(Path, Path, Path)} with {@code extraArgs} after the others. */
  public static ServerProcess serve(Path data, Path tokens, Path config, List<String> extraArgs) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve", "--data", data.toString(), "--port", "0", "--tokens", tokens.toString()));
    if (config != null) {
      args.addAll(List.of("--config", config.toString()));
    }
    args.addAll(extraArgs);
    return started(launch(args, DEFAULT_HEAP_MIB));
  }

  /**
   * {@link #serve(Path, Path, Path)} with a server heap of {@code heapMiB} (extraction workers have
   * their own).
   */
  public static ServerProcess serve(Path data, Path tokens, Path config, int heapMiB) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve", "--data", data.toString(), "--port", "0", "--tokens", tokens.toString()));
    if (config != null) {
      args.addAll(List.of("--config", config.toString()));
    }
    return started(launch(args, heapMiB));
  }

  /** Starts {@code demo --data data --port 0}. */
  public static ServerProcess demo(Path data) {
    return started(
        launch(List.of("demo", "--data", data.toString(), "--port", "0"), DEFAULT_HEAP_MIB));
  }

  private static ServerProcess started(Launch launch) {
    try {
      String line = launch.firstLine().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null || !line.startsWith("listening on http://127.0.0.1:")) {
        launch.process().waitFor(30, TimeUnit.SECONDS);
        throw new IllegalStateException(
            "server did not start: " + line + "\n" + Files.readString(launch.stderr()));
      }
      return new ServerProcess(
          launch.process(),
          line.substring("listening on ".length()),
          launch.stderr(),
          launch.stdout());
    } catch (InterruptedException | ExecutionException | TimeoutException | IOException e) {
      launch.process().destroyForcibly();
      String err;
      try {
        err = Files.readString(launch.stderr());
      } catch (IOException unreadable) {
        err = "(stderr unreadable)";
      }
      throw new IllegalStateException("server did not start; its stderr:\n" + err, e);
    }
  }

  /** Runs the CLI with {@code args} and returns its exit code and stderr, for commands that end. */
  public static Ended run(List<String> args) {
    Launch launch = launch(args, DEFAULT_HEAP_MIB);
    try {
      if (!launch.process().waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        launch.process().destroyForcibly();
        throw new IllegalStateException("the command did not end: " + args);
      }
      return new Ended(launch.process().exitValue(), Files.readString(launch.stderr()));
    } catch (InterruptedException | IOException e) {
      launch.process().destroyForcibly();
      throw new IllegalStateException(e);
    }
  }

  /** How a command ended. */
  public record Ended(int exitCode, String stderr) {}

  private record Launch(
      Process process, CompletableFuture<String> firstLine, Path stderr, List<String> stdout) {}

  private static Launch launch(List<String> args, int heapMiB) {
    try {
      Path err = Files.createTempFile("quarry-server-", ".log");
      err.toFile().deleteOnExit(); // read after the server stopped, so kept until the test JVM ends
      List<String> command = ChildJvm.command(heapMiB, args.isEmpty() ? "none" : args.get(0));
      command.add("dev.quarry.app.cli.QuarryCli");
      command.addAll(args);
      Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<String> first = new CompletableFuture<>();
      List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread reader =
          new Thread(
              () -> {
                try {
                  first.complete(out.readLine());
                  // Keep reading so the child never blocks on a full pipe.
                  String line;
                  while ((line = out.readLine()) != null) {
                    lines.add(line);
                  }
                } catch (IOException e) {
                  first.complete(null);
                }
              },
              "server-stdout");
      reader.setDaemon(true);
      reader.start();
      return new Launch(p, first, err, lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String url() {
    return url;
  }

  /** The lines printed on stdout after the {@code listening on} line, so far. */
  public List<String> laterStdout() {
    return List.copyOf(stdout);
  }

  public ApiClient client() {
    return new ApiClient(url);
  }

  /** Sends {@code signal} (such as {@code HUP}) with {@code kill}, and waits for kill to return. */
  public void signal(String signal) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .inheritIO()
              .start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * SIGKILL (kill -9): the process ends at once, with nothing flushed or closed; waits for it to be
   * gone.
   */
  public void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("server still alive 60 s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends SIGTERM without waiting. */
  public void signalTerm() {
    process.destroy();
  }

  /** SIGTERM, then waits for a clean exit; returns the exit code. */
  public int terminate() {
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("server did not stop within 60 s of SIGTERM");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(stderr unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      terminate();
    }
  }
}
