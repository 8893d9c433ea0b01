package dev.quarry.engine.embed;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Gives the embedding of search queries the cores first. A query is waited on by a person or an
 * agent, a passage by an ingestion that takes minutes; both run the same model on the same cores,
 * one text per call, and a call cannot be interrupted. So while queries are being embedded, fewer
 * passage calls start: at most {@code cores} minus the queries in progress, and never fewer than
 * one, so ingestion always moves on. Passage calls already running finish; a query waits at most
 * for the share of a core they still take.
 *
 * <p>Searches come in runs (a person refining a query, an agent's next step), so after a query ends
 * the passages keep leaving it a core for {@link #QUERY_RESERVE}: the next query then finds a core
 * free instead of two passage calls it cannot interrupt. Ingestion takes every core again once no
 * query has been embedded for that long.
 *
 * <p>On a 2-core machine with a passage pool of 2 threads: idle, both embed passages; while a query
 * is embedded, and for a second after, one passage call runs, so the query has a core of its own
 * (once the call in progress ends, for the first query of a run). It changes when a passage is
 * embedded, never its vector. The rest of ingestion (and the passage calls too) yields to queries
 * by the operating system's priorities instead ({@link BackgroundThreads}).
 *
 * <p>Thread-safe; one per process, shared by the passage pool and every model's query path.
 */
public final class QueryPriority {
  /** How long after a query ends the passages keep a core free for the next one. */
  public static final Duration QUERY_RESERVE = Duration.ofSeconds(1);

  private final int cores;
  private final LongSupplier nanoTime;

  /** Queries being embedded, and passage calls running; under this object's lock. */
  private int queries;

  private int passages;

  /** When the last query ended ({@link #nanoTime}); valid once {@link #anyQueryEnded}. */
  private long lastQueryEnded;

  private boolean anyQueryEnded;

  /**
   * @param cores the cores the model calls share (the passage pool's threads)
   */
  public QueryPriority(int cores) {
    this(cores, System::nanoTime);
  }

  QueryPriority(int cores, LongSupplier nanoTime) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be at least 1; got " + cores);
    }
    this.cores = cores;
    this.nanoTime = nanoTime;
  }

  /** The cores the model calls share: the passage pool's threads. */
  public int cores() {
    return cores;
  }

  /** A query's embedding begins: passage calls that have not started yet make room for it. */
  public synchronized void queryStarted() {
    queries++;
  }

  public synchronized void queryEnded() {
    assert queries > 0 : "a query ended that never started";
    queries--;
    lastQueryEnded = nanoTime.getAsLong();
    anyQueryEnded = true;
    notifyAll();
  }

  /**
   * Waits until a passage call may start, and counts it as running.
   *
   * @throws InterruptedException when the pool is shut down while it waits
   */
  public synchronized void passageStarting() throws InterruptedException {
    while (passages >= passageSlots()) {
      long reserveLeft = reserveLeftNanos();
      // A slot held for queries opens by itself when the reserve ends: wait until then at most.
      wait(reserveLeft > 0 ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(reserveLeft)) : 0);
    }
    passages++;
  }

  public synchronized void passageEnded() {
    assert passages > 0 : "a passage ended that never started";
    passages--;
    notifyAll();
  }

  /** How many passage calls may run now. */
  synchronized int passageSlots() {
    int heldForQueries = queries > 0 ? queries : reserveLeftNanos() > 0 ? 1 : 0;
    return Math.max(1, cores - heldForQueries);
  }

  /** How long the core kept for the next query stays kept, with no query running; 0 when not. */
  private long reserveLeftNanos() {
    if (queries > 0 || !anyQueryEnded) {
      return 0;
    }
    return Math.max(0, QUERY_RESERVE.toNanos() - (nanoTime.getAsLong() - lastQueryEnded));
  }
}
