package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes the versions of chunks and source records that no retained revision can see any more, so
 * that retention reclaims space on the cluster as it does in the embedded store.
 *
 * <p>Revision P sees a document when {@code added <= P < superseded}. With O the oldest revision
 * still retained (from the head's published revision and {@code retainedRevisions}), every revision
 * anyone may still read is at least O, so a version with {@code superseded <= O} is visible to none
 * of them. Only such versions are deleted, and O is never above the published revision, which never
 * goes back; a revision above it (being written, or left by a front that died) marks the versions
 * it replaces with its own, higher number, which a roll-back revives. So a reclaim never removes
 * what a retained revision, an unpublished revision or its roll-back needs, whichever front holds
 * the writer lease meanwhile. History entries and idempotency records are never versioned away
 * ({@code superseded} stays live) and are left alone; cursors name a source or a revision, never a
 * version.
 *
 * <p>A revision expires while a search pinned to it may still be running: that search read the head
 * (which still retained it) and then sends its requests, each answered within the request timeout
 * or given up. So a reclaim only goes up to the oldest retained revision as it was at least {@link
 * #settleFor} ago (four request timeouts): any search that found a newer revision retained had its
 * answers by then.
 *
 * <p>It runs on the corpus's writer thread, between mutations and after their receipts were given,
 * under the writer lease (taken without waiting: when another front writes, this one tries again
 * later), so fronts do not repeat each other's work and never race a writer. A failure is logged
 * and the reclaim is tried again after a later publication or at the next idle check; it never
 * fails a write.
 *
 * <p>A corpus being written reclaims every {@link #EVERY} expired revisions ({@link #dueAfter}).
 * One that takes no more writes reclaims what its last writes left once they have settled and it
 * has been idle for a while ({@link #dueWhenIdle}, asked by the front's periodic check), so it ends
 * in the state a corpus written again reaches: every expired version deleted.
 *
 * <p>The retention it reclaims by is this front's {@code retainedRevisions}; it runs only while
 * that is still the value recorded for the deployment ({@link RecordedRetention}), so a front left
 * running after the record changed never deletes what fronts with the new value still answer from.
 */
final class ExpiredVersions {
  private static final Logger LOG = Logger.getLogger(ExpiredVersions.class.getName());

  /**
   * A reclaim runs once the oldest retained revision has moved on this many revisions since the
   * last.
   */
  static final int EVERY = 16;

  /** The most versions one reclaim deletes; the rest go at the next publication. */
  static final int MAX_DOCS = 50_000;

  private final ClusterHttp http;
  private final String index;
  private final WriterLease lease;
  private final LongUnaryOperator oldestRetained;

  /** Whether this front's retention is still the one recorded for the deployment. */
  private final BooleanSupplier retentionRecorded;

  /**
   * How long a revision stays unreclaimed after it expired: longer than any search pinned to it
   * runs.
   */
  private volatile long settleNanos;

  /**
   * How long without a publication by this front makes the corpus idle: a quarter of the default
   * settle time.
   */
  private final long idleNanos;

  /**
   * Oldest retained revisions and when ({@link System#nanoTime}) they were seen, oldest first (both
   * rise); those seen longer than {@link #settleNanos} ago are folded into {@link #settled}. Writer
   * thread only.
   */
  private final ArrayDeque<long[]> seen = new ArrayDeque<>();

  /**
   * The highest oldest retained revision seen at least {@link #settleNanos} ago: what may be
   * reclaimed.
   */
  private long settled;

  /** The bound of this front's last complete reclaim (writer thread only). */
  private long reclaimedThrough;

  /** The highest revision this front published (writer thread only). */
  private long lastPublished;

  /** When ({@link System#nanoTime}) this front last published a revision (writer thread only). */
  private long lastPublishedAt = System.nanoTime();

  /**
   * @param oldestRetained the oldest retained revision when the given one is the published one
   * @param settle how long after it expired a revision's versions may go
   */
  ExpiredVersions(
      ClusterHttp http,
      String index,
      WriterLease lease,
      LongUnaryOperator oldestRetained,
      BooleanSupplier retentionRecorded,
      Duration settle) {
    this.http = http;
    this.index = index;
    this.lease = lease;
    this.oldestRetained = oldestRetained;
    this.retentionRecorded = retentionRecorded;
    this.settleNanos = settle.toNanos();
    this.idleNanos = settle.toNanos() / 4;
  }

  /** The default settle time for a cluster answering each request within {@code requestTimeout}. */
  static Duration settleFor(Duration requestTimeout) {
    return requestTimeout.multipliedBy(4);
  }

  /** For tests: another settle time. */
  void settle(Duration settle) {
    this.settleNanos = settle.toNanos();
  }

  /** Whether revision {@code published} having been published makes a reclaim due. */
  boolean dueAfter(long published) {
    lastPublished = Math.max(lastPublished, published);
    lastPublishedAt = System.nanoTime();
    return settledAfter(published) - reclaimedThrough >= EVERY;
  }

  /**
   * Whether a corpus that this front has published nothing in for a while (a quarter of the settle
   * time it was opened with, one request timeout) holds expired versions it has not reclaimed:
   * those its last publications expired, once they settled (fewer than {@link #EVERY} revisions'
   * worth, or what a cut-short reclaim left). Asks nothing of the cluster.
   */
  boolean dueWhenIdle() {
    if (System.nanoTime() - lastPublishedAt < idleNanos) {
      return false;
    }
    return settledAfter(lastPublished) > reclaimedThrough;
  }

  /**
   * Notes that {@code published} is published now; the oldest retained revision that has settled.
   */
  private long settledAfter(long published) {
    long oldest = oldestRetained.applyAsLong(published);
    long now = System.nanoTime();
    if (oldest > settled && (seen.isEmpty() || seen.peekLast()[1] < oldest)) {
      seen.addLast(new long[] {now, oldest});
    }
    while (!seen.isEmpty() && now - seen.peekFirst()[0] >= settleNanos) {
      settled = Math.max(settled, seen.pollFirst()[1]);
    }
    return settled;
  }

  /**
   * Deletes the versions that no revision retained since the settle time sees: how many it deleted,
   * or -1 when it did not run (another front holds the lease, the cluster failed, or this front's
   * retention is no longer the recorded one; it is tried again after a later publication or at the
   * next idle check).
   */
  long reclaim() {
    try {
      lease.acquire(Duration.ZERO);
    } catch (QuarryException e) {
      LOG.log(
          Level.FINE,
          () ->
              index
                  + ": expired versions not reclaimed now: "
                  + e.getMessage()
                  + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
      return -1;
    }
    try {
      if (!retentionRecorded.getAsBoolean()) {
        LOG.log(
            Level.WARNING,
            () ->
                index
                    + ": expired versions not reclaimed: this server's retainedRevisions is no "
                    + "longer the value recorded for the cluster's corpora; restart it with the recorded value");
        return -1;
      }
      long oldest = settledAfter(CorpusHead.read(http, index).published());
      if (oldest <= 0) {
        return 0;
      }
      JsonNode answer =
          http.json(
                  "POST",
                  "/"
                      + index
                      + "/_delete_by_query?conflicts=proceed&refresh=true&max_docs="
                      + MAX_DOCS,
                  query(oldest))
              .require("reclaiming expired versions")
              .body();
      long deleted = answer.path("deleted").asLong();
      if (answer.path("total").asLong() < MAX_DOCS) {
        reclaimedThrough = oldest;
      }
      LOG.log(
          Level.FINE,
          () ->
              index
                  + ": reclaimed "
                  + deleted
                  + " versions no revision from "
                  + oldest
                  + " on sees");
      return deleted;
    } catch (QuarryException e) {
      LOG.log(Level.WARNING, index + ": reclaiming expired versions failed; tried again later", e);
      return -1;
    } finally {
      lease.release();
    }
  }

  /**
   * Chunks and source records replaced at or before {@code oldest}: visible to no revision from it
   * on.
   */
  static ObjectNode query(long oldest) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.addObject().putObject("terms").putArray("kind").add("chunk").add("source");
    filter.addObject().putObject("range").putObject("superseded").put("lte", oldest);
    return q;
  }
}
