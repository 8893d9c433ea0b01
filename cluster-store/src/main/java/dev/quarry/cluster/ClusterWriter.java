package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.Sha256;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.spi.SourcePreparation;
import dev.quarry.engine.spi.StoreRules;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;

/**
 * Applies one mutation to a corpus on the cluster as one revision: take the writer lease, roll back
 * what a dead writer left above the published revision P, plan against P, mark revision r = P + 1
 * as being written (compare-and-set on the head), write its documents (new chunks and source
 * records with {@code added = r}, {@code superseded = r} on the versions they replace, history
 * entries, the idempotency record), refresh, renew the lease, and publish r with one
 * compare-and-set on the head. Nothing of r is visible before that last step, since every read
 * filters {@code added <= P < superseded}; a front that dies before it leaves r for the next writer
 * to roll back. The head names the batch that marked and published r, so a publication whose answer
 * was lost, and which was refused when sent again, is decided by reading the head (see {@link
 * #firstAttemptPublished}): the receipt, "nothing was applied", or uncertain when the cluster
 * cannot tell; one none of whose attempts was answered is decided the same way once the head can be
 * read again, its revision fenced off first when it is still unpublished (see {@link
 * #unansweredPublicationApplied}).
 */
final class ClusterWriter {
  private final ClusterHttp http;
  private final String index;
  private final CorpusInfo info;
  private final EngineConfig config;
  private final WriterLease lease;
  private final Analyzer analyzer;
  private final ClusterCorpusIndex reads;

  /** Names this front's batches in the head (see {@link CorpusHead}), after the lease's owner. */
  private final AtomicLong batches = new AtomicLong();

  /** Runs after the revision is marked and before its documents are written: a test's stall. */
  private volatile Runnable beforeWrites = () -> {};

  ClusterWriter(
      ClusterHttp http,
      String index,
      CorpusInfo info,
      EngineConfig config,
      WriterLease lease,
      Analyzer analyzer,
      ClusterCorpusIndex reads) {
    this.http = http;
    this.index = index;
    this.info = info;
    this.config = config;
    this.lease = lease;
    this.analyzer = analyzer;
    this.reads = reads;
  }

  /** What one operation found: the live source record, if any. */
  private record Current(long sourceRevision, String fingerprint, String sha, int chunks) {}

  /**
   * Applies {@code m}; hands its result to {@code beforeRelease} (which gives the receipt) as soon
   * as it is known, before the writer lease is given back: the release is one more request, which
   * the receipt need not wait for (the revision is published, or nothing was applied, either way).
   * Returns the result once the lease is released.
   */
  MutationResult apply(
      Mutation m,
      List<SourcePreparation.Prepared> prepared,
      Duration leaseWait,
      Consumer<MutationResult> beforeRelease) {
    return apply(m, prepared, null, leaseWait, beforeRelease);
  }

  /**
   * An index operation's chunk vectors in an embedding corpus: each chunk's stored form, in chunk
   * order, each chunk's code for the coded first pass (null in a corpus without one), and how many
   * chunks were longer than the model's window.
   */
  record ChunkVectors(
      List<byte[]> vectors, List<byte[]> codes, List<Integer> lists, int truncated) {}

  /**
   * {@link #apply} in an embedding corpus.
   *
   * @param vectors each operation's chunk vectors (null for a delete); null in a lexical corpus
   */
  MutationResult apply(
      Mutation m,
      List<SourcePreparation.Prepared> prepared,
      List<ChunkVectors> vectors,
      Duration leaseWait,
      Consumer<MutationResult> beforeRelease) {
    info.requireCorpusId(m.expectedCorpusId());
    lease.acquire(leaseWait);
    try {
      // Its own cluster work, once its turn came, shares one request timeout (see
      // ClusterHttp#within).
      MutationResult result = http.within(() -> applyHoldingLease(m, prepared, vectors));
      beforeRelease.accept(result);
      return result;
    } finally {
      lease.release();
    }
  }

