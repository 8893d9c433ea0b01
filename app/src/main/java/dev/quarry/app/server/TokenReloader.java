package dev.quarry.app.server;

import dev.quarry.api.Authenticator;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokens file, kept in force while it changes: it is read again on {@link #reload} (SIGHUP) and
 * whenever its content changes (checked every {@code pollMillis}; polling, unlike file-system
 * events, also sees a file replaced by a rename or a symbolic link swapped, as Kubernetes does for
 * mounted secrets). A new file takes effect at once and as a whole (one reference swap); a new file
 * that cannot be read or is malformed is refused with a log line and the tokens in force stay.
 *
 * <p>Each request is authenticated once, at its start, and keeps the access it got: a request in
 * progress finishes under the grants it started with, even if its token is revoked meanwhile.
 *
 * <p>Thread-safe.
 */
public final class TokenReloader implements Authenticator, AutoCloseable {
  /** How often the file is checked for changes by default. */
  public static final long DEFAULT_POLL_MILLIS = 2_000;

  private static final Logger LOG = LoggerFactory.getLogger(TokenReloader.class);

  private final Path file;
  private final AtomicReference<TokenAuthenticator> current;

  /** The SHA-256 of the content last looked at, valid or not, so a bad file is reported once. */
  private byte[] lastSeen;

  private final ScheduledExecutorService poller;

  private TokenReloader(
      Path file, TokenAuthenticator initial, byte[] initialDigest, long pollMillis) {
    this.file = file;
    this.current = new AtomicReference<>(initial);
    this.lastSeen = initialDigest;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "quarry-tokens-reload");
              t.setDaemon(true);
              return t;
            });
    if (pollMillis > 0) {
      poller.scheduleWithFixedDelay(
          this::reloadIfChanged, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Reads {@code file} and checks it for changes every {@code pollMillis} (0: never; only {@link
   * #reload} then reads it again).
   *
   * @throws IllegalArgumentException naming the file and the offending entry when it is malformed
   */
  public static TokenReloader watch(Path file, long pollMillis) {
    if (pollMillis < 0) {
      throw new IllegalArgumentException("pollMillis must not be negative; got " + pollMillis);
    }
    byte[] bytes = TokensFile.readBytes(file);
    TokenAuthenticator initial = TokensFile.read(file);
    return new TokenReloader(file, initial, digest(bytes), pollMillis);
  }

  @Override
  public Optional<Access> authenticate(String bearerToken) {
    return current.get().authenticate(bearerToken);
  }

  /** How many tokens are in force. */
  public int size() {
    return current.get().size();
  }

  /**
   * Reads the file now, whether or not it changed (SIGHUP).
   *
   * @return whether the file was taken; false when it was refused (logged) and the old tokens stay
   */
  public synchronized boolean reload() {
    byte[] bytes;
    try {
      bytes = TokensFile.readBytes(file);
    } catch (IllegalArgumentException e) {
      LOG.error("{}; the tokens in force stay", e.getMessage());
      return false;
    }
    lastSeen = digest(bytes);
    return take(bytes);
  }

  /** Reloads when the file's content differs from what was last looked at. */
  synchronized void reloadIfChanged() {
    try {
      byte[] bytes = Files.readAllBytes(file);
      byte[] digest = digest(bytes);
      if (Arrays.equals(digest, lastSeen)) {
        return;
      }
      lastSeen = digest;
      take(bytes);
    } catch (IOException e) {
      // Mid-replacement or briefly gone: the next check sees the new file.
      LOG.debug("tokens file {} unreadable for now: {}", file, e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("checking the tokens file {} failed; the tokens in force stay", file, e);
    }
  }

  /** Puts the tokens of {@code bytes}, the file's content, in force; or refuses them, logged. */
  private boolean take(byte[] bytes) {
    TokenAuthenticator next;
    try {
      next = TokensFile.parse(bytes);
    } catch (IllegalArgumentException e) {
      LOG.error(
          "refused the changed tokens file {}: {}; the {} tokens in force stay",
          file,
          e.getMessage(),
          current.get().size());
      return false;
    }
    TokensFile.warnIfShared(file);
    current.set(next);
    LOG.info("tokens file {} reloaded: {} tokens in force", file, next.size());
    return true;
  }

  private static byte[] digest(byte[] bytes) {
    return Sha256.newDigest().digest(bytes);
  }

  /**
   * Also reloads on SIGHUP, which would otherwise end the process. Where the platform has no SIGHUP
   * (Windows), says so in the log and relies on the file checks.
   */
  @SuppressWarnings(
      "sunapi") // sun.misc.Signal: the JDK's only way to catch a signal, in jdk.unsupported
  public void reloadOnHangup() {
    try {
      // qualified: an internal JDK API (jdk.unsupported), named in full where it is used, not
      // imported
      sun.misc.SignalHandler before =
          sun.misc.Signal.handle(
              new sun.misc.Signal("HUP"),
              signal -> {
                LOG.info("SIGHUP: reloading the tokens file {}", file);
                reload();
              });
      // qualified: as above
      if (before == sun.misc.SignalHandler.SIG_IGN) {
        // A process started with SIGHUP ignored (nohup does that) keeps it ignored: the JVM will
        // not
        // take it over, and the signal never arrives.
        LOG.warn(
            "SIGHUP is ignored by this process (started under nohup?), so it cannot reload the tokens file;"
                + " the file is reloaded when it changes");
      }
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      LOG.warn(
          "SIGHUP cannot be caught here ({}); the tokens file is reloaded when it changes",
          e.getMessage());
    }
  }

  /** Stops watching the file. */
  @Override
  public void close() {
    poller.shutdownNow();
  }
}
