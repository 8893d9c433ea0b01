package dev.quarry.corpora.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;
import java.time.Duration;
import java.util.function.LongUnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes the versions of chunks and source records that no retained revision can see any more,
 * so that retention reclaims space on the cluster as it does in the embedded store.
 *
 * <p>Revision P sees a document when {@code added <= P < superseded}. With O the oldest revision
 * still retained (from the head's published revision and {@code retainedRevisions}), every
 * revision anyone may still read is at least O, so a version with {@code superseded <= O} is
 * visible to none of them. Only such versions are deleted, and O is never above the published
 * revision, which never goes back; a revision above it (being written, or left by a front that
 * died) marks the versions it replaces with its own, higher number, which a roll-back revives. So a
 * reclaim never removes what a retained revision, an unpublished revision or its roll-back needs,
 * whichever front holds the writer lease meanwhile. History entries and idempotency records are
 * never versioned away ({@code superseded} stays live) and are left alone; cursors name a source
 * or a revision, never a version.
 *
 * <p>It runs on the corpus's writer thread, between mutations and after their receipts were given,
 * under the writer lease (taken without waiting: when another front writes, this one tries again
 * later), so fronts do not repeat each other's work. A failure is logged and the reclaim is tried
 * again after a later publication; it never fails a write.
 */
final class ExpiredVersions {
  private static final Logger LOG = Logger.getLogger(ExpiredVersions.class.getName());
  /** A reclaim runs once the oldest retained revision has moved on this many revisions since the last. */
  static final int EVERY = 16;
  /** The most versions one reclaim deletes; the rest go at the next publication. */
  static final int MAX_DOCS = 50_000;

  private final ClusterHttp http;
  private final String index;
  private final WriterLease lease;
  private final LongUnaryOperator oldestRetained;
  /** The oldest retained revision when this front last reclaimed everything below it (writer thread only). */
  private long reclaimedThrough;

  /**
   * @param oldestRetained the oldest retained revision when the given one is the published one
   */
  ExpiredVersions(ClusterHttp http, String index, WriterLease lease, LongUnaryOperator oldestRetained) {
    this.http = http;
    this.index = index;
    this.lease = lease;
    this.oldestRetained = oldestRetained;
  }

  /** Whether revision {@code published} having been published makes a reclaim due. */
  boolean dueAfter(long published) {
    return oldestRetained.applyAsLong(published) - reclaimedThrough >= EVERY;
  }

  /**
   * Deletes the versions that no retained revision sees, as of the head's published revision now:
   * how many it deleted, or -1 when it did not run (another front holds the lease, or the cluster
   * failed; it is tried again later).
   */
  long reclaim() {
    try {
      lease.acquire(Duration.ZERO);
    } catch (QuarryException e) {
      LOG.log(Level.FINE, () -> index + ": expired versions not reclaimed now: " + e.getMessage());
      return -1;
    }
    try {
      long oldest = oldestRetained.applyAsLong(CorpusHead.read(http, index).published());
      if (oldest <= 0) {
        return 0;
      }
      JsonNode answer = http.json("POST", "/" + index + "/_delete_by_query?conflicts=proceed&refresh=true&max_docs="
          + MAX_DOCS, query(oldest)).require("reclaiming expired versions").body();
      long deleted = answer.path("deleted").asLong();
      if (answer.path("total").asLong() < MAX_DOCS) {
        reclaimedThrough = oldest;
      }
      LOG.log(Level.FINE, () -> index + ": reclaimed " + deleted + " versions no revision from " + oldest + " on sees");
      return deleted;
    } catch (QuarryException e) {
      LOG.log(Level.WARNING, index + ": reclaiming expired versions failed; tried again after a later publication", e);
      return -1;
    } finally {
      lease.release();
    }
  }

  /** Chunks and source records replaced at or before {@code oldest}: visible to no revision from it on. */
  static ObjectNode query(long oldest) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.addObject().putObject("terms").putArray("kind").add("chunk").add("source");
    filter.addObject().putObject("range").putObject("superseded").put("lte", oldest);
    return q;
  }
}
