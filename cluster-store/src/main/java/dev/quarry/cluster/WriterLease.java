package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A front's right to write one corpus, held in the corpus's {@code lease} document for one batch at
 * a time. It is taken by creating the document (or by compare-and-set over an expired one), renewed
 * before the publishing step, and released by deleting it, each conditioned on the sequence number
 * seen last, so two fronts never hold it at once. A front that dies holding it stops others for at
 * most the lease's time to live; fronts must keep their clocks roughly in step (the TTL is compared
 * against the taker's wall clock).
 */
final class WriterLease {
  private final ClusterHttp http;
  private final String index;
  private final String owner;
  private final Duration ttl;
  private final Clock clock;
  private long seqNo = -1;
  private long primaryTerm = -1;

  /** When ({@link System#nanoTime}) the request that took or renewed the lease last was sent. */
  private long heldSince;

  WriterLease(ClusterHttp http, String index, String owner, Duration ttl, Clock clock) {
    this.http = http;
    this.index = index;
    this.owner = owner;
    this.ttl = ttl;
    this.clock = clock;
  }

  /** The front that takes this lease (it names the front's batches in the corpus's head). */
  String owner() {
    return owner;
  }

  private ObjectNode body() {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "lease").put("owner", owner).put("expires", clock.millis() + ttl.toMillis());
    return doc;
  }

  /**
   * Takes the lease, waiting while another live front holds it, for at most {@code wait}:
   * UNAVAILABLE once that passed. Returns true when the previous holder's lease had expired (it may
   * have left an unpublished revision behind).
   */
  boolean acquire(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    String path = "/" + index + "/_doc/" + CorpusDocs.LEASE_ID;
    while (true) {
      heldSince = System.nanoTime();
      // Released after every batch, so usually there is none: created at once, without reading it
      // first.
      // (A creation or a take-over whose answer was lost and which was refused when sent again is
      // found below as this front's own lease, and taken again by compare-and-set.)
      ClusterHttp.Answer created = http.json("PUT", path + "?op_type=create", body());
      if (created.ok()) {
        remember(created.body());
        return false;
      }
      if (created.status() != 409) {
        created.require("taking the writer lease");
      }
      // Held (or released meanwhile: then it is created on the next turn).
      ClusterHttp.Answer current = http.get(path);
      if (current.status() != 404) {
        current.require("reading the writer lease");
        JsonNode s = current.body().path("_source");
        boolean expired = s.path("expires").asLong() < clock.millis();
        if (expired || owner.equals(s.path("owner").asText())) {
          heldSince = System.nanoTime();
          ClusterHttp.Answer a =
              http.json(
                  "PUT",
                  path
                      + "?if_seq_no="
                      + current.body().path("_seq_no").asLong()
                      + "&if_primary_term="
                      + current.body().path("_primary_term").asLong(),
                  body());
          if (a.ok()) {
            remember(a.body());
            return expired && !owner.equals(s.path("owner").asText());
          }
          if (a.status() != 409) {
            a.require("taking over the writer lease");
          }
        }
      }
      if (System.nanoTime() > deadline) {
        throw new QuarryException(
            ErrorCode.UNAVAILABLE,
            "another server holds the corpus's writer lease; try again",
            null,
            false,
            null);
      }
      try {
        Thread.sleep(5 + ThreadLocalRandom.current().nextInt(20));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QuarryException(
            ErrorCode.UNAVAILABLE, "interrupted while waiting for the writer lease", e);
      }
    }
  }

  /**
   * Extends the lease held since {@link #acquire}: false when it was lost (expired and taken over),
   * in which case nothing may be published.
   */
  boolean renew() {
    long sent = System.nanoTime();
    String path = "/" + index + "/_doc/" + CorpusDocs.LEASE_ID;
    ObjectNode renewed = body();
    ClusterHttp.Answer a =
        http.json("PUT", path + "?if_seq_no=" + seqNo + "&if_primary_term=" + primaryTerm, renewed);
    if (a.status() == 409) {
      if (!a.resent()) {
        return false;
      }
      // Refused when sent again: the first attempt may have renewed it (then the lease holds this
      // renewal, and it is still this front's); otherwise another front took it over.
      ClusterHttp.Answer current = http.get(path);
      if (current.status() == 404) {
        return false;
      }
      JsonNode held = current.require("reading the writer lease").body().path("_source");
      if (!owner.equals(held.path("owner").asText())
          || held.path("expires").asLong() != renewed.path("expires").asLong()) {
        return false;
      }
      a = current;
    } else {
      a.require("renewing the writer lease");
    }
    remember(a.body());
    heldSince = sent;
    return true;
  }

  /**
   * Renews the lease just before a write request of the batch is sent, so that the request leaves
   * with a fresh lease: false when the lease was lost (another front may have rolled this batch's
   * revision back and be writing it itself: nothing more may be written), or when this front
   * stalled for half the lease's time to live since the renewal (a pause of the process) and can no
   * longer be sure to hold it when the request lands.
   */
  boolean renewBeforeWrite() {
    return renew() && System.nanoTime() - heldSince < ttl.toNanos() / 2;
  }

  /**
   * Gives the lease up so that another front may write at once; a lease already lost is left alone.
   */
  void release() {
    try {
      http.send(
          "DELETE",
          "/"
              + index
              + "/_doc/"
              + CorpusDocs.LEASE_ID
              + "?if_seq_no="
              + seqNo
              + "&if_primary_term="
              + primaryTerm,
          null,
          null);
    } catch (QuarryException e) {
      // It expires on its own.
    }
  }

  private void remember(JsonNode answer) {
    seqNo = answer.path("_seq_no").asLong();
    primaryTerm = answer.path("_primary_term").asLong();
  }
}
