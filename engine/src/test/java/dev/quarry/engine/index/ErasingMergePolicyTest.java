package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SoftDeletesRetentionMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ErasingMergePolicyTest {
  @TempDir Path dir;

  /**
   * The retention policy alone keeps a segment of hard-deleted, retained versions; wrapped, it is
   * dropped.
   */
  @Test
  void fullyHardDeletedSegment_isDroppedAlthoughItsVersionsAreRetained() throws IOException {
    assertEquals(
        1,
        segmentsAfterPurge(retainingEverything(), dir.resolve("retention-only")),
        "without the wrapper the purged segment stays: the case this policy exists for");
    assertEquals(
        0,
        segmentsAfterPurge(new ErasingMergePolicy(retainingEverything()), dir.resolve("erasing")));
  }

  private static MergePolicy retainingEverything() {
    return new SoftDeletesRetentionMergePolicy(
        Fields.SOFT_DELETES, MatchAllDocsQuery::new, NoMergePolicy.INSTANCE);
  }

  /**
   * One segment: a version superseded (soft-deleted, retained) and its successor, then both purged.
   */
  private static int segmentsAfterPurge(MergePolicy policy, Path path) throws IOException {
    try (Directory directory = FSDirectory.open(path)) {
      IndexWriterConfig config =
          new IndexWriterConfig(new StandardAnalyzer())
              .setSoftDeletesField(Fields.SOFT_DELETES)
              .setMergePolicy(policy)
              .setMaxFullFlushMergeWaitMillis(0);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        writer.addDocument(version("1"));
        writer.softUpdateDocument(
            new Term("source", "secret"),
            version("2"),
            new NumericDocValuesField(Fields.SOFT_DELETES, 1));
        writer.commit();
        writer.deleteDocuments(new Term("source", "secret"));
        writer.commit();
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        return reader.leaves().size();
      }
    }
  }

  private static Document version(String n) {
    Document d = new Document();
    d.add(new StringField("source", "secret", Field.Store.NO));
    d.add(new TextField("text", "zanzibarquux version " + n, Field.Store.YES));
    return d;
  }
}
