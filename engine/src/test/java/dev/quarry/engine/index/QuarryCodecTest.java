package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import dev.quarry.testing.TestSeed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corpus codec: segments are written with it (found again by name through Lucene's service
 * loader), stored fields read back byte for byte whatever a document's size against the block size,
 * and indexes written with Lucene's own codec stay readable and are rewritten by merges.
 */
@ExtendWith(TestSeed.class)
class QuarryCodecTest {
  private static final CorpusInfo INFO =
      new CorpusInfo("handbook", "c1", CorpusSettings.DEFAULT, Instant.now());

  @TempDir Path dir;

  @Test
  void corpusSegments_areWrittenWithTheCorpusCodec_withTheirTextStoredAsItIs() throws Exception {
    // Repetitive, so that LZ4 would have stored it as back-references rather than as it is.
    String text = "Uncompressed stored text is read with one copy. ".repeat(20).trim();
    try (CorpusIndex index = CorpusIndex.open(dir, INFO, EngineConfig.defaults())) {
      index.apply(
          new Mutation(
              List.of(SourceOperation.Index.text("a", "Title", text, Metadata.EMPTY)),
              "tester",
              null,
              null));
    }
    try (FSDirectory directory = FSDirectory.open(dir)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      assertTrue(infos.size() > 0);
      for (SegmentCommitInfo segment : infos) {
        assertEquals(QuarryCodec.NAME, segment.info.getCodec().getName());
      }
      assertEquals(QuarryCodec.class, Codec.forName(QuarryCodec.NAME).getClass());
      // Not compressed: the chunk's text lies in a file of the index as its UTF-8 bytes (the
      // stored-fields file, or the compound file a small segment packs it in).
      assertTrue(
          IndexFiles.anyFileHolds(dir, text), "no file of the index holds the text as it is");
    }
  }

  @Test
  void storedFields_readBackExactly_smallAndLargerThanABlock_acrossMerges(Random random)
      throws Exception {
    List<String> texts = new ArrayList<>();
    try (FSDirectory directory = FSDirectory.open(dir);
        IndexWriter writer =
            new IndexWriter(
                directory,
                new IndexWriterConfig()
                    .setCodec(new QuarryCodec())
                    .setMaxBufferedDocs(2 + random.nextInt(40)))) {
      int documents = 200 + random.nextInt(300);
      for (int i = 0; i < documents; i++) {
        // Mostly chunk-sized texts, some far beyond a 16 KB block, a few empty.
        int length =
            switch (random.nextInt(10)) {
              case 0 -> 0;
              case 1 -> 16 * 1024 + random.nextInt(60_000);
              default -> random.nextInt(3_000);
            };
        texts.add(add(writer, i, randomText(random, length)));
      }
      writer.commit();
      assertReadsBack(directory, texts);
      writer.forceMerge(1);
      writer.commit();
      assertReadsBack(directory, texts);
    }
  }

  @Test
  void anIndexWrittenWithLucenesCodec_staysReadable_andMergesRewriteItWithTheCorpusCodec(
      Random random) throws Exception {
    List<String> texts = new ArrayList<>();
    try (FSDirectory directory = FSDirectory.open(dir)) {
      try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
        for (int i = 0; i < 50; i++) {
          texts.add(add(writer, i, randomText(random, random.nextInt(2_000))));
        }
      }
      assertEquals(
          Codec.getDefault().getName(),
          SegmentInfos.readLatestCommit(directory).info(0).info.getCodec().getName());
      try (IndexWriter writer =
          new IndexWriter(directory, new IndexWriterConfig().setCodec(new QuarryCodec()))) {
        for (int i = 50; i < 100; i++) {
          texts.add(add(writer, i, randomText(random, random.nextInt(2_000))));
        }
        writer.commit();
        assertReadsBack(directory, texts);
        writer.forceMerge(1);
        writer.commit();
      }
      SegmentInfos merged = SegmentInfos.readLatestCommit(directory);
      assertEquals(1, merged.size());
      assertEquals(QuarryCodec.NAME, merged.info(0).info.getCodec().getName());
      assertReadsBack(directory, texts);
    }
  }

  private static String add(IndexWriter writer, int id, String text) throws Exception {
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    doc.add(new StoredField("text", text));
    doc.add(new StoredField("n", (long) id * 31));
    writer.addDocument(doc);
    return text;
  }

  private static void assertReadsBack(FSDirectory directory, List<String> texts) throws Exception {
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      assertEquals(texts.size(), reader.numDocs());
      StoredFields stored = reader.storedFields();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        Document document = stored.document(doc);
        int id = Integer.parseInt(document.get("id"));
        assertEquals(texts.get(id), document.get("text"), "text of document " + id);
        assertEquals((long) id * 31, document.getField("n").numericValue().longValue());
      }
    }
  }

  /** Words of random letters, with some multi-byte characters. */
  private static String randomText(Random random, int length) {
    StringBuilder text = new StringBuilder(length);
    while (text.length() < length) {
      int c = random.nextInt(30);
      text.append(c < 26 ? (char) ('a' + c) : c == 26 ? 'é' : c == 27 ? '語' : ' ');
    }
    return text.substring(0, length);
  }
}
