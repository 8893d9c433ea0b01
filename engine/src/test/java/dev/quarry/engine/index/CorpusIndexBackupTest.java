package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CorpusIndex#backup}: a consistent copy of the last commit, taken while writes go on. */
class CorpusIndexBackupTest {
  private static final CorpusInfo INFO =
      new CorpusInfo("handbook", "c1", CorpusSettings.DEFAULT, Instant.now());

  @TempDir Path dir;

  @Test
  void backup_duringWrites_opensAtTheRevisionItReturnsWithEveryEarlierReceipt() throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("live"), INFO, EngineConfig.defaults())) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong acknowledged = new AtomicLong();
      Thread writer =
          new Thread(
              () -> {
                for (int i = 0; !stop.get(); i++) {
                  acknowledged.set(
                      apply(
                          index,
                          CorpusIndexWriteTest.passages("s" + (i % 13), "words number " + i)));
                }
              });
      writer.start();
      while (acknowledged.get() < 20) {
        Thread.sleep(5);
      }
      long before = acknowledged.get();
      long revision = index.backup(dir.resolve("copy"));
      Thread.sleep(50);
      stop.set(true);
      writer.join();
      assertTrue(
          revision >= before,
          "backed up at " + revision + ", after a receipt of revision " + before);
      assertTrue(index.revision() > revision, "writes went on after the backup");
      try (CorpusIndex copy =
          CorpusIndex.open(dir.resolve("copy"), INFO, EngineConfig.defaults())) {
        assertEquals(revision, copy.revision());
        assertEquals(13, copy.countSources(s -> true));
      }
    }
  }

  @Test
  void backup_afterAPurge_holdsNoTraceOfThePurgedSource() throws Exception {
    Term secret = new Term(Fields.TEXT, "zanzibarquux");
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("live"), INFO, EngineConfig.defaults())) {
      apply(index, CorpusIndexWriteTest.passages("secret", "the zanzibarquux file"));
      apply(
          index, CorpusIndexWriteTest.passages("secret", "the zanzibarquux file, second version"));
      apply(index, CorpusIndexWriteTest.passages("open", "an open file"));
      index.backup(dir.resolve("before"));
      assertTrue(
          docFreq(dir.resolve("before"), secret) > 0, "a backup before the purge holds the source");
      index.apply(
          new Mutation(
              List.of(new SourceOperation.Delete("secret", null, true)), "tester", null, null));
      index.backup(dir.resolve("after"));
    }
    // docFreq counts deleted documents too: zero means no segment of the copy holds the term at
    // all.
    assertEquals(0, docFreq(dir.resolve("after"), secret));
  }

  private static long apply(CorpusIndex index, SourceOperation op) {
    return index.apply(new Mutation(List.of(op), "tester", null, null)).revision();
  }

  private static int docFreq(Path copy, Term term) throws Exception {
    try (FSDirectory directory = FSDirectory.open(copy);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      return reader.docFreq(term);
    }
  }
}
