package dev.quarry.engine.index;

import dev.quarry.engine.EngineListener;
import dev.quarry.engine.embed.BackgroundThreads;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.MergePolicy;

/**
 * Lucene's concurrent merge scheduler, with background merge failures (a full disk, most often)
 * logged once per writer with the corpus they belong to, instead of thrown on the merge thread,
 * where they end as a raw stack trace on stderr without saying which corpus failed. Later failures
 * of the same writer are counted and logged at {@code FINE}, so a disk that stays full does not
 * flood the log with one trace per merge attempt.
 *
 * <p>Nothing is lost by not rethrowing: the {@code IndexWriter} records the failure itself before
 * the scheduler sees it (a thread waiting for merges, such as a purge, still gets it), a failed
 * merge leaves the segments it was merging in place, and a commit never depends on a merge.
 *
 * <p>Thread-safe; one per {@code IndexWriter}.
 */
final class LoggingMergeScheduler extends ConcurrentMergeScheduler {
  private static final Logger LOG = Logger.getLogger(LoggingMergeScheduler.class.getName());

  private final String corpus;
  private final EngineListener listener;
  private final AtomicLong failures = new AtomicLong();

  LoggingMergeScheduler(String corpus, EngineListener listener) {
    this.corpus = corpus;
    this.listener = listener;
  }

  @Override
  protected void doMerge(MergeSource mergeSource, MergePolicy.OneMerge merge) throws IOException {
    BackgroundThreads.lowerCurrentThread(); // on the merge's own thread (Lucene starts it)
    long start = System.nanoTime();
    try {
      super.doMerge(mergeSource, merge);
    } finally {
      listener.merged(System.nanoTime() - start);
    }
  }

  @Override
  protected void handleMergeException(Throwable exc) {
    long n = failures.incrementAndGet();
    if (n == 1) {
      LOG.log(
          Level.SEVERE,
          "a background merge of corpus '"
              + corpus
              + "' failed ("
              + exc
              + "); its segments stay as they were and merging is retried later. Further merge failures of this "
              + "corpus are counted, not logged again",
          exc);
    } else {
      LOG.log(
          Level.FINE,
          "background merge failure {0} of corpus ''{1}'': {2}",
          new Object[] {n, corpus, exc});
    }
  }

  /** How many background merges of this writer failed. */
  long failures() {
    return failures.get();
  }
}
