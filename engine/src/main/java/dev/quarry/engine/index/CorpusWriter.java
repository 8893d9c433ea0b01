package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.embed.BackgroundThreads;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * The single writer of one corpus: takes queued mutations in order, checks each against the corpus,
 * gives each that changes something the next revision, writes a whole group of them, commits once
 * (group commit), publishes a new snapshot, and only then completes the group's futures.
 *
 * <p>Writing a group has two phases. Phase 1 adds every new document (chunks, source records,
 * history, idempotency records); a large group is spread over a small pool of indexing threads
 * (Lucene's analysis is the costly part), a small one is written on the writer thread alone, see
 * {@link #lanes}. Phase 2, on the writer thread in revision order, supersedes replaced versions (a
 * doc-values update on the version's key) and applies purges and pruning. Version keys name exactly
 * one version, so the order of phase 1 cannot matter; a purge travels in a group of its own because
 * it deletes every document of its source.
 *
 * <p>Thread safety: {@link #submit} may be called from any thread; everything else runs on the
 * writer thread.
 */
final class CorpusWriter implements Closeable {
  private static final Logger LOG = Logger.getLogger(CorpusWriter.class.getName());

  /** Prune history and idempotency records once retention has moved this many revisions on. */
  private static final long PRUNE_EVERY_REVISIONS = 64;

  /**
   * Characters of chunk text each indexing thread of phase 1 should have to itself before another
   * thread joins. Every thread that adds documents fills its own Lucene buffer, which the commit
   * flushes as a segment of its own: a small group spread over two threads commits two small
   * segments instead of one, and merges (which into a populated index rewrite its small segments
   * again and again) come twice as often, for an analysis speed-up that small groups hardly see.
   */
  static final long CHARS_PER_LANE = 1L << 20;

  /** How long closing a corpus waits for its running merges before the close aborts them. */
  static final Duration MERGE_WAIT_ON_CLOSE = Duration.ofSeconds(30);

  /**
   * How long a corpus must go without a write before its small segments are merged into one (see
   * {@link CompactingMergePolicy}): long enough that a bulk load's requests, which follow each
   * other closely, are not slowed by merges of segments the next request adds to anyway.
   */
  static final Duration COMPACT_AFTER_IDLE = Duration.ofSeconds(1);

  private final CorpusInfo info;
  private final EngineConfig config;
  private final IndexStore store;
  private final BlockingQueue<QueuedMutation> queue;
  private final ThreadPoolExecutor indexers;
  private final int indexerThreads;
  private final Thread thread;
  private final ArrayDeque<QueuedMutation> carried = new ArrayDeque<>();
  private volatile boolean closing;
  private volatile QuarryException broken;
  private long lastPrunedAt;

  /**
   * History entries below this revision were pruned already (only each source's latest is left of
   * them): the oldest retained revision of the last prune, or the first revision its snapshot did
   * not hold. 0 after opening, so that the first prune looks at every entry.
   */
  private long historyPrunedFrom;

  private long commits;

  /**
   * Set when committing finished merges failed; cleared by the next group, which commits anyway.
   */
  private boolean mergeCommitFailed;

  /**
   * Whether the small segments are to be merged once the corpus is idle: after opening (an index
   * may have been closed while written) and after every group.
   */
  private boolean compactionDue = true;

  /** {@link System#nanoTime()} of the last group's end, or of opening. */
  private long lastWriteNanos = System.nanoTime();

  CorpusWriter(CorpusInfo info, EngineConfig config, IndexStore store) {
    this.info = info;
    this.config = config;
    this.store = store;
    this.queue = new ArrayBlockingQueue<>(config.maxQueuedMutations());
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    this.indexerThreads = threads;
    this.indexers =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(BackgroundThreads.lowering(r), "quarry-index-" + info.name());
              t.setDaemon(true);
              return t;
            });
    this.indexers.allowCoreThreadTimeOut(true);
    this.thread = new Thread(BackgroundThreads.lowering(this::run), "quarry-writer-" + info.name());
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues a prepared mutation; CAPACITY when the queue is full, UNAVAILABLE once closing. */
  void submit(QueuedMutation m) {
    if (broken != null) {
      throw broken;
    }
    if (closing) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closing");
    }
    if (!queue.offer(m)) {
      throw new QuarryException(
          ErrorCode.CAPACITY,
          "corpus '"
              + info.name()
              + "' has "
              + config.maxQueuedMutations()
              + " mutations waiting; retry later");
    }
  }

  /**
   * Whether the caller is this corpus's writer thread, the one thread that commits and rolls back.
   */
  private boolean ownsWriter() {
    return Thread.currentThread() == thread;
  }

  /**
   * Number of Lucene commits made so far (group commit makes it smaller than the mutation count).
   */
  long commits() {
    return commits;
  }

  private void run() {
    while (true) {
      List<QueuedMutation> group;
      try {
        group = nextGroup();
      } catch (InterruptedException e) {
        break;
      }
      if (group == null) {
        break;
      }
      mergeCommitFailed = false;
      compactionDue = true;
      try {
        process(group);
      } catch (Throwable t) {
        LOG.log(Level.SEVERE, "writer of corpus '" + info.name() + "' failed", t);
        for (QueuedMutation m : group) {
          m.future()
              .completeExceptionally(
                  new QuarryException(ErrorCode.INTERNAL, "the corpus writer failed", t));
        }
      }
      lastWriteNanos = System.nanoTime();
    }
    settleMergesBeforeClose();
    QuarryException closed =
        new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' was closed");
    for (QueuedMutation m : carried) {
      m.future().completeExceptionally(closed);
    }
    for (QueuedMutation m; (m = queue.poll()) != null; ) {
      m.future().completeExceptionally(closed);
    }
  }

  /**
   * The next group: queued mutations in order, a purge always alone. Null once closed and drained.
   */
  private List<QueuedMutation> nextGroup() throws InterruptedException {
    QuarryException failure = broken;
    if (failure != null) {
      QueuedMutation m = queue.take();
      m.future().completeExceptionally(failure);
      return List.of();
    }
    QueuedMutation first = carried.poll();
    while (first == null) {
      first = queue.poll(100, TimeUnit.MILLISECONDS);
      if (first == null && closing) {
        return null;
      }
      if (first == null) {
        compactWhenIdle();
        commitFinishedMerges();
      }
    }
    List<QueuedMutation> group = new ArrayList<>();
    group.add(first);
    if (first.hasPurge()) {
      return group;
    }
    while (group.size() < config.maxGroupSize()) {
      QueuedMutation next = queue.poll();
      if (next == null) {
        break;
      }
      if (next.hasPurge()) {
        carried.add(next);
        break;
      }
      group.add(next);
    }
    return group;
  }

  /**
   * While idle, commits and publishes the merges that finished since the last commit, at the same
   * revision (see {@link IndexStore#commitFinishedMerges}), so that an idle corpus is searched, and
   * restarts, with the segments its merge policy produced rather than the many small ones its
   * writes flushed. A failure is logged and not retried until the next group commits anyway.
   */
  private void commitFinishedMerges() {
    if (broken != null || mergeCommitFailed) {
      return;
    }
    try {
      store.commitFinishedMerges();
    } catch (Throwable t) {
      mergeCommitFailed = true;
      LOG.log(
          Level.WARNING,
          "committing finished merges of corpus '"
              + info.name()
              + "' failed; the next write"
              + " commits them",
          t);
    }
  }

  /**
   * Once the corpus has gone {@link #COMPACT_AFTER_IDLE} without a write, starts merging its small
   * segments (once per idle spell); {@link #commitFinishedMerges} commits the result when it is
   * done.
   */
  private void compactWhenIdle() {
    if (System.nanoTime() - lastWriteNanos >= COMPACT_AFTER_IDLE.toNanos()) {
      compactIfDue();
    }
  }

  /**
   * Starts merging the small segments if a write or the opening made it due. A failure is logged;
   * the next group makes it due again.
   */
  private void compactIfDue() {
    if (!compactionDue || broken != null) {
      return;
    }
    compactionDue = false;
    try {
      store.compactSmallSegments();
    } catch (Throwable t) {
      LOG.log(
          Level.WARNING, "merging the small segments of corpus '" + info.name() + "' failed", t);
    }
  }

  /**
   * On close, once every queued mutation is done: merges the small segments if that is due, waits a
   * bounded time for running merges, then commits the finished ones, so a corpus closed after a
   * bulk load reopens merged, as it would have been had it stayed open and idle. Merges still
   * running after {@link #MERGE_WAIT_ON_CLOSE} are aborted by the writer's close (a shutdown is not
   * held up by a long merge; the merge runs again after the next start).
   */
  private void settleMergesBeforeClose() {
    if (broken != null) {
      return;
    }
    compactIfDue();
    try {
      store.awaitMerges(MERGE_WAIT_ON_CLOSE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // The writer hit a tragic failure (a merge on a full disk): there is nothing to commit.
      LOG.log(Level.WARNING, "corpus '" + info.name() + "' closes without waiting for merges", e);
      return;
    }
    mergeCommitFailed = false;
    commitFinishedMerges();
  }

  private void process(List<QueuedMutation> group) throws IOException {
    assert ownsWriter()
        : "only the writer thread of corpus '"
            + info.name()
            + "' writes; called on "
            + Thread.currentThread().getName();
    if (group.isEmpty()) {
      return;
    }
    long base = store.committedRevision();
    Instant now = config.clock().instant();
    GroupPlanner planner = new GroupPlanner(info, store, base, now, config);
    List<PlannedMutation> planned = new ArrayList<>();
    for (QueuedMutation m : group) {
      try {
        planned.add(planner.plan(m));
      } catch (QuarryException e) {
        m.future().completeExceptionally(e);
      } catch (RuntimeException e) {
        m.future()
            .completeExceptionally(
                new QuarryException(ErrorCode.INTERNAL, "mutation could not be planned", e));
      }
    }
    boolean writes = planned.stream().anyMatch(p -> !p.replay());
    if (!writes) {
      complete(planned);
      return;
    }
    long target = planner.revision();
    // A group of unchanged sources writes only idempotency records, at the same revision.
    assert target >= base : "revisions only move forward: " + base + " -> " + target;
    try {
      write(planned, now);
      prune(base, target, now);
      long commitStart = System.nanoTime();
      store.commit(target);
      config
          .listener()
          .committed(
              (int) planned.stream().filter(p -> !p.replay()).count(),
              System.nanoTime() - commitStart);
      commits++;
    } catch (Throwable t) {
      recoverAfterFailedWrite(planned, target, t);
      return;
    }
    boolean purged =
        planned.stream()
            .anyMatch(
                p ->
                    p.changes().stream()
                        .anyMatch(c -> c instanceof PlannedMutation.Delete d && d.purge()));
    try {
      if (purged) {
        store.eraseDeleted(target);
      }
      long refreshStart = System.nanoTime();
      store.publish(target);
      config.listener().refreshed(System.nanoTime() - refreshStart);
    } catch (Throwable t) {
      // Committed and durable, but not visible: the outcome is known to us, not yet to readers.
      failAll(
          planned,
          new QuarryException(
              ErrorCode.UNAVAILABLE,
              "the change was committed but the index could not be reopened",
              null,
              true,
              t));
      markBroken(t);
      return;
    }
    complete(planned);
  }

  private void write(List<PlannedMutation> planned, Instant now) throws Exception {
    IndexWriter writer = store.writer();
    List<Callable<Void>> adds = new ArrayList<>();
    long chars = 0;
    for (PlannedMutation p : planned) {
      if (p.replay()) {
        continue;
      }
      Mutation m = p.queued().mutation();
      for (PlannedMutation.Change c : p.changes()) {
        if (c instanceof PlannedMutation.Index ix) {
          for (PreparedSource.PreparedChunk chunk : ix.prepared().chunks()) {
            chars += chunk.text().length();
          }
          adds.add(
              () -> {
                writer.addDocuments(Documents.sourceVersion(ix.prepared(), p.revision(), now));
                writer.addDocument(
                    Documents.history(
                        p.revision(),
                        ix.ordinal(),
                        ix.prepared().op().operation(),
                        ix.source(),
                        ix.prepared().contentSha256(),
                        m.subject(),
                        now));
                return null;
              });
        } else if (c instanceof PlannedMutation.Delete d && !d.purge()) {
          adds.add(
              () -> {
                writer.addDocument(
                    Documents.history(
                        p.revision(), d.ordinal(), "delete", d.source(), null, m.subject(), now));
                return null;
              });
        }
      }
      if (m.idempotency() != null) {
        String term = Documents.idempotencyTerm(m.subject(), m.idempotency().key());
        Document record =
            Documents.idempotency(
                term, m.idempotency().fingerprint(), ResultCodec.write(p.result()), now);
        adds.add(
            () -> {
              writer.updateDocument(new Term(Fields.IDEM_KEY, term), record);
              return null;
            });
      }
    }
    runAll(adds, lanes(chars, indexerThreads));
    // Phase 2: in revision order, on this thread.
    for (PlannedMutation p : planned) {
      if (p.replay()) {
        continue;
      }
      for (PlannedMutation.Change c : p.changes()) {
        if (c instanceof PlannedMutation.Index ix && ix.supersededRevision() > 0) {
          supersede(writer, ix.source(), ix.supersededRevision(), p.revision());
        } else if (c instanceof PlannedMutation.Delete d) {
          if (d.purge()) {
            purge(writer, d, p.revision(), p.queued().mutation().subject(), now);
          } else {
            supersede(writer, d.source(), d.currentRevision(), p.revision());
          }
        }
      }
    }
  }

  /**
   * How many threads phase 1 uses for a group holding {@code chars} characters of chunk text: one
   * per {@link #CHARS_PER_LANE}, at least one, at most {@code threads}.
   */
  static int lanes(long chars, int threads) {
    return (int) Math.max(1, Math.min(threads, chars / CHARS_PER_LANE));
  }

  /**
   * Runs {@code tasks} in {@code lanes} lanes: with one lane in order on this thread, else each
   * lane in order on its own pool thread. Throws the first failure once every lane has stopped.
   */
  private void runAll(List<Callable<Void>> tasks, int lanes) throws Exception {
    if (lanes <= 1 || tasks.size() <= 1) {
      for (Callable<Void> t : tasks) {
        t.call();
      }
      return;
    }
    List<List<Callable<Void>>> split = new ArrayList<>(lanes);
    for (int i = 0; i < lanes; i++) {
      split.add(new ArrayList<>());
    }
    for (int i = 0; i < tasks.size(); i++) {
      split.get(i % lanes).add(tasks.get(i));
    }
    List<Future<Void>> futures = new ArrayList<>(lanes);
    for (List<Callable<Void>> lane : split) {
      futures.add(
          indexers.submit(
              () -> {
                for (Callable<Void> t : lane) {
                  t.call();
                }
                return null;
              }));
    }
    Exception first = null;
    for (Future<Void> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (first == null) {
          first = e.getCause() instanceof Exception ex ? ex : new RuntimeException(e.getCause());
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * Marks the version of {@code source} added at {@code versionRevision} as superseded at {@code
   * revision}.
   */
  static void supersede(IndexWriter writer, String source, long versionRevision, long revision)
      throws IOException {
    writer.updateDocValues(
        new Term(Fields.VERSION_KEY, Fields.versionKey(source, versionRevision)),
        new NumericDocValuesField(Fields.SOFT_DELETES, 1),
        new NumericDocValuesField(Fields.SUPERSEDED_REV, revision));
  }

  /**
   * Erases every version of a source and strips its history entries to revision, operation, source
   * and time; the purge itself becomes a history entry.
   */
  private void purge(
      IndexWriter writer, PlannedMutation.Delete d, long revision, String subject, Instant now)
      throws IOException {
    List<Document> stripped = new ArrayList<>();
    IndexSnapshot snapshot = store.acquire();
    try {
      IndexSearcher searcher = new IndexSearcher(snapshot.latest());
      TopDocs top =
          searcher.search(
              new TermQuery(new Term(Fields.HISTORY_SOURCE, d.source())), Integer.MAX_VALUE);
      for (ScoreDoc sd : top.scoreDocs) {
        Document h = searcher.storedFields().document(sd.doc);
        stripped.add(
            Documents.history(
                h.getField(Fields.HISTORY_REV).numericValue().longValue(),
                h.getField(Fields.HISTORY_ORD).numericValue().intValue(),
                h.get(Fields.HISTORY_OP),
                d.source(),
                null,
                null,
                Instant.ofEpochMilli(h.getField(Fields.HISTORY_AT).numericValue().longValue())));
      }
    } finally {
      snapshot.release();
    }
    writer.deleteDocuments(
        new Term(Fields.SOURCE, d.source()), new Term(Fields.HISTORY_SOURCE, d.source()));
    stripped.add(Documents.history(revision, d.ordinal(), "purge", d.source(), null, subject, now));
    writer.addDocuments(stripped);
  }

  /**
   * Drops history entries older than retention (but each source's latest one, see {@link
   * HistoryRetention}) and expired idempotency records, now and then. The entries read are those of
   * the published revision {@code base}; the group being written is pruned next time.
   */
  private void prune(long base, long revision, Instant now) throws IOException {
    long oldest = LuceneCorpusIndex.oldestRetained(revision, config.retainedRevisions());
    if (oldest - lastPrunedAt < PRUNE_EVERY_REVISIONS) {
      return;
    }
    IndexWriter writer = store.writer();
    store.withSnapshot(
        s -> {
          HistoryRetention.prune(writer, s.latest(), historyPrunedFrom, oldest);
          return null;
        });
    long expiredBefore = now.minus(config.idempotencyRetention()).toEpochMilli();
    writer.deleteDocuments(
        LongPoint.newRangeQuery(Fields.IDEM_AT, Long.MIN_VALUE, expiredBefore - 1));
    lastPrunedAt = oldest;
    historyPrunedFrom = Math.min(oldest, base + 1);
  }

  /**
   * Rolls back to the last commit and reopens the writer. If the commit itself made it to disk (the
   * failure came after), the group succeeded; otherwise nothing of it was applied.
   */
  private void recoverAfterFailedWrite(
      List<PlannedMutation> planned, long target, Throwable cause) {
    assert ownsWriter() : "only the writer thread rolls the writer back";
    LOG.log(Level.WARNING, "write to corpus '" + info.name() + "' failed; rolling back", cause);
    try {
      store.rollbackAndReopen();
    } catch (Throwable t) {
      markBroken(t);
      failAll(
          planned,
          new QuarryException(
              ErrorCode.UNAVAILABLE,
              "the corpus index failed and could not be reopened",
              null,
              true,
              cause));
      return;
    }
    if (store.committedRevision() == target) {
      try {
        store.publish(target);
        complete(planned);
        return;
      } catch (Throwable t) {
        markBroken(t);
        failAll(
            planned,
            new QuarryException(
                ErrorCode.UNAVAILABLE,
                "the change was committed but the index could not be reopened",
                null,
                true,
                t));
        return;
      }
    }
    failAll(
        planned,
        new QuarryException(
            ErrorCode.UNAVAILABLE, "the change could not be written and was not applied", cause));
  }

  private void markBroken(Throwable cause) {
    broken =
        new QuarryException(
            ErrorCode.UNAVAILABLE,
            "corpus '"
                + info.name()
                + "' is unavailable after a storage failure; restart to recover",
            cause);
  }

  private static void complete(List<PlannedMutation> planned) {
    for (PlannedMutation p : planned) {
      p.queued().future().complete(p.replay() ? p.result().asReplay() : p.result());
    }
  }

  private static void failAll(List<PlannedMutation> planned, QuarryException e) {
    for (PlannedMutation p : planned) {
      if (p.replay()) {
        p.queued().future().complete(p.result().asReplay());
      } else {
        p.queued().future().completeExceptionally(e);
      }
    }
  }

  /** Stops taking mutations, finishes the queued ones, and stops the writer thread. */
  @Override
  public void close() {
    closing = true;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    indexers.shutdown();
  }

  /** Checks mutations against the corpus in order, as if each earlier one had been applied. */
  static final class GroupPlanner {
    private final CorpusInfo info;
    private final IndexStore store;
    private final Instant now;
    private final EngineConfig config;
    private long revision;

    /**
     * Sources changed earlier in this group: their state as of the group so far (empty: absent).
     */
    private final Map<String, Optional<Current>> changed = new HashMap<>();

    /** Idempotency records written earlier in this group. */
    private final Map<String, PlannedMutation> recordedKeys = new HashMap<>();

    /**
     * What one operation will do: its status, the version it leaves in place (UNCHANGED) and its
     * prepared content (index operations).
     */
    /**
     * The wire name of the language {@code p} is analysed in: its own in an auto corpus, else the
     * corpus's.
     */
    private String languageOf(PreparedSource p) {
      return (p.language() != null ? p.language() : info.settings().language()).wireName();
    }

    private record Outcome(Receipt.Status status, Current current, PreparedSource prepared) {}

    /** The current version of a source, as far as the planner needs it. */
    record Current(long sourceRevision, String fingerprint, String contentSha256, int chunks) {}

    GroupPlanner(CorpusInfo info, IndexStore store, long base, Instant now, EngineConfig config) {
      this.info = info;
      this.store = store;
      this.revision = base;
      this.now = now;
      this.config = config;
    }

    /** The revision after every mutation planned so far. */
    long revision() {
      return revision;
    }

    PlannedMutation plan(QueuedMutation q) throws IOException {
      Mutation m = q.mutation();
      info.requireCorpusId(m.expectedCorpusId());
      if (m.idempotency() != null) {
        PlannedMutation replay = replayOf(q);
        if (replay != null) {
          return replay;
        }
      }
      boolean batch = m.operations().size() > 1;
      long next = revision + 1;
      List<PlannedMutation.Change> changes = new ArrayList<>();
      List<Outcome> outcomes = new ArrayList<>();
      for (int i = 0; i < m.operations().size(); i++) {
        SourceOperation op = m.operations().get(i);
        String field = batch ? "operations[" + i + "]." : "";
        Optional<Current> current = current(op.source());
        checkExpected(op, current, field);
        if (op instanceof SourceOperation.Index ix) {
          PreparedSource p = q.prepared().get(i);
          if (current.isPresent() && current.get().fingerprint().equals(p.fingerprint())) {
            outcomes.add(new Outcome(Receipt.Status.UNCHANGED, current.get(), p));
          } else {
            changes.add(
                new PlannedMutation.Index(p, current.map(Current::sourceRevision).orElse(0L), i));
            outcomes.add(new Outcome(Receipt.Status.INDEXED, null, p));
          }
        } else {
          SourceOperation.Delete d = (SourceOperation.Delete) op;
          boolean exists = current.isPresent();
          // A purge of a source with no live version erases what is left of it (versions still on
          // disk, history to strip) unless its latest history entry is a purge already, or it has
          // none: decided by the history alone, as on the cluster store, never by merges or
          // retention.
          boolean unpurged =
              d.purge()
                  && !exists
                  && !changed.containsKey(d.source())
                  && store.hasUnpurgedHistory(d.source());
          if (exists || unpurged || (d.purge() && changed.containsKey(d.source()))) {
            changes.add(
                new PlannedMutation.Delete(
                    d.source(), current.map(Current::sourceRevision).orElse(0L), d.purge(), i));
            outcomes.add(new Outcome(Receipt.Status.DELETED, null, null));
          } else {
            outcomes.add(new Outcome(Receipt.Status.ABSENT, null, null));
          }
        }
      }
      long at = changes.isEmpty() ? revision : next;
      List<Receipt> receipts = new ArrayList<>();
      for (int i = 0; i < outcomes.size(); i++) {
        Outcome o = outcomes.get(i);
        String source = m.operations().get(i).source();
        receipts.add(
            switch (o.status()) {
              case INDEXED ->
                  new Receipt(
                      info.name(),
                      info.corpusId(),
                      source,
                      at,
                      at,
                      o.status(),
                      o.prepared().contentSha256(),
                      o.prepared().chunks().size(),
                      o.prepared().op().ingest(),
                      languageOf(o.prepared()));
              // The fingerprint holds an auto corpus's detected language: an unchanged source kept
              // its own.
              case UNCHANGED ->
                  new Receipt(
                      info.name(),
                      info.corpusId(),
                      source,
                      at,
                      o.current().sourceRevision(),
                      o.status(),
                      o.current().contentSha256(),
                      o.current().chunks(),
                      o.prepared().op().ingest(),
                      languageOf(o.prepared()));
              case DELETED, ABSENT ->
                  new Receipt(
                      info.name(), info.corpusId(), source, at, 0, o.status(), null, 0, null);
            });
      }
      MutationResult result = new MutationResult(info.name(), info.corpusId(), at, receipts, false);
      PlannedMutation plan = new PlannedMutation(q, at, List.copyOf(changes), result, false);
      // Only now, with every check passed, does the group's state move on.
      revision = at;
      for (PlannedMutation.Change c : changes) {
        if (c instanceof PlannedMutation.Index ix) {
          PreparedSource p = ix.prepared();
          changed.put(
              c.source(),
              Optional.of(new Current(at, p.fingerprint(), p.contentSha256(), p.chunks().size())));
        } else {
          changed.put(c.source(), Optional.empty());
        }
      }
      if (m.idempotency() != null) {
        recordedKeys.put(Documents.idempotencyTerm(m.subject(), m.idempotency().key()), plan);
      }
      return plan;
    }

    private PlannedMutation replayOf(QueuedMutation q) throws IOException {
      Mutation m = q.mutation();
      String term = Documents.idempotencyTerm(m.subject(), m.idempotency().key());
      PlannedMutation earlier = recordedKeys.get(term);
      if (earlier != null) {
        Mutation.Idempotency first = earlier.queued().mutation().idempotency();
        m.idempotency().requireSameRequest(first.fingerprint());
        return new PlannedMutation(q, earlier.revision(), List.of(), earlier.result(), true);
      }
      Optional<CorpusIndex.StoredOutcome> stored =
          store.findIdempotent(term, now, config.idempotencyRetention());
      if (stored.isPresent()) {
        m.idempotency().requireSameRequest(stored.get().fingerprint());
        MutationResult r = stored.get().result();
        return new PlannedMutation(q, r.revision(), List.of(), r, true);
      }
      return null;
    }

    private Optional<Current> current(String source) throws IOException {
      Optional<Current> c = changed.get(source);
      if (c != null) {
        return c;
      }
      return store.withSnapshot(
          s -> {
            Document d = SourceRecords.liveRecord(s.latest(), source);
            if (d == null) {
              return Optional.<Current>empty();
            }
            return Optional.of(
                new Current(
                    d.getField(Fields.SOURCE_REV).numericValue().longValue(),
                    d.get(Fields.FINGERPRINT),
                    d.get(Fields.CONTENT_SHA256),
                    d.getField(Fields.CHUNKS).numericValue().intValue()));
          });
    }

    private static void checkExpected(SourceOperation op, Optional<Current> current, String field) {
      ExpectedRevision.check(
          op.source(),
          op.expectedRevision(),
          current.map(Current::sourceRevision).orElse(0L),
          field);
    }
  }
}
