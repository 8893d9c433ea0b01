package dev.quarry.corpora.registry;

import dev.quarry.engine.CorpusIndex;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An open corpus index with a count of its current users. When the cache retires it (idle, or
 * evicted for room), it closes as soon as the last user is done; {@link #closed()} completes then,
 * so that reopening the same corpus waits for the old writer to let go of the index.
 */
final class OpenCorpus {
  private static final Logger LOG = Logger.getLogger(OpenCorpus.class.getName());
  private final CorpusIndex index;
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private int users;
  private boolean retired;

  OpenCorpus(CorpusIndex index) {
    this.index = index;
  }

  CorpusIndex index() {
    return index;
  }

  synchronized boolean tryAcquire() {
    if (retired) {
      return false;
    }
    users++;
    return true;
  }

  void release() {
    boolean close;
    synchronized (this) {
      users--;
      close = retired && users == 0;
    }
    if (close) {
      closeNow();
    }
  }

  /** Takes no new users; closes now or when the last user releases. */
  void retire() {
    boolean close;
    synchronized (this) {
      if (retired) {
        return;
      }
      retired = true;
      close = users == 0;
    }
    if (close) {
      closeNow();
    }
  }

  CompletableFuture<Void> closed() {
    return closed;
  }

  private void closeNow() {
    try {
      index.close();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "closing corpus '" + index.info().name() + "' failed", e);
    } finally {
      closed.complete(null);
    }
  }
}
