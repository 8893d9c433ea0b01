package dev.quarry.engine.embed;

/**
 * Gives the embedding of search queries the cores first. A query is waited on by a person or an
 * agent, a passage by an ingestion that takes minutes; both run the same model on the same cores,
 * one text per call, and a call cannot be interrupted. So while queries are being embedded, fewer
 * passage calls start: at most {@code cores} minus the queries in progress, and never fewer than
 * one, so ingestion always moves on. Passage calls already running finish; a query waits at most
 * for the share of a core they still take.
 *
 * <p>On a 2-core machine with a passage pool of 2 threads: idle, both embed passages; while one
 * query is embedded, one passage call runs beside it, so the query has a core of its own once the
 * call in progress ends. It changes when a passage is embedded, never its vector.
 *
 * <p>Thread-safe; one per process, shared by the passage pool and every model's query path.
 */
public final class QueryPriority {
  private final int cores;

  /** Queries being embedded, and passage calls running; under this object's lock. */
  private int queries;

  private int passages;

  /**
   * @param cores the cores the model calls share (the passage pool's threads)
   */
  public QueryPriority(int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be at least 1; got " + cores);
    }
    this.cores = cores;
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
    notifyAll();
  }

  /**
   * Waits until a passage call may start, and counts it as running.
   *
   * @throws InterruptedException when the pool is shut down while it waits
   */
  public synchronized void passageStarting() throws InterruptedException {
    while (passages >= passageSlots()) {
      wait();
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
    return Math.max(1, cores - queries);
  }
}
