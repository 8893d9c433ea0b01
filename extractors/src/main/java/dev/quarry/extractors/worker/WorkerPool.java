package dev.quarry.extractors.worker;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded pool of long-lived worker processes. Each document takes one worker for its whole
 * extraction; when all are busy a caller waits, and when {@code queueCapacity} callers already wait
 * it is refused at once with {@link Failure#CAPACITY}. Workers start on first use; a worker that
 * died (deadline, memory, crash) is started afresh by the next document that needs its place.
 *
 * <p>The place released last is taken first, and places without a live worker last: documents that
 * come one at a time all go to one warm worker (its classes loaded, its code compiled), and another
 * worker starts only when every live one is busy. Taking places in turn would start every worker of
 * the pool for a trickle of documents, each one cold.
 *
 * <p>Thread safe. The owner closes it, which ends every worker; a worker also ends on its own when
 * this process dies, since its stdin then closes.
 */
public final class WorkerPool implements AutoCloseable {

  /**
   * Starting a JVM and loading Tika's parsers takes seconds on a busy machine; a minute is stuck.
   */
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  /** How long a closing worker may take to exit after its stdin closes. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

  private final WorkerCommand command;
  private final int queueCapacity;
  private final Frames frames = new Frames();

  /** Idle places: those with a live worker first, the one released last at the head. */
  private final BlockingDeque<Slot> idle;

  private final Set<Slot> busy = ConcurrentHashMap.newKeySet();
  private final List<Slot> all = new ArrayList<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicLong refused = new AtomicLong();
  private final ScheduledExecutorService timer;
  private volatile boolean closed;

  /**
   * One place in the pool; holds a live worker, or null until one is started. A slot is idle (in
   * {@code idle}) or held by one caller (in {@code busy}), never both: {@link #take} and {@link
   * #release} check the moves between the two. The deque hands a slot from thread to thread, which
   * orders their reads and writes of its fields.
   */
  private static final class Slot {
    WorkerProcess worker;
    private boolean held;

    void take() {
      assert !held : "an extraction slot was taken while held";
      held = true;
    }

    void release() {
      assert held : "an extraction slot was released without being taken";
      held = false;
    }

    boolean held() {
      return held;
    }
  }

  public WorkerPool(WorkerCommand command, int size, int queueCapacity) {
    this.command = Objects.requireNonNull(command, "command");
    if (size < 1) {
      throw new IllegalArgumentException("size must be at least 1, got " + size);
    }
    if (queueCapacity < 0) {
      throw new IllegalArgumentException("queueCapacity must be at least 0, got " + queueCapacity);
    }
    this.queueCapacity = queueCapacity;
    this.idle = new LinkedBlockingDeque<>(size);
    for (int i = 0; i < size; i++) {
      Slot slot = new Slot();
      all.add(slot);
      idle.add(slot);
    }
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-extraction-deadlines");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Extracts one document in a worker.
   *
   * @throws ExtractionException the document's typed failure, {@link Failure#CAPACITY} when the
   *     pool and its queue are full, or {@link Failure#EXTRACTION_FAILED} when the worker ran past
   *     {@code deadline} or died
   * @throws IllegalStateException when the pool is closed
   */
  public Extraction extract(WorkerRequest request, Duration deadline) throws ExtractionException {
    Slot slot = acquire();
    slot.take();
    busy.add(slot);
    try {
      if (closed) {
        throw new IllegalStateException("the extraction pool is closed");
      }
      if (slot.worker == null || !slot.worker.isAlive()) {
        slot.worker = WorkerProcess.start(command, frames, STARTUP_TIMEOUT, timer);
      }
      return slot.worker.call(request, deadline, timer).extractionOrThrow();
    } finally {
      busy.remove(slot);
      if (slot.worker != null && !slot.worker.isAlive()) {
        slot.worker = null;
      }
      if (closed && slot.worker != null) {
        slot.worker.close(CLOSE_GRACE);
        slot.worker = null;
      }
      slot.release();
      if (slot.worker != null) {
        idle.addFirst(slot);
      } else {
        idle.addLast(slot); // behind every idle live worker, so none starts while one waits
      }
    }
  }

  private Slot acquire() throws ExtractionException {
    if (closed) {
      throw new IllegalStateException("the extraction pool is closed");
    }
    Slot slot = idle.pollFirst();
    if (slot != null) {
      return slot;
    }
    if (waiting.incrementAndGet() > queueCapacity) {
      waiting.decrementAndGet();
      refused.incrementAndGet();
      throw new ExtractionException(
          Failure.CAPACITY,
          "All extraction workers are busy and "
              + queueCapacity
              + " documents already wait; try again later.");
    }
    try {
      return idle.takeFirst();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The extraction was interrupted.");
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** Process ids of the workers now running; for tests and diagnostics. */
  List<Long> workerPids() {
    List<Long> pids = new ArrayList<>();
    for (Slot slot : all) {
      WorkerProcess worker = slot.worker;
      if (worker != null && worker.isAlive()) {
        pids.add(worker.pid());
      }
    }
    return pids;
  }

  /** How many documents are being extracted right now. */
  public int busyCount() {
    return busy.size();
  }

  /** The pool's places: how many documents may be extracted at once. */
  public int size() {
    return all.size();
  }

  /** How many documents wait for a worker right now. */
  public int waitingCount() {
    return Math.min(waiting.get(), queueCapacity);
  }

  /** How many documents were refused with CAPACITY since the pool was built. */
  public long refusedCount() {
    return refused.get();
  }

  /** Kills the workers that are extracting right now, as a crash would; for tests. */
  void destroyBusyWorkers() {
    for (Slot slot : busy) {
      WorkerProcess worker = slot.worker;
      if (worker != null) {
        worker.destroy();
      }
    }
  }

  /** Ends every worker: idle ones are asked to exit, busy ones are killed (their callers fail). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<Slot> drained = new ArrayList<>();
    idle.drainTo(drained);
    for (Slot slot : drained) {
      assert !slot.held() : "an idle extraction slot is held";
      if (slot.worker != null) {
        slot.worker.close(CLOSE_GRACE);
        slot.worker = null;
      }
      idle.add(slot);
    }
    destroyBusyWorkers();
    timer.shutdown();
  }
}
