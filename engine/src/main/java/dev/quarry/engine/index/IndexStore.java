package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceState;
import dev.quarry.engine.analysis.Analyzers;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KeepOnlyLastCommitDeletionPolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SnapshotDeletionPolicy;
import org.apache.lucene.index.SoftDeletesRetentionMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;

/**
 * The Lucene side of one corpus: its directory, its IndexWriter, its committed revision and the
 * published snapshot that searches and reads use.
 *
 * <p>Writes (everything but {@link #acquire} and the read methods) happen on the corpus's writer
 * thread only. The committed revision lives in the commit's user data, so it survives crashes with
 * exactly the documents it names.
 */
final class IndexStore implements Closeable {
  /** Bounds the purge's merge loop; each round waits for the merges it started. */
  private static final int MAX_ERASE_ROUNDS = 5;

  private final CorpusInfo info;
  private final EngineConfig config;
  private final Directory directory;
  private final Analyzer analyzer;
  private final WriterTuning tuning;

  /**
   * Keeps only the last commit, except those a backup holds while it copies them. One instance for
   * the life of the store, so a writer reopened after a rollback keeps honouring those holds.
   */
  private final SnapshotDeletionPolicy commits =
      new SnapshotDeletionPolicy(new KeepOnlyLastCommitDeletionPolicy());

  /** Replaced only by the writer thread (rollback); read by backups on other threads. */
  private volatile IndexWriter writer;

  private volatile long committedRevision;
  private volatile IndexSnapshot snapshot;

  /**
   * Whether a segment may still hold a purged document (the last erase stopped with hard deletes
   * left, say in a segment a running merge held): the next commit of finished merges erases first.
   * Writer thread only.
   */
  private boolean erasePending;

