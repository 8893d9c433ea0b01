package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.Objects;
import java.util.Optional;

/**
 * The head document of a corpus, as read with its sequence number and primary term: the published
 * revision (what every search sees) and the revision being written, if any, each with the batch
 * that published or marked it ({@code publishedBy}, {@code writingBy}: null for a head written
 * before batches were named, and for revision 0). It only ever changes by compare-and-set on those
 * two numbers, so of two fronts racing to move it one wins.
 *
 * <p>The batch names make a compare-and-set's outcome decidable when its answer was lost and the
 * request sent again was refused (its own first attempt may have moved the head): the head read
 * then names the batch that moved it (see {@link Swap.RefusedAfterResend}).
 */
record CorpusHead(
    long published,
    Long writing,
    String publishedBy,
    String writingBy,
    long seqNo,
    long primaryTerm) {

  /** Reads the head with a real-time GET (never stale, whatever the last refresh). */
  static CorpusHead read(ClusterHttp http, String index) {
    return find(http, index)
        .orElseThrow(
            () ->
                new QuarryException(
                    ErrorCode.CORPUS_NOT_FOUND, "the corpus's index is gone from the cluster"));
  }

  /**
   * The head, or empty when the corpus was deleted: its index is gone, or its head is (deleting a
   * corpus deletes the head first, before its registry entry, so a head that is found proves that
   * the corpus was not deleted when it was read).
   */
  static Optional<CorpusHead> find(ClusterHttp http, String index) {
    ClusterHttp.Answer a = http.get("/" + index + "/_doc/" + CorpusDocs.HEAD_ID);
    if (a.status() == 404) {
      return Optional.empty();
    }
    a.require("reading the corpus head");
    JsonNode s = a.body().path("_source");
    return Optional.of(
        new CorpusHead(
            s.path("published").asLong(),
            s.hasNonNull("writing") ? s.get("writing").asLong() : null,
            text(s, "published_by"),
            text(s, "writing_by"),
            a.body().path("_seq_no").asLong(),
            a.body().path("_primary_term").asLong()));
  }

  private static String text(JsonNode s, String field) {
    return s.hasNonNull(field) ? s.get(field).asText() : null;
  }

  /** A new corpus's head: revision 0 published, nothing being written. */
  static ObjectNode body(long published, Long writing) {
    return new CorpusHead(published, writing, null, null, -1, -1).body();
  }

  private ObjectNode body() {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "head").put("published", published);
    if (writing == null) {
      doc.putNull("writing");
    } else {
      doc.put("writing", writing);
    }
    doc.put("published_by", publishedBy).put("writing_by", writingBy);
    return doc;
  }

  /** What a compare-and-set of the head came to. */
  sealed interface Swap {
    /** The head this call wrote, if it was written. */
    default Optional<CorpusHead> done() {
      return this instanceof Done d ? Optional.of(d.head()) : Optional.empty();
    }

    /** Applied: the head it wrote, with the sequence number the cluster gave it. */
    record Done(CorpusHead head) implements Swap {}

    /**
     * Refused at its only attempt: another writer moved the head first; this call changed nothing.
     */
    record Refused() implements Swap {}

    /**
     * Refused when sent again after an attempt that may have reached the cluster but lost its
     * answer, and the head read since ({@code found}; empty when the corpus is gone) is not the one
     * this call would have left: the first attempt may have been applied and the head moved on
     * since, or another writer moved the head first. The caller decides from {@code found}.
     */
    record RefusedAfterResend(Optional<CorpusHead> found) implements Swap {}
  }

  /** Marks revision {@code r} as being written by {@code batch} (the published revision stays). */
  Swap mark(ClusterHttp http, String index, long r, String batch) {
    return swap(http, index, new CorpusHead(published, r, publishedBy, batch, -1, -1));
  }

  /** Publishes the revision being written, as {@code batch}'s: every search sees it from now on. */
  Swap publish(ClusterHttp http, String index, String batch) {
    return swap(
        http,
        index,
        new CorpusHead(
            Objects.requireNonNull(writing, "nothing is being written"),
            null,
            batch,
            null,
            -1,
            -1));
  }

  /** Says nothing is being written any more (after the revision being written was rolled back). */
  Swap clearWriting(ClusterHttp http, String index) {
    return swap(http, index, new CorpusHead(published, null, publishedBy, null, -1, -1));
  }

  /**
   * Replaces this head with {@code next} if nobody changed it since it was read. A refusal after
   * the request was sent again (its first attempt lost its answer, and may have been applied) is
   * checked by reading the head: when it is {@code next} (the batch names make it this call's
   * write), the call was applied.
   */
  private Swap swap(ClusterHttp http, String index, CorpusHead next) {
    ClusterHttp.Answer a =
        http.json(
            "PUT",
            "/"
                + index
                + "/_doc/"
                + CorpusDocs.HEAD_ID
                + "?if_seq_no="
                + seqNo
                + "&if_primary_term="
                + primaryTerm,
            next.body());
    if (a.status() == 409) {
      if (!a.resent()) {
        return new Swap.Refused();
      }
      Optional<CorpusHead> found = find(http, index);
      if (found.isPresent() && found.get().sameState(next)) {
        return new Swap.Done(found.get());
      }
      return new Swap.RefusedAfterResend(found);
    }
    a.require("moving the corpus head");
    return new Swap.Done(
        new CorpusHead(
            next.published,
            next.writing,
            next.publishedBy,
            next.writingBy,
            a.body().path("_seq_no").asLong(),
            a.body().path("_primary_term").asLong()));
  }

  /** Whether {@code other} says the same as this head, whatever their sequence numbers. */
  boolean sameState(CorpusHead other) {
    return published == other.published
        && Objects.equals(writing, other.writing)
        && Objects.equals(publishedBy, other.publishedBy)
        && Objects.equals(writingBy, other.writingBy);
  }
}
