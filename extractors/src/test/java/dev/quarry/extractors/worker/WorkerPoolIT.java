package dev.quarry.extractors.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.SharedDocs;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pool's isolation: killed workers cost one document, a full pool refuses, close ends workers.
 */
class WorkerPoolIT {

  private static final Duration DEADLINE = Duration.ofSeconds(120);
  private static WorkerPool pool;

  @BeforeAll
  static void startPool() {
    pool = new WorkerPool(WorkerCommand.ofCurrentJvm(512), 1, 0);
  }

  @AfterAll
  static void closePool() {
    if (pool != null) {
      pool.close();
    }
  }

  private static WorkerRequest request(String goodFile) {
    return new WorkerRequest(SharedDocs.good(goodFile).toString(), null, 2_000, 20_000_000, true);
  }

  /**
   * Starts a long extraction on another thread and waits until a worker of {@code inPool} holds it.
   */
  private static CompletableFuture<Extraction> startLongExtraction(WorkerPool inPool)
      throws Exception {
    inPool.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE); // a worker is up
    CompletableFuture<Extraction> running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return inPool.extract(request("pdfjs__freeculture.pdf"), DEADLINE);
              } catch (ExtractionException e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });
    while (inPool.busyCount() == 0 && !running.isDone()) {
      Thread.sleep(5);
    }
    return running;
  }

  @Test
  void extract_workerKilledMidDocument_isExtractionFailed_andNextDocumentSucceeds()
      throws Exception {
    CompletableFuture<Extraction> running = startLongExtraction(pool);
    pool.destroyBusyWorkers();
    Throwable failure = assertThrows(Exception.class, running::join).getCause();
    ExtractionException typed = (ExtractionException) failure;
    assertEquals(Failure.EXTRACTION_FAILED, typed.failure());
    Extraction next = pool.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE);
    assertTrue(next.text().contains("abcdef"));
  }

  @Test
  void extract_everyWorkerBusyAndNoQueue_isCapacity() throws Exception {
    CompletableFuture<Extraction> running = startLongExtraction(pool);
    try {
      assertEquals(0, pool.refusedCount());
      ExtractionException refused =
          assertThrows(
              ExtractionException.class,
              () -> pool.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE));
      assertEquals(Failure.CAPACITY, refused.failure());
      assertTrue(refused.failure().retryable());
      assertEquals(1, pool.refusedCount(), "the refusal is counted, for metrics");
      assertEquals(1, pool.busyCount());
      assertEquals(0, pool.waitingCount(), "a refused document does not count as waiting");
    } finally {
      running.join();
    }
  }

  @Test
  void worker_stdinClosed_exitsByItself() throws Exception {
    Process worker =
        new ProcessBuilder(WorkerCommand.ofCurrentJvm(256).toArguments())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String ready =
          new Frames().read(new java.io.DataInputStream(worker.getInputStream()), String.class);
      assertEquals(WorkerMain.READY, ready);
      worker.getOutputStream().close(); // what the parent's death does to the pipe
      assertTrue(worker.waitFor(30, TimeUnit.SECONDS), "the worker exits once its parent is gone");
      assertEquals(0, worker.exitValue(), "it exited on its own rather than being killed");
    } finally {
      worker.destroyForcibly();
    }
  }

  @Test
  void extract_documentsOneAtATime_goToOneWarmWorker_andASecondStartsOnlyForOverlap()
      throws Exception {
    try (WorkerPool own = new WorkerPool(WorkerCommand.ofCurrentJvm(256), 2, 0)) {
      for (int i = 0; i < 3; i++) {
        own.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE);
      }
      List<Long> sequential = own.workerPids();
      assertEquals(1, sequential.size(), "one document at a time needs one worker: " + sequential);

      CompletableFuture<Extraction> running = startLongExtraction(own);
      // The long document (seconds) holds the warm worker while the short one is taken.
      assertEquals(1, own.busyCount(), "the long document is being extracted");
      own.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE);
      running.join();
      List<Long> after = own.workerPids();
      assertTrue(after.containsAll(sequential), "the warm worker is kept: " + after);
      assertEquals(2, after.size(), "two documents at once take two workers: " + after);
    }
  }

  @Test
  void close_endsTheWorkerProcesses() throws Exception {
    WorkerPool own = new WorkerPool(WorkerCommand.ofCurrentJvm(256), 1, 0);
    own.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE);
    List<Long> pids = own.workerPids();
    assertEquals(1, pids.size());
    ProcessHandle worker = ProcessHandle.of(pids.get(0)).orElseThrow();
    own.close();
    worker.onExit().get(30, TimeUnit.SECONDS);
    assertFalse(worker.isAlive());
    assertThrows(
        IllegalStateException.class,
        () -> own.extract(request("pdfjs__copy_paste_ligatures.pdf"), DEADLINE));
  }
}
