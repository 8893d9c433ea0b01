package dev.quarry.app.server;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the server should be sent traffic ({@code GET /readyz}), as distinct from whether it is
 * alive ({@code GET /healthz}): not while it is starting (the corpora being opened, Jetty not yet
 * started), not once it is shutting down, and not while the data folder's file system has less than
 * {@code minFreeBytes} usable: a load balancer then sends requests elsewhere before writes begin
 * failing inside Lucene.
 *
 * <p>Thread-safe.
 */
final class Readiness {
  private final Path dataDir;
  private final long minFreeBytes;
  private volatile boolean started;
  private volatile boolean stopping;

  /**
   * @param dataDir the data folder whose free space is checked; null: none is checked
   * @param minFreeBytes the least usable space for being ready; 0: not checked
   */
  Readiness(Path dataDir, long minFreeBytes) {
    if (minFreeBytes < 0) {
      throw new IllegalArgumentException("minFreeBytes must not be negative; got " + minFreeBytes);
    }
    this.dataDir = dataDir;
    this.minFreeBytes = minFreeBytes;
  }

  /** The server takes requests. */
  void started() {
    started = true;
  }

  /** The server is shutting down: not ready from now on. */
  void stopping() {
    stopping = true;
  }

  /** Whether there is a data folder whose free space {@link #usableBytes} measures. */
  boolean hasDataDir() {
    return dataDir != null;
  }

  /** Why the server is not ready, or empty when it is. */
  Optional<String> notReadyBecause() {
    if (stopping) {
      return Optional.of("the server is shutting down");
    }
    if (!started) {
      return Optional.of("the server is starting");
    }
    if (dataDir != null && minFreeBytes > 0) {
      long usable = usableBytes();
      if (usable < minFreeBytes) {
        return Optional.of(
            "the data folder's disk has "
                + mib(usable)
                + " MiB free, below the "
                + mib(minFreeBytes)
                + " MiB readiness.minFreeDiskMiB");
      }
    }
    return Optional.empty();
  }

  /**
   * Usable bytes on the data folder's file system; 0 when it cannot be read (not ready, to be
   * safe).
   */
  long usableBytes() {
    try {
      FileStore store = Files.getFileStore(dataDir);
      return store.getUsableSpace();
    } catch (IOException e) {
      return 0;
    }
  }

  private static long mib(long bytes) {
    return bytes / (1024 * 1024);
  }
}
