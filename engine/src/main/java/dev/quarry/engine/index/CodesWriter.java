package dev.quarry.engine.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Writes a segment's code fields in {@link CodesFormat}'s layout. A code field's values arrive in
 * document order, and the segment's lists may arrive after them, so each field's codes go to a
 * temporary file first; the segment's files are written when the consumer closes, once every field
 * and the lists are known.
 *
 * <p>Metadata file, after Lucene's index header: per field, its number and kind, then for codes:
 * their count, length, the segment's lists and each list's first slot, and the offsets of four
 * sections of the data file (each slot's document, each document's slot or -1, the codes' whole
 * words, the codes' remaining bytes); for lists: their count and the offsets of each valued
 * document and its list. -1 ends the fields; Lucene's footer follows. Every section starts on an
 * 8-byte boundary; numbers are little-endian, as Lucene writes them.
 */
final class CodesWriter extends DocValuesConsumer {
  private final SegmentWriteState state;
  private final int maxDoc;
  private final List<PendingCodes> codes = new ArrayList<>();

  /** The segment's list field, or null: each document's list, -1 for none. */
  private FieldInfo listField;

  private int[] listOf;
  private int listed;
  private boolean closed;

  /**
   * Whether a field could not be taken: the segment is then abandoned, and closing writes nothing
   * (it only deletes the temporary files).
   */
  private boolean failed;

  /** A code field's values so far: its documents, in order, and their codes in a temporary file. */
  private record PendingCodes(FieldInfo field, int[] docs, int count, int codeBytes, String file) {}

  CodesWriter(SegmentWriteState state) {
    this.state = state;
    this.maxDoc = state.segmentInfo.maxDoc();
  }

  @Override
  public void addBinaryField(FieldInfo field, DocValuesProducer values) throws IOException {
    try {
      takeCodes(field, values);
    } catch (Throwable t) {
      failed = true;
      throw t;
    }
  }

  private void takeCodes(FieldInfo field, DocValuesProducer values) throws IOException {
    BinaryDocValues iterator = values.getBinary(field);
    int[] docs = new int[16];
    int count = 0;
    int codeBytes = -1;
    boolean done = false;
    IndexOutput out =
        state.directory.createTempOutput(state.segmentInfo.name, "qcodes", state.context);
    try {
      for (int d = iterator.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = iterator.nextDoc()) {
        BytesRef code = iterator.binaryValue();
        if (codeBytes < 0) {
          codeBytes = code.length;
        } else if (code.length != codeBytes) {
          throw new IllegalArgumentException(
              "field "
                  + field.name
                  + " holds values of "
                  + codeBytes
                  + " and "
                  + code.length
                  + " bytes; "
                  + CodesFormat.NAME
                  + " keeps codes of one length");
        }
        docs = ArrayUtil.grow(docs, count + 1);
        docs[count++] = d;
        out.writeBytes(code.bytes, code.offset, code.length);
      }
      done = true;
    } finally {
      if (done) {
        out.close();
      } else {
        IOUtils.closeWhileHandlingException(out);
        IOUtils.deleteFilesIgnoringExceptions(state.directory, out.getName());
      }
    }
    codes.add(new PendingCodes(field, docs, count, Math.max(codeBytes, 0), out.getName()));
  }

  @Override
  public void addNumericField(FieldInfo field, DocValuesProducer values) throws IOException {
    try {
      takeLists(field, values);
    } catch (Throwable t) {
      failed = true;
      throw t;
    }
  }

  private void takeLists(FieldInfo field, DocValuesProducer values) throws IOException {
    if (listField != null) {
      throw new IllegalArgumentException(
          "fields " + listField.name + " and " + field.name + " both file codes in lists");
    }
    if (field.docValuesSkipIndexType() != DocValuesSkipIndexType.NONE) {
      throw new IllegalArgumentException(
          "field " + field.name + " asks for a skip index; " + CodesFormat.NAME + " has none");
    }
    int[] lists = new int[maxDoc];
    Arrays.fill(lists, -1);
    int count = 0;
    NumericDocValues iterator = values.getNumeric(field);
    for (int d = iterator.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = iterator.nextDoc()) {
      long list = iterator.longValue();
      if (list < 0 || list > CodesFormat.MAX_LIST) {
        throw new IllegalArgumentException(
            "field "
                + field.name
                + " files a document in list "
                + list
                + "; lists are 0 to "
                + CodesFormat.MAX_LIST);
      }
      lists[d] = (int) list;
      count++;
    }
    listField = field;
    listOf = lists;
    listed = count;
  }

  @Override
  public void addSortedField(FieldInfo field, DocValuesProducer values) {
    throw refused(field, "sorted");
  }

  @Override
  public void addSortedNumericField(FieldInfo field, DocValuesProducer values) {
    throw refused(field, "sorted numeric");
  }

  @Override
  public void addSortedSetField(FieldInfo field, DocValuesProducer values) {
    throw refused(field, "sorted set");
  }

  private IllegalArgumentException refused(FieldInfo field, String type) {
    failed = true;
    return new IllegalArgumentException(
        "field "
            + field.name
            + " has "
            + type
            + " values; "
            + CodesFormat.NAME
            + " keeps codes and lists only");
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (failed) {
      deleteTemporaryFiles();
      return;
    }
    String metaName =
        CodesFormat.fileName(state.segmentInfo, state.segmentSuffix, CodesFormat.META_EXTENSION);
    String dataName =
        CodesFormat.fileName(state.segmentInfo, state.segmentSuffix, CodesFormat.DATA_EXTENSION);
    boolean written = false;
    try (IndexOutput meta = state.directory.createOutput(metaName, state.context);
        IndexOutput data = state.directory.createOutput(dataName, state.context)) {
      byte[] id = state.segmentInfo.getId();
      CodecUtil.writeIndexHeader(
          meta, CodesFormat.META_CODEC, CodesFormat.VERSION, id, state.segmentSuffix);
      CodecUtil.writeIndexHeader(
          data, CodesFormat.DATA_CODEC, CodesFormat.VERSION, id, state.segmentSuffix);
      for (PendingCodes field : codes) {
        writeCodes(field, meta, data);
      }
      if (listField != null) {
        writeLists(meta, data);
      }
      meta.writeInt(-1);
      CodecUtil.writeFooter(meta);
      CodecUtil.writeFooter(data);
      written = true;
    } finally {
      deleteTemporaryFiles();
      if (!written) {
        IOUtils.deleteFilesIgnoringExceptions(state.directory, metaName, dataName);
      }
    }
  }

  private void deleteTemporaryFiles() {
    for (PendingCodes field : codes) {
      IOUtils.deleteFilesIgnoringExceptions(state.directory, field.file());
    }
  }

  /** One code field: its slots by list, then the four sections (see the class comment). */
  private void writeCodes(PendingCodes field, IndexOutput meta, IndexOutput data)
      throws IOException {
    int count = field.count();
    int lists = 0;
    if (listOf != null) {
      for (int i = 0; i < count; i++) {
        lists = Math.max(lists, listOf[field.docs()[i]] + 1);
      }
    }
    // Each value's bucket (its document's list, or lists for none), then each slot's value as its
    // place in the temporary file.
    int[] bucketOf = new int[count];
    for (int i = 0; i < count; i++) {
      bucketOf[i] = bucket(field.docs()[i], lists);
    }
    ListSlots slots = ListSlots.of(bucketOf, lists);
    int[] starts = slots.starts();
    int[] valueOf = slots.valueOf();
    assert valueOf.length == count;

    meta.writeInt(field.field().number);
    meta.writeByte(CodesFormat.BINARY);
    meta.writeVInt(count);
    meta.writeVInt(field.codeBytes());
    meta.writeVInt(lists);
    for (int start : starts) {
      meta.writeVInt(start);
    }
    meta.writeLong(data.alignFilePointer(Long.BYTES));
    for (int slot = 0; slot < count; slot++) {
      data.writeInt(field.docs()[valueOf[slot]]);
    }
    int[] slotOf = new int[maxDoc];
    Arrays.fill(slotOf, -1);
    for (int slot = 0; slot < count; slot++) {
      slotOf[field.docs()[valueOf[slot]]] = slot;
    }
    meta.writeLong(data.alignFilePointer(Long.BYTES));
    for (int s : slotOf) {
      data.writeInt(s);
    }
    // Each code read once, in slot order: its words written, its remaining bytes kept for the
    // section after (a few bytes a code).
    int wordBytes = field.codeBytes() / Long.BYTES * Long.BYTES;
    int tailBytes = field.codeBytes() - wordBytes;
    byte[] code = new byte[field.codeBytes()];
    byte[] tails = new byte[Math.multiplyExact(count, tailBytes)];
    try (IndexInput values = state.directory.openInput(field.file(), IOContext.DEFAULT)) {
      meta.writeLong(data.alignFilePointer(Long.BYTES));
      for (int slot = 0; slot < count; slot++) {
        values.seek((long) valueOf[slot] * field.codeBytes());
        values.readBytes(code, 0, code.length);
        data.writeBytes(code, 0, wordBytes);
        System.arraycopy(code, wordBytes, tails, slot * tailBytes, tailBytes);
      }
    }
    meta.writeLong(data.alignFilePointer(Long.BYTES));
    data.writeBytes(tails, 0, tails.length);
  }

  /** The bucket of {@code doc}'s code: its list, or {@code lists} for none. */
  private int bucket(int doc, int lists) {
    int list = listOf == null ? -1 : listOf[doc];
    return list < 0 ? lists : list;
  }

  /** The list field: each valued document and its list. */
  private void writeLists(IndexOutput meta, IndexOutput data) throws IOException {
    meta.writeInt(listField.number);
    meta.writeByte(CodesFormat.NUMERIC);
    meta.writeVInt(listed);
    meta.writeLong(data.alignFilePointer(Long.BYTES));
    for (int d = 0; d < maxDoc; d++) {
      if (listOf[d] >= 0) {
        data.writeInt(d);
      }
    }
    meta.writeLong(data.alignFilePointer(Long.BYTES));
    for (int d = 0; d < maxDoc; d++) {
      if (listOf[d] >= 0) {
        data.writeInt(listOf[d]);
      }
    }
  }
}