  IndexStore(Path dir, CorpusInfo info, EngineConfig config, WriterTuning tuning)
      throws IOException {
    this.info = info;
    this.config = config;
    this.tuning = tuning;
    this.directory = FSDirectory.open(dir);
    this.analyzer = Analyzers.forLanguage(info.settings().language());
    try {
      openWriter();
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  Analyzer analyzer() {
    return analyzer;
  }

  private void openWriter() throws IOException {
    IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    iwc.setCodec(new QuarryCodec());
    iwc.setSoftDeletesField(Fields.SOFT_DELETES);
    iwc.setSimilarity(
        new BM25Similarity(
            (float) info.settings().ranking().k1(), (float) info.settings().ranking().b()));
    iwc.setRAMBufferSizeMB(config.ramBufferMb());
    iwc.setCommitOnClose(false);
    iwc.setIndexDeletionPolicy(commits);
    // A commit does not wait for merges of the small segments it flushes (Lucene waits up to 500 ms
    // by default, and profiles showed commits waiting 300 ms there): every receipt waits for its
    // group's commit, and the background merges combine those segments anyway.
    iwc.setMaxFullFlushMergeWaitMillis(0);
    iwc.setMergeScheduler(new LoggingMergeScheduler(info.name(), config.listener()));
    TieredMergePolicy tiered = new TieredMergePolicy();
    // A purge must be able to rewrite every segment holding a deleted document.
    tiered.setForceMergeDeletesPctAllowed(0);
    iwc.setMergePolicy(
        new ErasingMergePolicy(
            new SoftDeletesRetentionMergePolicy(
                Fields.SOFT_DELETES,
                () ->
                    NumericDocValuesField.newSlowRangeQuery(
                        Fields.SUPERSEDED_REV,
                        LuceneCorpusIndex.oldestRetained(
                                committedRevision, config.retainedRevisions())
                            + 1,
                        Long.MAX_VALUE),
                new CompactingMergePolicy(tuning.mergePolicy(tiered), tiered))));
    tuning.configure(iwc);
    writer = new IndexWriter(directory, iwc);
    Map<String, String> data = new HashMap<>();
    writer.getLiveCommitData().forEach(e -> data.put(e.getKey(), e.getValue()));
    String id = data.get(Fields.COMMIT_CORPUS_ID);
    if (id == null) {
      if (writer.getDocStats().maxDoc != 0) {
        writer.rollback();
        throw new QuarryException(
            ErrorCode.INTERNAL, "index of corpus '" + info.name() + "' has no revision record");
      }
      committedRevision = 0;
      commit(0);
    } else if (!id.equals(info.corpusId())) {
      writer.rollback();
      throw new QuarryException(
          ErrorCode.INTERNAL,
          "index of corpus '"
              + info.name()
              + "' belongs to corpusId "
              + id
              + ", not "
              + info.corpusId());
    } else {
      committedRevision = Long.parseLong(data.get(Fields.COMMIT_REVISION));
    }
    DirectoryReader reader = DirectoryReader.open(writer);
    IndexSnapshot old = snapshot;
    snapshot =
        new IndexSnapshot(
            committedRevision,
            LuceneCorpusIndex.oldestRetained(committedRevision, config.retainedRevisions()),
            reader);
    if (old != null) {
      old.release();
    }
  }

  IndexWriter writer() {
    return writer;
  }

  long committedRevision() {
    return committedRevision;
  }

  /** Commits everything written so far as {@code revision}: durable once this returns. */
  void commit(long revision) throws IOException {
    assert revision >= committedRevision
        : "revisions only move forward: committing " + revision + " after " + committedRevision;
    writer.setLiveCommitData(
        Map.of(
                Fields.COMMIT_REVISION, Long.toString(revision),
                Fields.COMMIT_CORPUS_ID, info.corpusId())
            .entrySet());
    writer.commit();
    committedRevision = revision;
  }

  /** Makes {@code revision} (already committed) the one searches and reads see. */
  void publish(long revision) throws IOException {
    IndexSnapshot old = snapshot;
    assert revision == committedRevision && revision >= old.revision()
        : "only the committed revision is published, and never an older one: "
            + revision
            + " (committed "
            + committedRevision
            + ", published "
            + old.revision()
            + ")";
    DirectoryReader reader = DirectoryReader.openIfChanged(old.latest(), writer);
    if (reader == null) {
      old.latest().incRef();
      reader = old.latest();
    }
    snapshot =
        new IndexSnapshot(
            revision,
            LuceneCorpusIndex.oldestRetained(revision, config.retainedRevisions()),
            reader);
    old.release();
  }

  /**
   * Rewrites segments that hold purged documents so that nothing of them stays on disk. A merge
   * already running when the purge's deletes were applied carries them into its new segment as
   * deletions, not erasures, so this repeats until no segment holds a hard-deleted document.
   */
  void eraseDeleted(long revision) throws IOException {
    eraseRounds();
    commit(revision);
  }

  private void eraseRounds() throws IOException {
    for (int round = 0; round < MAX_ERASE_ROUNDS; round++) {
      writer.forceMergeDeletes(true);
      if (!anyHardDeletes()) {
        erasePending = false;
        return;
      }
    }
    erasePending = true;
  }

  /**
   * Commits the background merges that finished since the last commit and publishes them, at the
   * committed revision and with its commit data unchanged: a merge rewrites segments, never a
   * revision's content, so the commit holds the same documents (and the same deletions) as the one
   * before it, and a crash on either side of it recovers the same revision. Without this a merge
   * that finishes after a write's commit is searched only from the next write on, and lost when the
   * corpus closes (the writer does not commit on close: nothing but a write's own commit may make
   * that write durable). Writer thread only, between groups, when everything written is committed;
   * does nothing if no merge finished.
   *
   * @return whether a commit was made
   */
  boolean commitFinishedMerges() throws IOException {
    if (!writer.hasUncommittedChanges()) {
      return false;
    }
    if (erasePending) {
      // A merge that was running when a purge erased may have carried purged documents into its
      // new segment as deletions: erase them before that segment reaches a commit.
      eraseRounds();
    }
    commit(committedRevision);
    publish(committedRevision);
    return true;
  }

  /**
   * Starts merging the index's small segments into one in the background ({@link
   * CompactingMergePolicy}); {@link #commitFinishedMerges} later commits the result at the same
   * revision. Writer thread only, while the corpus is idle or closing.
   */
  void compactSmallSegments() throws IOException {
    writer.maybeMerge();
  }

  /**
   * Waits up to {@code wait} for the running and pending merges to finish (those the finished ones
   * start included), so that closing an idle corpus leaves the segments its merge policy wants.
   * Merges still running after that are aborted by the close. Writer thread only.
   */
  void awaitMerges(Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (merging() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  /**
   * Whether a merge is pending or running, or a merge thread is still alive (between finishing one
   * merge and registering the next it asked for, no segment is merging yet).
   */
  private boolean merging() {
    if (!writer.getMergingSegments().isEmpty() || writer.hasPendingMerges()) {
      return true;
    }
    return writer.getConfig().getMergeScheduler() instanceof ConcurrentMergeScheduler scheduler
        && scheduler.mergeThreadCount() > 0;
  }

  private boolean anyHardDeletes() throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      for (var leaf : reader.leaves()) {
        if (FilterLeafReader.unwrap(leaf.reader()) instanceof SegmentReader segment
            && segment.getSegmentInfo().getDelCount() > 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Copies the last commit into {@code target} (an empty or absent folder), fsynced, and returns
   * the revision it holds. Any thread: the commit is held (Lucene's snapshot deletion policy) while
   * its files are copied, so commits and merges go on meanwhile without deleting them; once
   * released, files only that commit used are deleted at once, so a purge that committed during the
   * copy leaves nothing behind. The copy is a complete Lucene index whose commit names the
   * corpusId.
   */
  long copyLastCommit(Path target) throws IOException {
    IndexCommit commit;
    try {
      commit = commits.snapshot();
    } catch (IllegalStateException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' has no commit to back up", e);
    }
    try {
      assert info.corpusId().equals(commit.getUserData().get(Fields.COMMIT_CORPUS_ID))
          : "every commit names its corpus: " + commit.getUserData();
      Files.createDirectories(target);
      try (Directory out = FSDirectory.open(target)) {
        // segments_N last: a folder cut short by a crash holds no commit that names missing files.
        String segments = commit.getSegmentsFileName();
        for (String file : commit.getFileNames()) {
          if (!file.equals(segments)) {
            out.copyFrom(directory, file, file, IOContext.READONCE);
          }
        }
        out.copyFrom(directory, segments, segments, IOContext.READONCE);
        out.sync(commit.getFileNames());
        out.syncMetaData();
      }
      return Long.parseLong(commit.getUserData().get(Fields.COMMIT_REVISION));
    } finally {
      commits.release(commit);
      try {
        writer.deleteUnusedFiles();
      } catch (AlreadyClosedException e) {
        // closed meanwhile: the next writer's start deletes what no commit uses
      }
    }
  }

  /** Discards everything since the last commit and reopens the writer at that commit. */
  void rollbackAndReopen() throws IOException {
    try {
      writer.rollback();
    } finally {
      openWriter();
    }
  }

  /** The current snapshot, with a reference the caller must {@link IndexSnapshot#release()}. */
  IndexSnapshot acquire() {
    while (true) {
      IndexSnapshot s = snapshot;
      if (s == null) {
        throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closed");
      }
      if (s.tryIncRef()) {
        return s;
      }
      if (s == snapshot) {
        throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus '" + info.name() + "' is closed");
      }
    }
  }

  /** Work done on one snapshot, which stays referenced for its duration. */
  @FunctionalInterface
  interface SnapshotWork<T> {
    T apply(IndexSnapshot snapshot) throws IOException;
  }

  /** Runs {@code work} on the current snapshot and releases it afterwards. */
  <T> T withSnapshot(SnapshotWork<T> work) throws IOException {
    IndexSnapshot s = acquire();
    try {
      return work.apply(s);
    } finally {
      s.release();
    }
  }

  Optional<SourceState> readSource(String source, CorpusSettings.Language corpusLanguage)
      throws IOException {
    return withSnapshot(s -> SourceRecords.read(s.latest(), source, corpusLanguage));
  }

  /**
   * Whether {@code source}'s latest history entry is not a purge: it has content history not yet
   * purged.
   */
  boolean hasUnpurgedHistory(String source) throws IOException {
    return withSnapshot(s -> HistoryRetention.hasUnpurgedHistory(s.latest(), source));
  }

  /** The idempotency record for {@code term} unless it is older than {@code retention}. */
  Optional<CorpusIndex.StoredOutcome> findIdempotent(String term, Instant now, Duration retention)
      throws IOException {
    return withSnapshot(
        s -> {
          IndexSearcher searcher = new IndexSearcher(s.latest());
          TopDocs top = searcher.search(new TermQuery(new Term(Fields.IDEM_KEY, term)), 1);
          if (top.scoreDocs.length == 0) {
            return Optional.empty();
          }
          Document d = searcher.storedFields().document(top.scoreDocs[0].doc);
          long at = d.getField(Fields.IDEM_AT).numericValue().longValue();
          if (at < now.minus(retention).toEpochMilli()) {
            return Optional.empty();
          }
          return Optional.of(
              new CorpusIndex.StoredOutcome(
                  d.get(Fields.IDEM_FINGERPRINT), ResultCodec.read(d.get(Fields.IDEM_RESULT))));
        });
  }

  /**
   * Releases the snapshot and closes the writer and the directory. The writer commits nothing on
   * close (its merges have been committed by {@link #commitFinishedMerges} before, if at all).
   */
  @Override
  public void close() throws IOException {
    IndexSnapshot s = snapshot;
    snapshot = null;
    try {
      if (s != null) {
        s.release();
      }
    } finally {
      try {
        writer.close();
      } finally {
        directory.close();
      }
    }
  }
}
