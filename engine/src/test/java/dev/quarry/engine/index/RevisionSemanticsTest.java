package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random mutations against a model of every revision: after each step, every earlier revision
 * answers exactly as the model says and with the scores it gave when it was the latest.
 */
@ExtendWith(TestSeed.class)
class RevisionSemanticsTest {
  private static final String[] WORDS = {
    "river", "otter", "bank", "delta", "stone", "bridge", "water", "salmon", "reed", "heron",
    "mill", "ford"
  };
  private static final List<String> QUERIES =
      List.of("river", "otter bank", "delta stone bridge", "salmon", "heron mill");
  private static final CorpusInfo INFO =
      new CorpusInfo(
          "revisions",
          "rev-id",
          new CorpusSettings(
              CorpusSettings.Language.ENGLISH,
              new CorpusSettings.Chunking(16, 0),
              CorpusSettings.Ranking.DEFAULT),
          Instant.EPOCH);

  @TempDir Path dir;

  /** A hit reduced to what must be identical across repeated searches. */
  record Answer(String source, long sourceRevision, int chunk, float score, String text) {}

  @Test
  void everyRetainedRevision_answersExactlyAsWhenItWasLatest(Random random) throws Exception {
    Map<Long, Map<String, String>> model = new TreeMap<>();
    Map<String, String> current = new TreeMap<>();
    model.put(0L, Map.copyOf(current));
    Map<Long, Map<String, List<Answer>>> answers = new HashMap<>();
    // Any merge policy, buffer size and flush points: the answers must not depend on the layout.
    try (CorpusIndex index = RandomWriterConfigs.open(dir, INFO, EngineConfig.defaults(), random)) {
      answers.put(0L, answerAll(index, 0));
      for (int step = 0; step < 60; step++) {
        List<SourceOperation> ops = new ArrayList<>();
        Map<String, String> next = new TreeMap<>(current);
        int n = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
        java.util.Set<String> used = new java.util.HashSet<>();
        while (ops.size() < n) {
          String source = "s" + random.nextInt(12);
          if (!used.add(source)) {
            continue;
          }
          if (current.containsKey(source) && random.nextInt(4) == 0) {
            ops.add(new SourceOperation.Delete(source, null, false));
            next.remove(source);
          } else {
            String text = randomText(random);
            ops.add(SourceOperation.Index.text(source, null, text, null));
            next.put(source, text);
          }
        }
        MutationResult r = index.apply(new Mutation(ops, "tester", null, null));
        if (!next.equals(current)) {
          assertEquals(model.size(), r.revision(), "each change makes exactly one revision");
          current = next;
          model.put(r.revision(), Map.copyOf(current));
          answers.put(r.revision(), answerAll(index, r.revision()));
        }
        if (random.nextInt(8) == 0) {
          ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(2));
        }
        for (Map.Entry<Long, Map<String, String>> at : model.entrySet()) {
          long rev = at.getKey();
          Map<String, List<Answer>> again = answerAll(index, rev);
          assertEquals(
              answers.get(rev), again, "revision " + rev + " answered differently at step " + step);
          checkAgainstModel(at.getValue(), again, rev);
        }
      }
    }
  }

  private static void checkAgainstModel(
      Map<String, String> sources, Map<String, List<Answer>> byQuery, long rev) {
    for (Map.Entry<String, List<Answer>> e : byQuery.entrySet()) {
      java.util.Set<String> expected = new java.util.TreeSet<>();
      for (Map.Entry<String, String> s : sources.entrySet()) {
        for (String word : e.getKey().split(" ")) {
          if ((" " + s.getValue() + " ").contains(" " + word + " ")) {
            expected.add(s.getKey());
          }
        }
      }
      java.util.Set<String> got = new java.util.TreeSet<>();
      for (Answer a : e.getValue()) {
        got.add(a.source());
        assertTrue(
            sources.containsKey(a.source()) && sources.get(a.source()).contains(a.text()),
            "hit " + a + " is not content of revision " + rev);
      }
      assertEquals(expected, got, "sources matching '" + e.getKey() + "' at revision " + rev);
    }
  }

  private static Map<String, List<Answer>> answerAll(CorpusIndex index, long revision) {
    Map<String, List<Answer>> out = new TreeMap<>();
    for (String q : QUERIES) {
      List<Answer> list = new ArrayList<>();
      for (Hit h :
          index
              .search(new SearchRequest(q, SourceScope.ALL, List.of(), 100, revision, null, false))
              .hits()) {
        list.add(new Answer(h.source(), h.sourceRevision(), h.chunk(), h.score(), h.text()));
      }
      out.put(q, list);
    }
    return out;
  }

  private static String randomText(Random random) {
    int words = 3 + random.nextInt(40);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  @Test
  void purge_erasesEveryVersionFromSearchesAndDisk() throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, EngineConfig.defaults())) {
      index.apply(
          Mutation.of(
              SourceOperation.Index.text("secret", null, "zanzibarquux first version", null), "t"));
      index.apply(
          Mutation.of(
              SourceOperation.Index.text("other", null, "harmless zanzibar text", null), "t"));
      index.apply(
          Mutation.of(
              SourceOperation.Index.text("secret", null, "zanzibarquux second version", null),
              "t"));
      assertEquals(
          1,
          index
              .search(new SearchRequest("zanzibarquux", null, null, 10, 1L, null, false))
              .hits()
              .size());
      MutationResult purge =
          index.apply(Mutation.of(new SourceOperation.Delete("secret", null, true), "t"));
      assertEquals(4, purge.revision());
      for (long r = 0; r <= 4; r++) {
        assertTrue(
            index
                .search(new SearchRequest("zanzibarquux", null, null, 10, r, null, false))
                .hits()
                .isEmpty(),
            "purged content visible at revision " + r);
      }
      assertEquals(
          1,
          index
              .search(new SearchRequest("harmless", null, null, 10, 2L, null, false))
              .hits()
              .size());
      var history = index.history(0, 100, s -> true).entries();
      assertTrue(
          history.stream()
              .filter(h -> h.source().equals("secret"))
              .allMatch(
                  h ->
                      h.contentSha256() == null
                          && (h.subject() == null || h.operation().equals("purge"))));
      assertEquals("purge", history.get(history.size() - 1).operation());
    }
    try (FSDirectory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      Terms terms = MultiTerms.getTerms(reader, Fields.TEXT);
      assertFalse(
          terms.iterator().seekExact(new BytesRef("zanzibarquux")),
          "purged term still in the term dictionary");
    }
    IndexFiles.assertNoFileHolds(dir, "zanzibarquux", "after the purge");
  }

  /**
   * A purge of a deleted source follows its history, never retention or merges: a source deleted so
   * long ago that no retained revision sees a version of it is still purged (a new revision), its
   * expired versions leave the disk and its history entries keep no hash nor subject; a purge of a
   * source that never existed, or whose latest history entry is a purge, is absent.
   */
  @Test
  void purgeOfASourceDeletedLongAgo_erasesWhatIsLeft_absentOnceNothingIs() throws IOException {
    EngineConfig small = EngineConfig.builder().retainedRevisions(3).build();
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, small)) {
      index.apply(
          Mutation.of(
              SourceOperation.Index.text("gone", null, "zanzibarquux river words", null),
              "author-of-gone"));
      index.apply(Mutation.of(new SourceOperation.Delete("gone", null, false), "author-of-gone"));
      for (int r = 3; r <= 6; r++) {
        index.apply(
            Mutation.of(SourceOperation.Index.text("other", null, "words " + r, null), "t"));
      }
      // No retained revision (4 to 6) sees "gone"'s version, deleted at 2.
      assertEquals(4, index.oldestRetainedRevision());
      MutationResult deleted =
          index.apply(Mutation.of(new SourceOperation.Delete("gone", null, true), "t"));
      assertEquals(Receipt.Status.DELETED, deleted.single().status());
      assertEquals(7, deleted.revision());
      MutationResult again =
          index.apply(Mutation.of(new SourceOperation.Delete("gone", null, true), "t"));
      assertEquals(Receipt.Status.ABSENT, again.single().status());
      assertEquals(7, again.revision());
      MutationResult never =
          index.apply(Mutation.of(new SourceOperation.Delete("never", null, true), "t"));
      assertEquals(Receipt.Status.ABSENT, never.single().status());
      assertEquals(7, never.revision());
    }
    assertEquals(List.of("index::", "delete::", "purge::t"), historyOnDisk("gone"));
    IndexFiles.assertNoFileHolds(dir, "zanzibarquux", "after purging a source deleted long ago");
    IndexFiles.assertNoFileHolds(dir, "author-of-gone", "after purging a source deleted long ago");
  }

  /**
   * Pruning history past retention keeps each source's latest entry unless it is a purge, so a
   * purge's answer does not depend on when pruning ran: a source deleted long before the last prune
   * is still purged, and a source purged long before it stays absent.
   */
  @Test
  void historyPruning_keepsTheLatestEntryOfEachSource_unlessAPurge() throws IOException {
    EngineConfig small = EngineConfig.builder().retainedRevisions(3).build();
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, small)) {
      index.apply(Mutation.of(SourceOperation.Index.text("gone", null, "river words", null), "t"));
      index.apply(Mutation.of(new SourceOperation.Delete("gone", null, false), "t"));
      index.apply(
          Mutation.of(SourceOperation.Index.text("purged", null, "otter words", null), "t"));
      index.apply(Mutation.of(new SourceOperation.Delete("purged", null, true), "t"));
      // Far past the first prune (oldest retained revision 64 or more), twice over; submitted eight
      // at a time, so that they share commits (a prune reads the entries published before its
      // group).
      for (int r = 5; r <= 140; r += 8) {
        List<java.util.concurrent.CompletableFuture<MutationResult>> writes = new ArrayList<>();
        for (int w = r; w < r + 8 && w <= 140; w++) {
          writes.add(
              index.submit(
                  Mutation.of(SourceOperation.Index.text("other", null, "words " + w, null), "t")));
        }
        writes.forEach(java.util.concurrent.CompletableFuture::join);
      }
      assertEquals(140, index.revision());
    }
    assertEquals(List.of("delete::t"), historyOnDisk("gone"));
    assertEquals(List.of(), historyOnDisk("purged"));
    // Pruned at least once (136 entries without): one entry below the last prune, and those from it
    // on.
    assertTrue(historyOnDisk("other").size() < 140 - 56, "history of 'other' not pruned");
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, small)) {
      assertEquals(
          Receipt.Status.ABSENT,
          index
              .apply(Mutation.of(new SourceOperation.Delete("purged", null, true), "t"))
              .single()
              .status());
      MutationResult deleted =
          index.apply(Mutation.of(new SourceOperation.Delete("gone", null, true), "t"));
      assertEquals(Receipt.Status.DELETED, deleted.single().status());
      assertEquals(141, deleted.revision());
    }
  }

  /** The history entries of {@code source} on disk, oldest first, as "operation:sha256:subject". */
  private List<String> historyOnDisk(String source) throws IOException {
    try (FSDirectory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      var searcher = new org.apache.lucene.search.IndexSearcher(reader);
      var top =
          searcher.search(
              new org.apache.lucene.search.TermQuery(
                  new org.apache.lucene.index.Term(Fields.HISTORY_SOURCE, source)),
              1000,
              new org.apache.lucene.search.Sort(
                  new org.apache.lucene.search.SortField(
                      Fields.HISTORY_REV, org.apache.lucene.search.SortField.Type.LONG)));
      List<String> entries = new ArrayList<>();
      for (var sd : top.scoreDocs) {
        var doc = searcher.storedFields().document(sd.doc);
        entries.add(
            doc.get(Fields.HISTORY_OP)
                + ":"
                + java.util.Objects.toString(doc.get(Fields.HISTORY_SHA256), "")
                + ":"
                + java.util.Objects.toString(doc.get(Fields.HISTORY_SUBJECT), ""));
      }
      return entries;
    }
  }

  @Test
  void pastRetention_revisionsAndCursorsExpire() throws IOException {
    EngineConfig small = EngineConfig.builder().retainedRevisions(3).build();
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, small)) {
      for (int i = 0; i < 6; i++) {
        index.apply(
            Mutation.of(SourceOperation.Index.text("s", null, "river version " + i, null), "t"));
      }
      assertEquals(4, index.oldestRetainedRevision());
      assertEquals(
          1,
          index.search(new SearchRequest("river", null, null, 10, 4L, null, false)).hits().size());
      QuarryException expired =
          assertThrows(
              QuarryException.class,
              () -> index.search(new SearchRequest("river", null, null, 10, 3L, null, false)));
      assertEquals(ErrorCode.REVISION_EXPIRED, expired.code());
      assertEquals(
          ErrorCode.CURSOR_EXPIRED,
          assertThrows(QuarryException.class, () -> index.history(1, 10, s -> true)).code());
      assertEquals(3, index.history(3, 10, s -> true).entries().size());
      assertEquals(
          ErrorCode.INVALID_REQUEST,
          assertThrows(
                  QuarryException.class,
                  () -> index.search(new SearchRequest("river", null, null, 10, 7L, null, false)))
              .code());
    }
  }
}
