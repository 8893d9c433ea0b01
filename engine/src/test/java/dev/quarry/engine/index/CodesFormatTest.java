package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The codes' own doc-values format: every document's code and list read back as written, by
 * document (as merges and checks read them) and by slot (as the first pass reads them: list after
 * list, documents in order within each, those filed in none last), across flushes, deletes and
 * merges, with Lucene's index check clean; values it cannot keep are refused.
 */
@ExtendWith(TestSeed.class)
class CodesFormatTest {
  @TempDir Path dir;

  /** The code lengths the first pass writes: sign codes, centred codes of 1, 2 and 4 bits. */
  private static final int[] LENGTHS = {48, 52, 100, 196};

  @Test
  void codesAndLists_readBackAsWritten_byDocumentAndBySlot_acrossFlushesDeletesAndMerges(
      Random random) throws Exception {
    int codeBytes = LENGTHS[random.nextInt(LENGTHS.length)];
    int lists = 1 + random.nextInt(40);
    int docs = 300 + random.nextInt(1500);
    Map<String, byte[]> codes = new HashMap<>();
    Map<String, Integer> listOf = new HashMap<>();
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config(random))) {
      for (int i = 0; i < docs; i++) {
        String id = "d" + i;
        Document d = new Document();
        d.add(new StringField("id", id, Field.Store.YES));
        if (random.nextInt(10) > 0) { // a few documents without a code, as source records
          byte[] code = new byte[codeBytes];
          random.nextBytes(code);
          codes.put(id, code);
          d.add(new BinaryDocValuesField(Fields.VECTOR_CENTRED_CODE, new BytesRef(code)));
          if (random.nextInt(5) > 0) { // and some codes filed in no list
            int list = random.nextInt(lists);
            listOf.put(id, list);
            d.add(new NumericDocValuesField(Fields.VECTOR_LIST, list));
          }
        }
        writer.addDocument(d);
        if (random.nextInt(20) == 0) {
          String deleted = "d" + random.nextInt(i + 1);
          writer.deleteDocuments(new Term("id", deleted));
          codes.remove(deleted);
          listOf.remove(deleted);
        }
      }
      writer.commit();
      assertReadBack(directory, codes, listOf);
      writer.forceMerge(1);
      writer.commit();
      assertReadBack(directory, codes, listOf);
    }
    try (Directory directory = FSDirectory.open(dir);
        CheckIndex check = new CheckIndex(directory)) {
      assertTrue(check.checkIndex().clean, "the index check found problems");
    }
  }

  @Test
  void aFieldWithValuesOfTwoLengths_isRefusedWhenTheSegmentIsWritten() throws Exception {
    IndexWriterConfig config = new IndexWriterConfig().setCodec(new QuarryCodec());
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config)) {
      for (int length : new int[] {100, 52}) {
        Document d = new Document();
        d.add(new BinaryDocValuesField(Fields.VECTOR_CENTRED_CODE, new BytesRef(new byte[length])));
        writer.addDocument(d);
      }
      Exception refused = assertThrows(Exception.class, writer::commit);
      assertTrue(causes(refused).contains("keeps codes of one length"), () -> causes(refused));
    }
    assertNothingLeft();
  }

  @Test
  void aListOutsideTheRange_isRefusedWhenTheSegmentIsWritten() throws Exception {
    IndexWriterConfig config = new IndexWriterConfig().setCodec(new QuarryCodec());
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config)) {
      Document d = new Document();
      d.add(new BinaryDocValuesField(Fields.VECTOR_CENTRED_CODE, new BytesRef(new byte[52])));
      d.add(new NumericDocValuesField(Fields.VECTOR_LIST, -1));
      writer.addDocument(d);
      Exception refused = assertThrows(Exception.class, writer::commit);
      assertTrue(causes(refused).contains("files a document in list -1"), () -> causes(refused));
    }
    assertNothingLeft();
  }

  /** The failed segment left no file behind: neither its codes nor their temporary files. */
  private void assertNothingLeft() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      List<String> left =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.endsWith(".tmp") || n.contains(CodesFormat.NAME))
              .toList();
      assertEquals(List.of(), left);
    }
  }

  private static IndexWriterConfig config(Random random) {
    IndexWriterConfig config = new IndexWriterConfig().setCodec(new QuarryCodec());
    config.setMaxBufferedDocs(50 + random.nextInt(400)); // several segments
    config.setUseCompoundFile(random.nextBoolean());
    if (random.nextBoolean()) {
      config.setMergePolicy(NoMergePolicy.INSTANCE);
    }
    return config;
  }

  /** Every live document's code and list, read by document and by slot, are the ones written. */
  private static void assertReadBack(
      Directory directory, Map<String, byte[]> codes, Map<String, Integer> listOf)
      throws Exception {
    int seenCodes = 0;
    int seenLists = 0;
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext context : reader.leaves()) {
        LeafReader leaf = context.reader();
        assertEquals(
            CodesFormat.NAME,
            leaf.getFieldInfos()
                .fieldInfo(Fields.VECTOR_CENTRED_CODE)
                .getAttribute(PerFieldDocValuesFormat.PER_FIELD_FORMAT_KEY));
        StoredFields stored = leaf.storedFields();
        String[] ids = new String[leaf.maxDoc()];
        for (int d = 0; d < ids.length; d++) {
          ids[d] = stored.document(d).get("id");
        }
        // By document.
        BinaryDocValues values = leaf.getBinaryDocValues(Fields.VECTOR_CENTRED_CODE);
        for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
          if (leaf.getLiveDocs() == null || leaf.getLiveDocs().get(d)) {
            assertArrayEquals(codes.get(ids[d]), BytesRef.deepCopyOf(values.binaryValue()).bytes);
            seenCodes++;
          }
        }
        NumericDocValues lists = leaf.getNumericDocValues(Fields.VECTOR_LIST);
        if (lists != null) {
          for (int d = lists.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = lists.nextDoc()) {
            if (leaf.getLiveDocs() == null || leaf.getLiveDocs().get(d)) {
              assertEquals(listOf.get(ids[d]), (int) lists.longValue(), ids[d]);
              seenLists++;
            }
          }
          for (int d = 0; d < leaf.maxDoc(); d++) { // random access, as a search reads it
            NumericDocValues exact = leaf.getNumericDocValues(Fields.VECTOR_LIST);
            boolean valued = exact.advanceExact(d);
            assertEquals(d, exact.docID());
            boolean live = leaf.getLiveDocs() == null || leaf.getLiveDocs().get(d);
            if (live) {
              assertEquals(listOf.containsKey(ids[d]), valued, ids[d]);
            }
          }
        }
        assertSlots(leaf, ids, codes, listOf);
      }
    }
    assertEquals(codes.size(), seenCodes);
    assertEquals(listOf.size(), seenLists);
  }

  /** The first pass's view: slots list after list, documents ascending in each, none last. */
  private static void assertSlots(
      LeafReader leaf, String[] ids, Map<String, byte[]> codes, Map<String, Integer> listOf)
      throws Exception {
    StoredCodes stored =
        assertInstanceOf(StoredCodes.class, leaf.getBinaryDocValues(Fields.VECTOR_CENTRED_CODE));
    int lists = stored.lists();
    assertEquals(0, stored.start(0));
    assertEquals(stored.count(), stored.start(lists + 1));
    long[] words = new long[stored.words()];
    float[] factor = new float[1];
    int coded = 0;
    for (int list = 0; list <= lists; list++) {
      int previous = -1;
      for (int slot = stored.start(list); slot < stored.start(list + 1); slot++) {
        int doc = stored.docOf(slot);
        assertTrue(doc > previous, "documents ascend within a list");
        previous = doc;
        assertEquals(slot, stored.slotOf(doc));
        boolean live = leaf.getLiveDocs() == null || leaf.getLiveDocs().get(doc);
        if (!live) {
          continue; // deleted since: its code is still there, and nothing to compare it with
        }
        coded++;
        Integer filed = listOf.get(ids[doc]);
        assertEquals(list == lists ? null : list, filed, ids[doc]);
        byte[] expected = codes.get(ids[doc]);
        ByteBuffer bytes = ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN);
        stored.readWords(slot, 1, words, 0);
        for (int w = 0; w < words.length; w++) {
          assertEquals(bytes.getLong(w * Long.BYTES), words[w], "word " + w + " of " + ids[doc]);
        }
        if (expected.length % Long.BYTES == Float.BYTES) {
          stored.readFactors(slot, 1, factor, 0);
          assertEquals(
              Float.floatToRawIntBits(bytes.getFloat(words.length * Long.BYTES)),
              Float.floatToRawIntBits(factor[0]));
        }
      }
    }
    for (int d = 0; d < leaf.maxDoc(); d++) {
      boolean live = leaf.getLiveDocs() == null || leaf.getLiveDocs().get(d);
      if (live) {
        assertEquals(codes.containsKey(ids[d]), stored.slotOf(d) >= 0, ids[d]);
      }
    }
    // Deleted documents' ids are no longer among the codes: each live code was seen in its slot.
    assertEquals(Arrays.stream(ids).filter(codes::containsKey).count(), coded);
  }

  private static String causes(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c).append(" | ");
    }
    return all.toString();
  }
}
