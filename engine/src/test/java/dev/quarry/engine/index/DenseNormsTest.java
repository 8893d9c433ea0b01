package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every document of a corpus index has a norm in the fields BM25 scores (chunks, source records,
 * history entries and idempotency records alike), so Lucene stores those norms densely; the
 * documents without text count in neither field's statistics.
 */
class DenseNormsTest {
  private static final CorpusInfo INFO =
      new CorpusInfo("handbook", "c1", CorpusSettings.DEFAULT, Instant.now());

  @TempDir Path dir;

  @Test
  void everyDocument_hasANormInTextAndTitle_andOnlyChunksCountInTheirStatistics() throws Exception {
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, EngineConfig.defaults())) {
      index.apply(
          new Mutation(
              List.of(
                  SourceOperation.Index.text(
                      "titled", "A title", "Some words about norms.", Metadata.EMPTY),
                  SourceOperation.Index.text(
                      "untitled", null, "Other words without a title.", Metadata.EMPTY)),
              "tester",
              new Mutation.Idempotency("k1", "fp1"),
              null));
      index.apply(
          new Mutation(
              List.of(new SourceOperation.Delete("untitled", null, false)), "tester", null, null));
    }
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      int documents = 0;
      for (LeafReaderContext context : reader.leaves()) {
        LeafReader leaf = context.reader();
        for (String field : List.of(Fields.TEXT, Fields.TITLE)) {
          NumericDocValues norms = leaf.getNormValues(field);
          assertNotNull(norms, field);
          for (int doc = 0; doc < leaf.maxDoc(); doc++) {
            assertTrue(norms.advanceExact(doc), field + " has no norm in document " + doc);
          }
        }
        documents += leaf.maxDoc();
      }
      // Two chunks, two source records, three history entries and one idempotency record.
      assertEquals(8, documents);
      IndexSearcher searcher = new IndexSearcher(reader);
      int chunks = searcher.count(new TermQuery(new Term(Fields.KIND, Fields.KIND_CHUNK)));
      assertEquals(2, chunks);
      assertEquals(2, searcher.collectionStatistics(Fields.TEXT).docCount());
      assertEquals(1, searcher.collectionStatistics(Fields.TITLE).docCount());
    }
  }
}
