package dev.quarry.extractors.worker;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The parent's handle on one worker process. A call sends one request and waits for its answer;
 * past the deadline the process is killed, and a worker that died for any reason (killed, out of
 * memory, crashed) turns into a typed {@link Failure#EXTRACTION_FAILED}. A dead worker stays dead:
 * the pool replaces it.
 *
 * <p>Used by one thread at a time (the pool hands it out exclusively).
 */
final class WorkerProcess {

  /** The exit status the JVM uses for {@code -XX:+ExitOnOutOfMemoryError}. */
  static final int OUT_OF_MEMORY_EXIT = 3;

  /**
   * How long a worker whose stream broke is given to finish exiting before it is killed. One that
   * broke its stream while alive (an unreadable frame) costs this much once.
   */
  private static final Duration EXIT_GRACE = Duration.ofSeconds(1);

  private final Process process;
  private final DataOutputStream toWorker;
  private final DataInputStream fromWorker;
  private final Frames frames;
  private final int heapMiB;

  /** Set once the process was killed or failed a call; a killed process may still look alive. */
  private volatile boolean broken;

  private WorkerProcess(Process process, Frames frames, int heapMiB) {
    this.process = process;
    this.frames = frames;
    this.heapMiB = heapMiB;
    this.toWorker = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()));
    this.fromWorker =
        new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16));
  }

  /** Starts a worker and waits until it has loaded its extractors. */
  static WorkerProcess start(
      WorkerCommand command, Frames frames, Duration startupTimeout, ScheduledExecutorService timer)
      throws ExtractionException {
    Process process;
    try {
      process =
          new ProcessBuilder(command.toArguments())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "An extraction worker could not be started.",
          ExtractionException.describe(e));
    }
    WorkerProcess worker = new WorkerProcess(process, frames, command.heapMiB());
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> kill =
        timer.schedule(
            () -> {
              timedOut.set(true);
              process.destroyForcibly();
            },
            startupTimeout.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      String ready = frames.read(worker.fromWorker, String.class);
      if (!WorkerMain.READY.equals(ready)) {
        throw new IOException("unexpected greeting");
      }
      return worker;
    } catch (IOException e) {
      process.destroyForcibly();
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          timedOut.get()
              ? "An extraction worker did not start within " + startupTimeout.toSeconds() + " s."
              : "An extraction worker failed to start.");
    } finally {
      kill.cancel(false);
    }
  }

  /**
   * Sends {@code request} and returns the answer, killing the worker if it takes longer than {@code
   * deadline}.
   */
  WorkerResponse call(WorkerRequest request, Duration deadline, ScheduledExecutorService timer)
      throws ExtractionException {
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> kill =
        timer.schedule(
            () -> {
              timedOut.set(true);
              process.destroyForcibly();
            },
            Math.max(1, deadline.toMillis()),
            TimeUnit.MILLISECONDS);
    try {
      frames.write(toWorker, request);
      WorkerResponse response = frames.read(fromWorker, WorkerResponse.class);
      if (!kill.cancel(false)) {
        broken = true; // the deadline struck just as the answer arrived: the worker is gone
      }
      return response;
    } catch (IOException e) {
      kill.cancel(false);
      // Read why it died before killing it: a kill of a worker that is still on its way out
      // would replace the exit status that says why (3 for out of memory) with the kill's.
      String why = whyDied(timedOut.get(), deadline);
      destroy();
      throw new ExtractionException(Failure.EXTRACTION_FAILED, why);
    }
  }

  private String whyDied(boolean timedOut, Duration deadline) {
    if (timedOut) {
      return "The document took longer than the extraction time limit of "
          + describe(deadline)
          + " and its extraction was stopped.";
    }
    Integer exit = exitStatus();
    if (exit != null && exit == OUT_OF_MEMORY_EXIT) {
      return "The document needed more than the extraction memory limit of "
          + heapMiB
          + " MiB and its extraction was stopped.";
    }
    return "The extraction worker died while reading the document"
        + (exit == null ? "." : " (exit status " + exit + ").");
  }

  /** The worker's exit status, or null if it has not exited within a short grace. */
  private Integer exitStatus() {
    try {
      return process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)
          ? process.exitValue()
          : null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static String describe(Duration deadline) {
    return deadline.toMillis() % 1000 == 0
        ? deadline.toSeconds() + " s"
        : deadline.toMillis() + " ms";
  }

  /** Whether the worker can take another request; false once killed, even before it exits. */
  boolean isAlive() {
    return !broken && process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** Kills the process; used by the pool and by tests that kill a worker mid-document. */
  void destroy() {
    broken = true;
    process.destroyForcibly();
  }

  /** Asks the worker to exit by closing its stdin; kills it if it does not. */
  void close(Duration grace) {
    try {
      toWorker.close();
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
