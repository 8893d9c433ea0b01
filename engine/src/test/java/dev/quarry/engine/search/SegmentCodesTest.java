package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.QuarryCodec;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first pass reads the same codes, in the same slots, with the same level sums, lists and
 * visible counts, from a segment written in the codes' own format (read where it lies, a block at a
 * time) as from one written before it, in Lucene's doc values (read into heap arrays).
 */
@ExtendWith(TestSeed.class)
class SegmentCodesTest {
  @TempDir Path dir;

  private final List<Directory> directories = new ArrayList<>();

  @AfterEach
  void closeDirectories() throws Exception {
    IOUtils.close(directories);
  }

  @Test
  void storedCodes_readAsCodesInLucenesFormat_slotForSlot(Random random) throws Exception {
    int bits = 1 + random.nextInt(4);
    int codeBytes = 6 * bits * Long.BYTES + Float.BYTES; // a centred code of 384 dimensions
    boolean withLists = random.nextBoolean();
    int lists = withLists ? 1 + random.nextInt(32) : 0;
    List<Document> documents = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    int count = 200 + random.nextInt(800);
    for (int i = 0; i < count; i++) {
      Document d = new Document();
      d.add(new StringField("id", "d" + i, Field.Store.NO));
      if (random.nextInt(8) > 0) {
        byte[] code = new byte[codeBytes];
        random.nextBytes(code);
        d.add(new BinaryDocValuesField(Fields.VECTOR_CENTRED_CODE, new BytesRef(code)));
        if (withLists) {
          d.add(new NumericDocValuesField(Fields.VECTOR_LIST, random.nextInt(lists)));
        }
      }
      documents.add(d);
      if (random.nextInt(10) == 0) {
        deleted.add("d" + random.nextInt(i + 1));
      }
    }
    try (DirectoryReader lucene = write("lucene", new Lucene104Codec(), documents, deleted);
        DirectoryReader quarry = write("quarry", new QuarryCodec(), documents, deleted)) {
      LeafReader heap = lucene.leaves().get(0).reader();
      LeafReader mapped = quarry.leaves().get(0).reader();
      SegmentCodes.Reader expected =
          SegmentCodes.of(heap, Fields.VECTOR_CENTRED_CODE, codeBytes, bits, lists)
              .reader(heap, new SegmentCodes.Buffer());
      SegmentCodes.Buffer buffer = new SegmentCodes.Buffer();
      SegmentCodes.Reader actual =
          SegmentCodes.of(mapped, Fields.VECTOR_CENTRED_CODE, codeBytes, bits, lists)
              .reader(mapped, buffer);
      for (int l = 0; l <= lists + 1; l++) {
        assertEquals(expected.start(l), actual.start(l), "start of list " + l);
      }
      for (int d = 0; d < heap.maxDoc(); d++) {
        assertEquals(expected.slotOf(d), actual.slotOf(d), "slot of document " + d);
      }
      for (int l = 0; l <= lists; l++) {
        assertEquals(
            expected.visible(l, heap.getLiveDocs()),
            actual.visible(l, mapped.getLiveDocs()),
            "visible in list " + l);
      }
      int words = codeBytes / Long.BYTES;
      List<Integer> visited = new ArrayList<>();
      int from = random.nextInt(heap.maxDoc());
      forEachSlot(
          actual,
          from,
          heap.maxDoc(),
          (slot, doc) -> {
            visited.add(slot);
            assertEquals(expected.docOf(slot), doc);
            assertEquals(expected.listOf(doc), actual.listOf(doc));
            assertArrayEquals(
                Arrays.copyOfRange(expected.words, expected.at(slot), expected.at(slot) + words),
                Arrays.copyOfRange(actual.words, actual.at(slot), actual.at(slot) + words),
                "code of slot " + slot);
            assertEquals(
                expected.factors[expected.factorAt(slot)], actual.factors[actual.factorAt(slot)]);
            assertEquals(expected.codes.levelSum(slot), actual.codes.levelSum(slot));
            assertEquals(
                CentredCodes.Query.levelSum(actual.words, actual.at(slot), words, bits),
                actual.codes.levelSum(slot));
          });
      List<Integer> all = new ArrayList<>();
      forEachSlot(expected, from, heap.maxDoc(), (slot, doc) -> all.add(slot));
      assertEquals(all, visited, "the same slots, in the same order");
      // The walk stops where a part of the scan ends: every slot, list after list, whose document
      // is from `from` to a random `to`, read from the slots' own documents.
      int to = from + 1 + random.nextInt(heap.maxDoc() - from);
      List<Integer> walked = new ArrayList<>();
      forEachSlot(actual, from, to, (slot, doc) -> walked.add(slot));
      List<Integer> inRange = new ArrayList<>();
      for (int l = 0; l <= actual.lists(); l++) {
        for (int slot = actual.start(l); slot < actual.end(l); slot++) {
          int doc = actual.docOf(slot);
          if (doc >= from && doc < to) {
            inRange.add(slot);
          }
        }
      }
      assertEquals(inRange, walked, "the slots of documents " + from + " to " + to);
      // Read without lists (a corpus that reads none, over a segment written with them): every
      // code in the range once, each list's in document order, as Lucene's format gives them.
      Map<Integer, Long> all0 = new TreeMap<>();
      SegmentCodes.Reader expected0 =
          SegmentCodes.of(heap, Fields.VECTOR_CENTRED_CODE, codeBytes, bits, 0)
              .reader(heap, new SegmentCodes.Buffer());
      forEachSlot(
          expected0,
          from,
          heap.maxDoc(),
          (slot, doc) -> all0.put(doc, expected0.words[expected0.at(slot)]));
      Map<Integer, Long> visited0 = new TreeMap<>();
      SegmentCodes.Reader actual0 =
          SegmentCodes.of(mapped, Fields.VECTOR_CENTRED_CODE, codeBytes, bits, 0)
              .reader(mapped, new SegmentCodes.Buffer());
      forEachSlot(
          actual0,
          from,
          heap.maxDoc(),
          (slot, doc) -> assertEquals(null, visited0.put(doc, actual0.words[actual0.at(slot)])));
      assertEquals(all0, visited0);

      // One code at a time, as a filtered search reads them: scattered slots, backwards too, with
      // another reader of the part (another segment's) using the same buffer in between.
      SegmentCodes.Reader other =
          SegmentCodes.of(mapped, Fields.VECTOR_CENTRED_CODE, codeBytes, bits, lists)
              .reader(mapped, buffer);
      for (int i = visited.size() - 1; i >= 0; i -= 1 + random.nextInt(7)) {
        int slot = visited.get(i);
        actual.load(slot, slot + 1);
        assertEquals(
            expected.words[expected.at(slot)], actual.words[actual.at(slot)], "slot " + slot);
        int elsewhere = visited.get(random.nextInt(visited.size()));
        other.load(elsewhere, elsewhere + 1);
        assertEquals(expected.words[expected.at(elsewhere)], other.words[other.at(elsewhere)]);
        actual.load(slot, slot + 1);
        assertEquals(
            expected.words[expected.at(slot)], actual.words[actual.at(slot)], "slot " + slot);
      }
    }
  }

  /**
   * Calls {@code visit} with every slot {@link SegmentCodes.Reader#forEachRun} walks over every
   * list, and its document.
   */
  private static void forEachSlot(SegmentCodes.Reader reader, int from, int to, SlotCheck visit)
      throws IOException {
    reader.forEachRun(
        null,
        from,
        to,
        (first, end) -> {
          for (int slot = first; slot < end; slot++) {
            visit.visit(slot, reader.docs[slot - reader.first]);
          }
        });
  }

  /** A check of one slot the walk visits, and its document. */
  private interface SlotCheck {
    void visit(int slot, int doc) throws IOException;
  }

  private DirectoryReader write(
      String name, Codec codec, List<Document> documents, List<String> deleted) throws Exception {
    Directory directory = FSDirectory.open(dir.resolve(name));
    directories.add(directory);
    IndexWriterConfig config = new IndexWriterConfig().setCodec(codec);
    config.setMaxBufferedDocs(documents.size() + 1); // one segment, the same documents' numbers
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      writer.addDocuments(documents);
      for (String id : deleted) {
        writer.deleteDocuments(new Term("id", id));
      }
      writer.commit();
    }
    return DirectoryReader.open(directory);
  }
}
