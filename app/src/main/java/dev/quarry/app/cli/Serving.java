package dev.quarry.app.cli;

import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.function.Supplier;

/** Starts a server, announces it, and keeps it up until the process is asked to stop. */
final class Serving {
  private Serving() {}

  /**
   * Starts the server, runs {@code prepare} on it, prints {@code listening on URL} and then the
   * text {@code prepare} returned (none when null), then blocks until SIGTERM/SIGINT, whose
   * shutdown hook closes the server (in-flight requests finish, every corpus is committed and
   * closed) and then runs {@code afterStop} (at once instead when the server could not start).
   *
   * <p>The {@code listening on} line comes only once {@code prepare} is done, so a script that
   * waits for it finds the server as it will be used (the demo's sample corpus indexed), even
   * though {@code prepare} may already send it requests.
   *
   * @return the process exit code: 0; 2 when a setting stopped start-up (as for a config file that
   *     cannot be read); 1 when the server could not start otherwise (the process exits with 1 when
   *     {@code prepare} fails)
   */
  static int serveUntilStopped(
      Supplier<QuarryServer> start, Function<QuarryServer, String> prepare, Runnable afterStop)
      throws InterruptedException {
    QuarryServer server;
    try {
      server = start.get();
    } catch (QuarryException e) {
      // The operator's console: the cause is told too (a client's answer would keep it for the
      // log),
      // unless the message already tells it.
      Throwable cause = e.getCause();
      boolean told =
          cause == null
              || cause.getMessage() == null
              || ErrorResponses.repeats(e.getMessage(), cause);
      System.err.println(
          "quarry: " + e.getMessage() + (told ? "" : " (" + cause.getMessage() + ")"));
      afterStop.run();
      // No client request exists yet: an invalid one is a setting of this server that what it opens
      // refuses (a cluster deployment recorded with another retainedRevisions): a config error.
      return e.code() == ErrorCode.INVALID_REQUEST ? 2 : 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                  } finally {
                    afterStop.run();
                    stopped.countDown();
                  }
                },
                "quarry-shutdown"));
    String told = null;
    try {
      told = prepare.apply(server);
    } catch (RuntimeException e) {
      System.err.println("quarry: " + e.getMessage());
      System.exit(1); // runs the shutdown hook, which closes the server
    }
    System.out.println("listening on " + server.url());
    if (told != null) {
      System.out.println(told);
    }
    System.out.flush();
    stopped.await();
    return 0;
  }
}
