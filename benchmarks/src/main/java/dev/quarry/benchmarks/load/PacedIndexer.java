package dev.quarry.benchmarks.load;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A background thread that indexes new corpus documents into a contender at a fixed rate, in
 * batches through the contender's normal {@link Contender#indexBatch}, while something else is
 * measured on the same index.
 *
 * <p>The pace is a schedule, not a sleep between batches: batch {@code k} is due {@code k *
 * batchSize / docsPerSecond} seconds after {@link #start}. A batch that finishes early waits for
 * the next one's due time; a contender that falls behind gets the next batch at once, back to back,
 * until it catches up, and every batch started a whole interval or more after its due time counts
 * as {@linkplain #lateBatches late}. So every contender is offered the same documents at the same
 * times, and one that cannot keep up shows it in its achieved rate.
 *
 * <p>Documents are {@code corpus.document(firstOrdinal)}, {@code firstOrdinal + 1}, ...: the caller
 * passes the first ordinal its index does not hold, so every batch adds new sources. A batch is
 * read from the corpus before its due time, so reading documents does not delay it.
 *
 * <p>A failure of a batch stops the thread; {@link #checkHealthy} and {@link #stop} throw it, so a
 * trial that loses its load fails instead of measuring an idle index. Stopping never interrupts a
 * batch (an interrupt would close the index's file channels under the contender): the thread
 * finishes the batch in flight and exits. Counters may be read from any thread.
 */
public final class PacedIndexer {
  private final Contender target;
  private final Corpus corpus;
  private final long firstOrdinal;
  private final int batchSize;
  private final long intervalNanos;
  private final CountDownLatch stopSignal = new CountDownLatch(1);
  private final AtomicLong indexedDocuments = new AtomicLong();
  private final AtomicLong lateBatches = new AtomicLong();
  private final Thread thread;
  private volatile Throwable failure;

  /**
   * @param target the index to add documents to; stays open until after {@link #stop}
   * @param corpus where documents come from
   * @param firstOrdinal the ordinal of the first document to index, one the index does not hold
   * @param docsPerSecond the documents per second asked for; more than 0
   * @param batchSize documents per {@link Contender#indexBatch} call; more than 0
   */
  public PacedIndexer(
      Contender target, Corpus corpus, long firstOrdinal, int docsPerSecond, int batchSize) {
    if (docsPerSecond < 1 || batchSize < 1) {
      throw new IllegalArgumentException(
          "docsPerSecond and batchSize must be at least 1; got "
              + docsPerSecond
              + " and "
              + batchSize);
    }
    this.target = target;
    this.corpus = corpus;
    this.firstOrdinal = firstOrdinal;
    this.batchSize = batchSize;
    this.intervalNanos = TimeUnit.SECONDS.toNanos(batchSize) / docsPerSecond;
    this.thread = Thread.ofPlatform().name("paced-indexer").daemon().unstarted(this::run);
  }

  /** Starts indexing; the first batch is due now. */
  public void start() {
    thread.start();
  }

  /** Documents in batches that have returned so far. */
  public long indexedDocuments() {
    return indexedDocuments.get();
  }

  /** Batches started a whole interval or more after their due time: the contender was behind. */
  public long lateBatches() {
    return lateBatches.get();
  }

  /**
   * @throws IOException wrapping the failure that stopped the thread, if one did
   */
  public void checkHealthy() throws IOException {
    Throwable failed = failure;
    if (failed != null) {
      throw new IOException(
          "background indexing failed after " + indexedDocuments() + " documents", failed);
    }
  }

  /**
   * Asks the thread to stop after the batch in flight, waits for it, and reports its failure.
   *
   * @throws IOException wrapping the failure that stopped the thread, if one did
   */
  public void stop() throws IOException, InterruptedException {
    stopSignal.countDown();
    thread.join();
    checkHealthy();
  }

  private void run() {
    long start = System.nanoTime();
    long ordinal = firstOrdinal;
    try {
      for (long batch = 0; ; batch++) {
        List<SourceDocument> documents = new ArrayList<>(batchSize);
        for (int i = 0; i < batchSize; i++) {
          documents.add(corpus.document(ordinal++));
        }
        long due = start + batch * intervalNanos;
        long wait = due - System.nanoTime();
        if (wait > 0 ? stopSignal.await(wait, TimeUnit.NANOSECONDS) : stopSignal.getCount() == 0) {
          return;
        }
        if (-wait >= intervalNanos) {
          lateBatches.incrementAndGet();
        }
        target.indexBatch(documents);
        indexedDocuments.addAndGet(documents.size());
      }
    } catch (InterruptedException e) {
      // Nobody interrupts this thread but its JVM going down: stop quietly.
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      failure = e;
    }
  }
}
