package dev.quarry.corpora.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.Optional;

/**
 * The head document of a corpus, as read with its sequence number and primary term: the published
 * revision (what every search sees) and the revision being written, if any. It only ever changes
 * by compare-and-set on those two numbers, so of two fronts racing to move it one wins.
 */
record CorpusHead(long published, Long writing, long seqNo, long primaryTerm) {

  /** Reads the head with a real-time GET (never stale, whatever the last refresh). */
  static CorpusHead read(ClusterHttp http, String index) {
    return find(http, index).orElseThrow(() ->
        new QuarryException(ErrorCode.CORPUS_NOT_FOUND, "the corpus's index is gone from the cluster"));
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
    return Optional.of(new CorpusHead(s.path("published").asLong(),
        s.hasNonNull("writing") ? s.get("writing").asLong() : null,
        a.body().path("_seq_no").asLong(), a.body().path("_primary_term").asLong()));
  }

  static ObjectNode body(long published, Long writing) {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "head").put("published", published);
    if (writing == null) {
      doc.putNull("writing");
    } else {
      doc.put("writing", writing);
    }
    return doc;
  }

  /**
   * Replaces this head with {@code (published, writing)} if nobody changed it since it was read: the
   * head this call wrote (with the sequence number the cluster gave it), or empty when another
   * writer moved it first.
   */
  Optional<CorpusHead> compareAndSet(ClusterHttp http, String index, long newPublished, Long newWriting) {
    ClusterHttp.Answer a = http.json("PUT", "/" + index + "/_doc/" + CorpusDocs.HEAD_ID + "?if_seq_no=" + seqNo
        + "&if_primary_term=" + primaryTerm, body(newPublished, newWriting));
    if (a.status() == 409) {
      return Optional.empty();
    }
    a.require("moving the corpus head");
    return Optional.of(new CorpusHead(newPublished, newWriting, a.body().path("_seq_no").asLong(),
        a.body().path("_primary_term").asLong()));
  }
}
