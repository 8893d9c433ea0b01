package dev.quarry.engine.index;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DocValuesSkipper;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;

/**
 * Reads a segment's code fields in {@link CodesFormat}'s layout ({@link CodesWriter} describes the
 * files). The metadata is read whole when the segment opens (a few numbers a field and each list's
 * first slot); every value stays in the data file, memory-mapped when the directory maps files, and
 * each iterator reads it through slices of its own.
 */
final class CodesReader extends DocValuesProducer {
  private final Map<Integer, StoredCodes.Layout> codes = new HashMap<>();
  private final Map<Integer, StoredLists.Layout> lists = new HashMap<>();
  private final IndexInput data;
  private final int maxDoc;

  CodesReader(SegmentReadState state) throws IOException {
    this.maxDoc = state.segmentInfo.maxDoc();
    String metaName =
        CodesFormat.fileName(state.segmentInfo, state.segmentSuffix, CodesFormat.META_EXTENSION);
    String dataName =
        CodesFormat.fileName(state.segmentInfo, state.segmentSuffix, CodesFormat.DATA_EXTENSION);
    byte[] id = state.segmentInfo.getId();
    try (ChecksumIndexInput meta = state.directory.openChecksumInput(metaName)) {
      Throwable failure = null;
      try {
        CodecUtil.checkIndexHeader(
            meta,
            CodesFormat.META_CODEC,
            CodesFormat.VERSION,
            CodesFormat.VERSION,
            id,
            state.segmentSuffix);
        readFields(meta, state);
      } catch (Throwable t) {
        failure = t;
      } finally {
        CodecUtil.checkFooter(meta, failure);
      }
    }
    IndexInput in = state.directory.openInput(dataName, state.context);
    boolean opened = false;
    try {
      CodecUtil.checkIndexHeader(
          in,
          CodesFormat.DATA_CODEC,
          CodesFormat.VERSION,
          CodesFormat.VERSION,
          id,
          state.segmentSuffix);
      CodecUtil.retrieveChecksum(in);
      opened = true;
    } finally {
      if (!opened) {
        IOUtils.closeWhileHandlingException(in);
      }
    }
    this.data = in;
  }

  private void readFields(ChecksumIndexInput meta, SegmentReadState state) throws IOException {
    for (int number = meta.readInt(); number != -1; number = meta.readInt()) {
      FieldInfo field = state.fieldInfos.fieldInfo(number);
      if (field == null) {
        throw new CorruptIndexException("unknown field " + number, meta);
      }
      byte kind = meta.readByte();
      if (kind == CodesFormat.BINARY) {
        int count = meta.readVInt();
        int codeBytes = meta.readVInt();
        int listCount = meta.readVInt();
        if (listCount > CodesFormat.MAX_LIST + 1) {
          throw new CorruptIndexException(listCount + " lists", meta);
        }
        int[] starts = new int[listCount + 2];
        for (int l = 0; l < starts.length; l++) {
          starts[l] = meta.readVInt();
          if (starts[l] > count || (l > 0 && starts[l] < starts[l - 1])) {
            throw new CorruptIndexException("list " + l + " starts at " + starts[l], meta);
          }
        }
        if (starts[listCount + 1] != count) {
          throw new CorruptIndexException("lists end at " + starts[listCount + 1], meta);
        }
        codes.put(
            number,
            new StoredCodes.Layout(
                maxDoc,
                count,
                codeBytes,
                starts,
                meta.readLong(),
                meta.readLong(),
                meta.readLong(),
                meta.readLong()));
      } else if (kind == CodesFormat.NUMERIC) {
        lists.put(
            number, new StoredLists.Layout(meta.readVInt(), meta.readLong(), meta.readLong()));
      } else {
        throw new CorruptIndexException("field kind " + kind, meta);
      }
    }
  }

  @Override
  public BinaryDocValues getBinary(FieldInfo field) throws IOException {
    StoredCodes.Layout layout = codes.get(field.number);
    if (layout == null) {
      throw new IllegalArgumentException("no codes in field " + field.name);
    }
    return new StoredCodes(layout, data);
  }

  @Override
  public NumericDocValues getNumeric(FieldInfo field) throws IOException {
    StoredLists.Layout layout = lists.get(field.number);
    if (layout == null) {
      throw new IllegalArgumentException("no lists in field " + field.name);
    }
    return new StoredLists(layout, data);
  }

  @Override
  public SortedDocValues getSorted(FieldInfo field) {
    throw new UnsupportedOperationException(CodesFormat.NAME + " keeps codes and lists only");
  }

  @Override
  public SortedNumericDocValues getSortedNumeric(FieldInfo field) {
    throw new UnsupportedOperationException(CodesFormat.NAME + " keeps codes and lists only");
  }

  @Override
  public SortedSetDocValues getSortedSet(FieldInfo field) {
    throw new UnsupportedOperationException(CodesFormat.NAME + " keeps codes and lists only");
  }

  @Override
  public DocValuesSkipper getSkipper(FieldInfo field) {
    return null; // no skip index is written (the writer refuses fields that ask for one)
  }

  @Override
  public void checkIntegrity() throws IOException {
    CodecUtil.checksumEntireFile(data);
  }

  @Override
  public void close() throws IOException {
    data.close();
  }
}