  /** {@link #apply} once the lease is taken. */
  private MutationResult applyHoldingLease(
      Mutation m, List<SourcePreparation.Prepared> prepared, List<ChunkVectors> vectors) {
    List<String> sources = m.operations().stream().map(SourceOperation::source).toList();
    // The batch's live source records are read beside the head: while this front holds the lease
    // nothing else writes them, and they do not depend on the head's revision. Only a roll-back of
    // a
    // revision a dead writer left changes them (it revives the versions that revision replaced):
    // they are read again after it.
    CompletableFuture<Map<String, JsonNode>> live = reads.liveRecordsBeside(sources);
    CorpusHead head = CorpusHead.read(http, index);
    if (head.writing() != null) {
      head = rollBack(head);
      live = CompletableFuture.completedFuture(reads.liveRecords(sources));
    }
    long p = head.published();
    if (m.idempotency() != null) {
      Optional<CorpusIndex.StoredOutcome> stored =
          reads.findIdempotent(m.subject(), m.idempotency().key());
      if (stored.isPresent()) {
        m.idempotency().requireSameRequest(stored.get().fingerprint());
        return stored.get().result().asReplay();
      }
    }
    return write(m, prepared, vectors, head, p, ClusterCorpusIndex.joinBeside(live));
  }

  private MutationResult write(
      Mutation m,
      List<SourcePreparation.Prepared> prepared,
      List<ChunkVectors> vectors,
      CorpusHead head,
      long p,
      Map<String, JsonNode> live) {
    long r = p + 1;
    // Names this batch in the head (its mark and publication) and in its history entries.
    String name = lease.owner() + "/" + batches.incrementAndGet();
    Instant now = config.clock().instant();
    boolean batch = m.operations().size() > 1;
    List<Receipt> receipts = new ArrayList<>();
    ByteArrayOutputStream bulk = new ByteArrayOutputStream();
    List<String> purged = new ArrayList<>();
    int changes = 0;
    List<Receipt.Status> statuses = new ArrayList<>();
    List<Current> currents = new ArrayList<>();
    for (int i = 0; i < m.operations().size(); i++) {
      SourceOperation op = m.operations().get(i);
      Current current = current(live.get(op.source()));
      checkExpected(op, current, batch ? "operations[" + i + "]." : "");
      currents.add(current);
      if (op instanceof SourceOperation.Index) {
        boolean unchanged =
            current != null && current.fingerprint().equals(prepared.get(i).fingerprint());
        statuses.add(unchanged ? Receipt.Status.UNCHANGED : Receipt.Status.INDEXED);
        changes += unchanged ? 0 : 1;
      } else {
        SourceOperation.Delete d = (SourceOperation.Delete) op;
        boolean exists = current != null;
        boolean unpurged = d.purge() && !exists && hasUnpurgedHistory(d.source(), p);
        statuses.add(exists || unpurged ? Receipt.Status.DELETED : Receipt.Status.ABSENT);
        changes += exists || unpurged ? 1 : 0;
      }
    }
    long at = changes == 0 ? p : r;
    int seq = 0;
    for (int i = 0; i < m.operations().size(); i++) {
      SourceOperation op = m.operations().get(i);
      Current current = currents.get(i);
      Receipt.Status status = statuses.get(i);
      switch (status) {
        case INDEXED -> {
          SourceOperation.Index ix = (SourceOperation.Index) op;
          SourcePreparation.Prepared pr = prepared.get(i);
          if (current != null) {
            supersede(bulk, op.source(), current, r);
          }
          writeSource(bulk, ix, pr, vectors == null ? null : vectors.get(i), r, now);
          history(
              bulk,
              r,
              seq++,
              ix.operation(),
              op.source(),
              pr.contentSha256(),
              m.subject(),
              now,
              name);
          receipts.add(
              new Receipt(
                  info.name(),
                  info.corpusId(),
                  op.source(),
                  at,
                  at,
                  status,
                  pr.contentSha256(),
                  pr.chunks().size(),
                  ix.ingest(),
                  info.settings().language().wireName()));
        }
        case UNCHANGED -> {
          SourceOperation.Index ix = (SourceOperation.Index) op;
          receipts.add(
              new Receipt(
                  info.name(),
                  info.corpusId(),
                  op.source(),
                  at,
                  current.sourceRevision(),
                  status,
                  current.sha(),
                  current.chunks(),
                  ix.ingest(),
                  info.settings().language().wireName()));
        }
        case DELETED -> {
          SourceOperation.Delete d = (SourceOperation.Delete) op;
          if (current != null) {
            supersede(bulk, op.source(), current, r);
          }
          if (d.purge()) {
            purged.add(op.source());
          }
          history(
              bulk,
              r,
              seq++,
              d.purge() ? "purge" : "delete",
              op.source(),
              null,
              m.subject(),
              now,
              name);
          receipts.add(
              new Receipt(info.name(), info.corpusId(), op.source(), at, 0, status, null, 0, null));
        }
        case ABSENT ->
            receipts.add(
                new Receipt(
                    info.name(), info.corpusId(), op.source(), at, 0, status, null, 0, null));
      }
    }
    MutationResult result = new MutationResult(info.name(), info.corpusId(), at, receipts, false);
    if (m.idempotency() != null) {
      idempotency(bulk, m, result, at, now);
    }
    if (changes == 0) {
      // Nothing changes: no revision. Only an idempotency record, if any, is written (durably,
      // visibly).
      if (bulk.size() > 0) {
        bulkWrite(bulk.toByteArray());
      }
      return result;
    }
    // Not marked (refused, or refused after a resend without this batch's mark on the head):
    // nothing
    // of r can be published, whatever happened to the mark.
    CorpusHead marked =
        head.mark(http, index, r, name)
            .done()
            .orElseThrow(
                () ->
                    new QuarryException(
                        ErrorCode.UNAVAILABLE,
                        "another server moved the corpus on; try again",
                        null,
                        false,
                        null));
    beforeWrites.run();
    try {
      leaseBeforeWrite();
      // Refreshed as part of the write: a by-query delete of a purge sees the index as of its last
      // refresh, and deletes each document only if it is unchanged since, so without it the live
      // version the bulk write just marked superseded would conflict, be skipped, and survive the
      // purge for pinned searches.
      bulkWrite(bulk.toByteArray());
      for (String source : purged) {
        leaseBeforeWrite();
        purge(source, r);
      }
      if (!purged.isEmpty()) {
        refresh();
      }
    } catch (LeaseLost e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "the writer lease expired before the change was written; nothing was applied",
          null,
          false,
          null);
    } catch (QuarryException e) {
      tryRollBack(name);
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "the change could not be written to the cluster; nothing was applied",
          null,
          false,
          e);
    }
    if (!lease.renew()) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "the writer lease expired before the change was published; nothing was applied",
          null,
          false,
          null);
    }
    CorpusHead.Swap publication;
    try {
      publication = marked.publish(http, index, name);
    } catch (QuarryException e) {
      if (!unansweredPublicationApplied(marked, r, name, e)) {
        throw takenOver();
      }
      publication = new CorpusHead.Swap.Done(marked);
    }
    switch (publication) {
      case CorpusHead.Swap.Done done -> {}
      case CorpusHead.Swap.Refused refused -> throw takenOver();
      case CorpusHead.Swap.RefusedAfterResend resent -> {
        if (!firstAttemptPublished(resent.found(), r, name)) {
          throw takenOver();
        }
      }
    }
    reads.sawPublished(r);
    return result;
  }

  private static QuarryException takenOver() {
    return new QuarryException(
        ErrorCode.UNAVAILABLE,
        "another server took the corpus over; nothing was applied",
        null,
        false,
        null);
  }

  private static QuarryException withdrawn() {
    return new QuarryException(
        ErrorCode.UNAVAILABLE,
        "the cluster did not answer the change's publication, and it was withdrawn; nothing was applied",
        null,
        false,
        null);
  }

  private static QuarryException notConfirmed(Throwable cause) {
    return new QuarryException(
        ErrorCode.UNAVAILABLE,
        "the cluster did not confirm the change's publication",
        null,
        true,
        cause);
  }

  /**
   * Whether the publication of revision {@code r} by {@code batch} was applied, when it was refused
   * on a second attempt after the first one lost its answer, from the head {@code found} since. A
   * published revision never goes back and each revision number is published once, and the first
   * attempt, conditioned on the head it was sent against, can never be applied once another write
   * moved the head; so:
   *
   * <ul>
   *   <li>r published by this batch: it was applied (and is visible): true;
   *   <li>the published revision below r, or r published by another batch: it was not, and never
   *       will be: false;
   *   <li>a later revision published since (another front took the lease over once this front's
   *       expired, and wrote on): r was published, by the batch its first history entry names (a
   *       roll-back deletes a revision's history entries with the rest of it, and the batch that
   *       writes the number again writes its own);
   *   <li>the corpus gone, or a first history entry that names no batch: it cannot be told, and the
   *       batch fails as uncertain.
   * </ul>
   */
  private boolean firstAttemptPublished(Optional<CorpusHead> found, long r, String batch) {
    if (found.isEmpty()) {
      throw notConfirmed(null);
    }
    CorpusHead h = found.get();
    if (h.published() == r) {
      return batch.equals(h.publishedBy());
    }
    if (h.published() < r) {
      return false;
    }
    String by;
    try {
      ClusterHttp.Answer first = http.get("/" + index + "/_doc/" + historyId(r, 0));
      by = first.ok() ? first.body().path("_source").path("batch").asText(null) : null;
    } catch (QuarryException e) {
      throw notConfirmed(e);
    }
    if (by == null) {
      throw notConfirmed(null);
    }
    return batch.equals(by);
  }

  /**
   * Whether the publication of revision {@code r} by {@code batch} was applied, when none of its
   * attempts was answered (every node unreachable or timing out: an attempt may still be on its way
   * and land later). The head is read again, for at most one request timeout while the cluster does
   * not answer:
   *
   * <ul>
   *   <li>still {@code marked}, unpublished, with its sequence number: it is fenced off by marking
   *       r again by compare-and-set, which moves the sequence number without publishing; the
   *       publication, conditioned on the older one, can then never be applied, so nothing was (r
   *       is rolled back, or left to the next writer to roll back), and the batch fails so;
   *   <li>{@code marked}'s state with a newer sequence number: an earlier fence of this call landed
   *       though its answer was lost: the same;
   *   <li>anything else: decided as a refused resend is (see {@link #firstAttemptPublished}).
   * </ul>
   *
   * Uncertain when the cluster does not answer within that time.
   */
  private boolean unansweredPublicationApplied(
      CorpusHead marked, long r, String batch, QuarryException cause) {
    // A budget of its own: the unanswered publication may have used up the batch's.
    ClusterHttp.Deadline budget = ClusterHttp.Deadline.after(http.timeout());
    return ClusterHttp.bound(
        budget, () -> decideUnansweredPublication(budget, marked, r, batch, cause));
  }

  private boolean decideUnansweredPublication(
      ClusterHttp.Deadline budget, CorpusHead marked, long r, String batch, QuarryException cause) {
    QuarryException last = cause;
    for (int round = 0; ; round++) {
      if (round > 0) {
        if (budget.remainingNanos() <= 0) {
          throw notConfirmed(last);
        }
        pauseBeforeReading(last);
      }
      Optional<CorpusHead> found;
      try {
        found = CorpusHead.find(http, index);
      } catch (QuarryException e) {
        last = e;
        continue;
      }
      if (found.isEmpty() || !found.get().sameState(marked)) {
        return firstAttemptPublished(found, r, batch);
      }
      CorpusHead fenced = found.get();
      if (fenced.seqNo() == marked.seqNo() && fenced.primaryTerm() == marked.primaryTerm()) {
        try {
          Optional<CorpusHead> done = fenced.mark(http, index, r, batch).done();
          if (done.isEmpty()) {
            // The head moved meanwhile (the publication landed, or another front took over): read
            // it again.
            continue;
          }
          fenced = done.get();
        } catch (QuarryException e) {
          last = e;
          continue;
        }
      }
      // The documents of r are removed only while this front still holds the lease: once it is
      // lost, another front may be writing r itself.
      if (lease.renewBeforeWrite()) {
        try {
          rollBack(fenced);
        } catch (QuarryException ignored) {
          // The next writer rolls it back: the head still says r is being written.
        }
      }
      throw withdrawn();
    }
  }

  private static void pauseBeforeReading(QuarryException last) {
    try {
      Thread.sleep(250);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw notConfirmed(last);
    }
  }

  /**
   * The lease was lost before a write request: nothing more of the batch may be sent, nor rolled
   * back by this front.
   */
  private static final class LeaseLost extends RuntimeException {
    LeaseLost() {
      super(null, null, false, false);
    }
  }

  /**
   * Renews the lease before each write request of a batch: a front that stalled after marking its
   * revision (a long pause, a slow plan) and lost the lease to another front, which rolled that
   * revision back and may be writing the same revision number itself, sends nothing more, so none
   * of its documents can land under the other front's publication.
   */
  private void leaseBeforeWrite() {
    if (!lease.renewBeforeWrite()) {
      throw new LeaseLost();
    }
  }

  void beforeWrites(Runnable hook) {
    this.beforeWrites = hook;
  }

  /**
   * Rolls back the revision {@code batch} marked and failed to write, only while this front still
   * holds the lease and the head still names that batch: once the lease is lost, another front may
   * have rolled the revision back and be writing the same revision number itself, and deleting what
   * lies above the published revision would delete its documents.
   */
  private void tryRollBack(String batch) {
    try {
      if (!lease.renewBeforeWrite()) {
        return;
      }
      CorpusHead head = CorpusHead.read(http, index);
      if (batch.equals(head.writingBy())) {
        rollBack(head);
      }
    } catch (QuarryException ignored) {
      // The next writer rolls it back.
    }
  }

  /**
   * Removes every trace of the unpublished revision {@code head.writing()}: its documents are
   * deleted and the versions it superseded become live again; then the head says nothing is being
   * written.
   */
  CorpusHead rollBack(CorpusHead head) {
    long p = head.published();
    // The dead writer may have died between its bulk write and its refresh, and the index never
    // refreshes on its own (refresh_interval -1): by-query requests only see refreshed documents,
    // so
    // without this refresh its documents would survive the roll-back and become visible with the
    // next writer's revision.
    refresh();
    ObjectNode above = ClusterHttp.MAPPER.createObjectNode();
    above.putObject("query").putObject("range").putObject("added").put("gt", p);
    http.json("POST", "/" + index + "/_delete_by_query?conflicts=proceed&refresh=true", above)
        .require("rolling back");
    ObjectNode revive = ClusterHttp.MAPPER.createObjectNode();
    ObjectNode bool = revive.putObject("query").putObject("bool");
    bool.putArray("filter")
        .addObject()
        .putObject("range")
        .putObject("superseded")
        .put("gt", p)
        .put("lt", CorpusDocs.LIVE);
    revive
        .putObject("script")
        .put("lang", "painless")
        .put("source", "ctx._source.superseded = " + CorpusDocs.LIVE + "L");
    http.json("POST", "/" + index + "/_update_by_query?conflicts=proceed&refresh=true", revive)
        .require("rolling back");
    return head.clearWriting(http, index)
        .done()
        .orElseThrow(
            () ->
                new QuarryException(
                    ErrorCode.UNAVAILABLE,
                    "another server moved the corpus on; try again",
                    null,
                    false,
                    null));
  }

  /** The planner's view of a live source record, or null for none. */
  private static Current current(JsonNode s) {
    if (s == null) {
      return null;
    }
    return new Current(
        s.path("added").asLong(),
        s.path("fingerprint").asText(),
        s.path("sha").asText(),
        s.path("chunks").asInt());
  }

  /**
   * Whether {@code source} has a history entry published by {@code p} and its latest one is not a
   * purge: a purge of a source with no live version then erases what is left of it (versions no
   * reclaim deleted yet, history to strip), as the embedded store decides it (which keeps each
   * source's latest entry when it prunes history; this store never prunes it). Never depends on
   * when a reclaim ran.
   */
  private boolean hasUnpurgedHistory(String source, long p) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    q.put("size", 1).put("track_total_hits", false);
    q.putArray("_source").add("operation");
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("kind", "history"));
    filter.add(CorpusDocs.term("source", source));
    filter.addObject().putObject("range").putObject("added").put("lte", p);
    ArrayNode sort = q.putArray("sort");
    sort.addObject().put("added", "desc");
    sort.addObject().put("seq", "desc");
    JsonNode hits =
        http.json("POST", CorpusDocs.searchPath(index), q)
            .require("reading history")
            .body()
            .path("hits")
            .path("hits");
    return hits.size() > 0
        && !"purge".equals(hits.get(0).path("_source").path("operation").asText());
  }

  private static void checkExpected(SourceOperation op, Current current, String field) {
    StoreRules.checkExpectedRevision(
        op.source(), op.expectedRevision(), current == null ? 0 : current.sourceRevision(), field);
  }

  static String sourceKey(String source) {
    return Sha256.ofUtf8(source).substring(0, 32);
  }

  static String chunkId(String source, long sourceRevision, int chunk) {
    return "c:" + sourceKey(source) + ":" + sourceRevision + ":" + chunk;
  }

  static String recordId(String source, long sourceRevision) {
    return "s:" + sourceKey(source) + ":" + sourceRevision;
  }

  private void supersede(ByteArrayOutputStream bulk, String source, Current current, long r) {
    ObjectNode partial = ClusterHttp.MAPPER.createObjectNode();
    partial.putObject("doc").put("superseded", r);
    line(bulk, action("update", recordId(source, current.sourceRevision())));
    line(bulk, partial);
    for (int c = 0; c < current.chunks(); c++) {
      line(bulk, action("update", chunkId(source, current.sourceRevision(), c)));
      line(bulk, partial);
    }
  }

  /**
   * @param vectors the chunks' vectors in an embedding corpus, else null
   */
  private void writeSource(
      ByteArrayOutputStream bulk,
      SourceOperation.Index ix,
      SourcePreparation.Prepared pr,
      ChunkVectors vectors,
      long r,
      Instant now) {
    ObjectNode rec = ClusterHttp.MAPPER.createObjectNode();
    rec.put("kind", "source")
        .put("source", ix.source())
        .put("added", r)
        .put("superseded", CorpusDocs.LIVE)
        .put("fingerprint", pr.fingerprint())
        .put("sha", pr.contentSha256())
        .put("title", ix.title())
        .put("media_type", pr.mediaType())
        .put("chunks", pr.chunks().size())
        .put("characters", pr.characters())
        .put("indexed_at", now.toString());
    rec.set("metadata", ClusterHttp.MAPPER.valueToTree(ix.metadata().values()));
    if (pr.pages() != null) {
      rec.put("pages", pr.pages());
    }
    if (vectors != null) {
      rec.put("truncated_chunks", vectors.truncated());
    }
    if (ix.ingest() != null) {
      rec.set("ingest", ClusterHttp.MAPPER.valueToTree(SourcePreparation.ingestToMap(ix.ingest())));
    }
    line(bulk, action("index", recordId(ix.source(), r)));
    line(bulk, rec);
    CorpusDocs.Terms title = CorpusDocs.Terms.of(analyzer, ix.title());
    for (int c = 0; c < pr.chunks().size(); c++) {
      SourcePreparation.Chunk chunk = pr.chunks().get(c);
      CorpusDocs.Terms terms = CorpusDocs.Terms.of(analyzer, chunk.text());
      ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
      doc.put("kind", "chunk")
          .put("source", ix.source())
          .put("added", r)
          .put("superseded", CorpusDocs.LIVE)
          .put("chunk", c)
          .put("text", chunk.text())
          .put("start", chunk.start())
          .put("end", chunk.end())
          .put("title", ix.title())
          .put("media_type", pr.mediaType())
          .put("sha", pr.contentSha256())
          .put("tokens", terms.tokens())
          .put("title_tokens", title.tokens())
          .put("phrase_tokens", terms.phrases())
          .put("title_phrase_tokens", title.phrases());
      if (chunk.pages() != null) {
        doc.put("page_from", chunk.pages().from()).put("page_to", chunk.pages().to());
      }
      CorpusDocs.putMetadata(doc, chunk.metadata());
      CorpusDocs.putSection(doc, chunk.section());
      CorpusDocs.putTable(doc, chunk.table());
      if (vectors != null) {
        // The stored form the embedded store keeps: the plugin's quarry_dense query reads it from
        // doc values.
        doc.put(CorpusDocs.VECTOR, vectors.vectors().get(c));
        if (vectors.codes() != null) {
          // The code of those bytes, which the plugin's quarry_coded query estimates against.
          doc.put(CorpusDocs.CODE, vectors.codes().get(c));
        }
        if (vectors.lists() != null) {
          // Its list, which a search's first pass filters on: written with the code, never alone.
          doc.put(CorpusDocs.LIST, vectors.lists().get(c));
        }
      }
      line(bulk, action("index", chunkId(ix.source(), r, c)));
      line(bulk, doc);
    }
  }

  private static void history(
      ByteArrayOutputStream bulk,
      long r,
      int seq,
      String operation,
      String source,
      String sha,
      String subject,
      Instant now,
      String batch) {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "history")
        .put("added", r)
        .put("superseded", CorpusDocs.LIVE)
        .put("seq", seq)
        .put("operation", operation)
        .put("source", source)
        .put("sha", sha)
        .put("subject", subject)
        .put("at", now.toString())
        .put("batch", batch);
    line(bulk, action("index", historyId(r, seq)));
    line(bulk, doc);
  }

  static String historyId(long r, int seq) {
    return "h:" + r + ":" + seq;
  }

  static String idempotencyId(String subject, String key) {
    return "i:" + Sha256.ofUtf8(subject + "\u0000" + key);
  }

  private static void idempotency(
      ByteArrayOutputStream bulk, Mutation m, MutationResult result, long at, Instant now) {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "idem")
        .put("added", at)
        .put("superseded", CorpusDocs.LIVE)
        .put("fingerprint", m.idempotency().fingerprint())
        .put("result", SourcePreparation.resultToJson(result))
        .put("at", now.toString());
    line(bulk, action("index", idempotencyId(m.subject(), m.idempotency().key())));
    line(bulk, doc);
  }

  /**
   * Purge: every version of the source is deleted from the cluster at once (so no revision shows it
   * again) and its history entries lose their hash and subject. The space is reclaimed when
   * OpenSearch merges the segments that held them.
   */
  private void purge(String source, long r) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("source", source));
    ArrayNode kinds = filter.addObject().putObject("terms").putArray("kind");
    kinds.add("chunk").add("source");
    http.json("POST", "/" + index + "/_delete_by_query?conflicts=proceed", q).require("purging");
    ObjectNode erase = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode hf = erase.putObject("query").putObject("bool").putArray("filter");
    hf.add(CorpusDocs.term("source", source));
    hf.add(CorpusDocs.term("kind", "history"));
    hf.addObject().putObject("range").putObject("added").put("lt", r);
    erase
        .putObject("script")
        .put("lang", "painless")
        .put("source", "ctx._source.sha = null; ctx._source.subject = null");
    http.json("POST", "/" + index + "/_update_by_query?conflicts=proceed", erase)
        .require("purging history");
  }

  /**
   * Writes {@code body} and refreshes the shards it wrote to before it answers ({@code
   * refresh=true}: on every in-sync copy, with document replication), so the documents are visible
   * when it returns, with one request instead of a write and a refresh. The answer keeps only
   * whether an item failed and the failures (one item per document otherwise).
   */
  private void bulkWrite(byte[] body) {
    ClusterHttp.Answer a =
        http.ndjson(
                "/" + index + "/_bulk?refresh=true&filter_path=errors,items.*.error,error", body)
            .require("writing");
    if (a.body().path("errors").asBoolean()) {
      for (JsonNode item : a.body().path("items")) {
        for (JsonNode result : (Iterable<JsonNode>) item::elements) {
          if (result.has("error")) {
            throw ClusterHttp.unavailable(
                "writing",
                new ClusterFault(
                    "a write was refused: "
                        + ClusterHttp.abbreviate(result.get("error").toString())));
          }
        }
      }
    }
  }

  void refresh() {
    http.json("POST", "/" + index + "/_refresh", null).require("refreshing");
  }

  private static ObjectNode action(String op, String id) {
    ObjectNode a = ClusterHttp.MAPPER.createObjectNode();
    a.putObject(op).put("_id", id);
    return a;
  }

  private static void line(ByteArrayOutputStream out, JsonNode node) {
    try {
      out.write(ClusterHttp.MAPPER.writeValueAsBytes(node));
      out.write('\n');
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
