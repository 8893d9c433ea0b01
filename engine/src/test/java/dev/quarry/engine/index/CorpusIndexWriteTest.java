package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Passage;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusIndexWriteTest {
  @TempDir Path dir;
  CorpusIndex index;

  @BeforeEach
  void open() throws Exception {
    index =
        CorpusIndex.open(
            dir,
            new CorpusInfo("handbook", "c1", CorpusSettings.DEFAULT, Instant.now()),
            EngineConfig.defaults());
  }

  @AfterEach
  void close() throws Exception {
    index.close();
  }

  static SourceOperation.Index passages(String source, String... texts) {
    List<Passage> ps = new ArrayList<>();
    for (String t : texts) {
      ps.add(new Passage(t, Metadata.EMPTY));
    }
    return new SourceOperation.Index(
        source,
        "Title of " + source,
        null,
        ps,
        null,
        Metadata.of(Map.of("dept", "hr"), "metadata"),
        null,
        null,
        null,
        null);
  }

  static SourceOperation.Index expecting(SourceOperation.Index op, long expected) {
    return new SourceOperation.Index(
        op.source(),
        op.title(),
        op.text(),
        op.passages(),
        op.mediaType(),
        op.metadata(),
        expected,
        op.pageStarts(),
        op.contentSha256(),
        op.ingest());
  }

  MutationResult apply(SourceOperation... ops) {
    return index.apply(new Mutation(List.of(ops), "tester", null, null));
  }

  @Test
  void index_newSource_makesOneRevisionAndIsReadable() {
    Receipt r = apply(passages("a", "alpha one", "alpha two")).single();
    assertEquals(Receipt.Status.INDEXED, r.status());
    assertEquals(1, r.revision());
    assertEquals(1, r.sourceRevision());
    assertEquals(2, r.chunks());
    assertEquals(dev.quarry.engine.Sha256.ofUtf8("alpha one\n\nalpha two"), r.contentSha256());
    assertEquals(1, index.revision());
    SourceState s = index.readSource("a").orElseThrow();
    assertEquals(1, s.sourceRevision());
    assertEquals("Title of a", s.title());
    assertEquals("hr", s.metadata().values().get("dept"));
    assertEquals(2, s.chunks());
  }

  @Test
  void index_sameContent_isUnchangedAndMakesNoRevision() {
    apply(passages("a", "alpha"));
    Receipt again = apply(passages("a", "alpha")).single();
    assertEquals(Receipt.Status.UNCHANGED, again.status());
    assertEquals(1, again.revision());
    assertEquals(1, again.sourceRevision());
    assertEquals(1, index.revision());
  }

  @Test
  void index_expectedRevisionMismatch_isConflictAndChangesNothing() {
    apply(passages("a", "alpha"));
    QuarryException e =
        assertThrows(QuarryException.class, () -> apply(expecting(passages("a", "beta"), 0)));
    assertEquals(ErrorCode.REVISION_CONFLICT, e.code());
    assertEquals("expectedRevision", e.field());
    assertEquals(1, index.revision());
    Receipt ok = apply(expecting(passages("a", "beta"), 1)).single();
    assertEquals(2, ok.sourceRevision());
  }

  @Test
  void delete_existingThenAbsent() {
    apply(passages("a", "alpha"));
    Receipt d = apply(new SourceOperation.Delete("a", null, false)).single();
    assertEquals(Receipt.Status.DELETED, d.status());
    assertEquals(2, d.revision());
    assertTrue(index.readSource("a").isEmpty());
    Receipt again = apply(new SourceOperation.Delete("a", null, false)).single();
    assertEquals(Receipt.Status.ABSENT, again.status());
    assertEquals(2, index.revision());
  }

  @Test
  void batch_withConflict_appliesNothing() {
    apply(passages("a", "alpha"));
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () ->
                apply(
                    passages("b", "beta"),
                    expecting(passages("a", "changed"), 7),
                    passages("c", "gamma")));
    assertEquals(ErrorCode.REVISION_CONFLICT, e.code());
    assertEquals("operations[1].expectedRevision", e.field());
    assertEquals(1, index.revision());
    assertTrue(index.readSource("b").isEmpty());
  }

  @Test
  void batch_appliesAllAtOneRevision_andHistoryHasOneEntryPerChange() {
    apply(passages("a", "alpha"));
    MutationResult r =
        apply(
            passages("a", "alpha"),
            passages("b", "beta"),
            new SourceOperation.Delete("zzz", null, false),
            passages("c", "gamma"));
    assertEquals(2, r.revision());
    assertEquals(
        List.of(
            Receipt.Status.UNCHANGED,
            Receipt.Status.INDEXED,
            Receipt.Status.ABSENT,
            Receipt.Status.INDEXED),
        r.receipts().stream().map(Receipt::status).toList());
    HistoryPage page = index.history(0, 100, s -> true);
    assertEquals(List.of(1L, 2L, 2L), page.entries().stream().map(HistoryEntry::revision).toList());
    assertEquals(
        List.of("a", "b", "c"), page.entries().stream().map(HistoryEntry::source).toList());
    assertNull(page.nextAfter());
  }

  @Test
  void history_pageNeverSplitsARevision() {
    apply(passages("a", "alpha"));
    apply(passages("b", "beta"), passages("c", "gamma"), passages("d", "delta"));
    apply(passages("e", "epsilon"));
    HistoryPage first = index.history(0, 2, s -> true);
    assertEquals(4, first.entries().size());
    assertEquals(2L, first.nextAfter());
    HistoryPage second = index.history(first.nextAfter(), 2, s -> true);
    assertEquals(List.of("e"), second.entries().stream().map(HistoryEntry::source).toList());
    HistoryPage hidden = index.history(0, 10, s -> !s.equals("c"));
    assertFalse(hidden.entries().stream().anyMatch(h -> h.source().equals("c")));
  }

  @Test
  void idempotency_replayReturnsOriginalAndReuseIsRefused() {
    Mutation m =
        new Mutation(
            List.of(passages("a", "alpha")), "tester", new Mutation.Idempotency("k1", "fp1"), null);
    MutationResult first = index.apply(m);
    MutationResult replay = index.apply(m);
    assertTrue(replay.replayed());
    assertEquals(first.single(), replay.single());
    assertEquals(1, index.revision());
    Mutation other =
        new Mutation(
            List.of(passages("a", "beta")), "tester", new Mutation.Idempotency("k1", "fp2"), null);
    assertEquals(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        assertThrows(QuarryException.class, () -> index.apply(other)).code());
    Mutation otherSubject =
        new Mutation(
            List.of(passages("a", "beta")), "someone", new Mutation.Idempotency("k1", "fp2"), null);
    assertEquals(2, index.apply(otherSubject).revision());
  }

  @Test
  void idempotency_survivesReopen() throws Exception {
    Mutation m =
        new Mutation(
            List.of(passages("a", "alpha")), "tester", new Mutation.Idempotency("k1", "fp1"), null);
    MutationResult first = index.apply(m);
    index.close();
    open();
    MutationResult replay = index.apply(m);
    assertTrue(replay.replayed());
    assertEquals(first.revision(), replay.revision());
  }

  @Test
  void concurrentMutations_getDistinctGapFreeRevisions_withGroupCommit() throws Exception {
    int n = 400;
    List<CompletableFuture<MutationResult>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      futures.add(index.submit(Mutation.of(passages("s" + i, "text number " + i), "tester")));
    }
    Set<Long> revisions = new TreeSet<>();
    for (CompletableFuture<MutationResult> f : futures) {
      revisions.add(f.join().revision());
    }
    assertEquals(n, revisions.size());
    assertEquals(1L, ((TreeSet<Long>) revisions).first());
    assertEquals((long) n, ((TreeSet<Long>) revisions).last());
    long commits = ((LuceneCorpusIndex) index).commits();
    assertTrue(
        commits < n, "group commit should commit fewer times than mutations; commits=" + commits);
  }

  @Test
  void listSources_pagesInNameOrderWithCursor() {
    for (String s : List.of("b", "a", "d", "c", "e")) {
      apply(passages(s, "text " + s));
    }
    apply(new SourceOperation.Delete("c", null, false));
    SourcePage p1 = index.listSources(null, null, 2, s -> true);
    assertEquals(List.of("a", "b"), p1.sources().stream().map(SourceState::source).toList());
    SourcePage p2 = index.listSources(null, p1.nextCursor(), 2, s -> true);
    assertEquals(List.of("d", "e"), p2.sources().stream().map(SourceState::source).toList());
    assertNull(p2.nextCursor());
    assertEquals(4, index.countSources(null));
    assertEquals(3, index.countSources(s -> !s.equals("a")));
  }

  @Test
  void corpusIdMismatch_isCorpusReplaced() {
    Mutation m = new Mutation(List.of(passages("a", "alpha")), "tester", null, "other-id");
    assertEquals(
        ErrorCode.CORPUS_REPLACED,
        assertThrows(QuarryException.class, () -> index.apply(m)).code());
  }
}
