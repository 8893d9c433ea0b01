package dev.quarry.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the dist tests do with the release archive the build made: unpack it, and wait for a server
 * started from it to take requests.
 */
final class ReleaseArchive {
  /** The archive, as the failsafe configuration in dist/pom.xml names it. */
  static final Path ARCHIVE = Path.of(System.getProperty("quarry.release.archive", "missing"));

  private ReleaseArchive() {}

  /**
   * Unpacks the archive in {@code dir} as a user does ({@code tar xzf}) and returns its top folder.
   */
  static Path unpack(Path dir) throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(ARCHIVE), "the archive was built: " + ARCHIVE);
    Process tar =
        new ProcessBuilder("tar", "xzf", ARCHIVE.toString(), "-C", dir.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(tar.waitFor(120, TimeUnit.SECONDS), "tar finished");
    assertEquals(0, tar.exitValue(), output);
    return dir.resolve(ARCHIVE.getFileName().toString().replaceFirst("\\.tar\\.gz$", ""));
  }

  /**
   * The URL of the {@code listening on URL} line {@code server} prints, once it has also printed a
   * line starting with {@code readyLine} (which may be that line itself); the rest of its output is
   * drained, so that the server never blocks on a full pipe. Fails with {@code stderr}'s text when
   * the server ends first or takes three minutes.
   */
  static String awaitListening(Process server, String readyLine, Path stderr) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready =
        CompletableFuture.supplyAsync(
            () -> {
              String url = null;
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  if (line.startsWith("listening on ")) {
                    url = line.substring("listening on ".length()).strip();
                  }
                  if (line.startsWith(readyLine)) {
                    Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "server-stdout");
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
    assertTrue(url != null, () -> "the server did not start: " + readQuietly(stderr));
    return url;
  }

  /**
   * Stops {@code server} with SIGTERM, as a container engine or Ctrl-C does, and asserts it stops
   * within a minute; one that does not is killed, so no test leaves a process behind.
   */
  static void stop(Process server, String what) throws InterruptedException {
    server.destroy();
    boolean stopped = server.waitFor(60, TimeUnit.SECONDS);
    if (!stopped) {
      server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    assertTrue(stopped, what + " stops on SIGTERM");
  }

  static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(unreadable)";
    }
  }
}
