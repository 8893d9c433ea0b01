package dev.quarry.engine.index;

import java.io.IOException;
import java.util.Set;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * The doc-values format of the coded first pass's fields ({@link Fields#VECTOR_CODE}, {@link
 * Fields#VECTOR_CENTRED_CODE} and {@link Fields#VECTOR_LIST}): each segment's codes in one file of
 * the segment, laid out as the first pass reads them and memory-mapped with the rest of the index,
 * so a search reads them where they lie instead of from copies on the Java heap.
 *
 * <p>Why a format of its own: Lucene's keeps a segment's binary values in document order behind a
 * per-document lookup, and knows nothing of lists. Here a code field's values are written <em>list
 * after list</em> (by the {@link Fields#VECTOR_LIST} of each document; each list's documents in
 * document order; documents filed in no list last), so a search that reads a few lists reads a few
 * runs of the file in order; each code is split into its whole 64-bit words (the planes, read in
 * bulk into a search's buffer) and its remaining bytes (a centred code's correction factor), each
 * kind in a section of its own. The layout is a function of the segment's values alone: merges
 * rewrite it from the merged values, as Lucene's own formats do, and nothing in it is learnt.
 *
 * <p>Only binary values of one length a field (a code field's) and numeric values from 0 to {@link
 * #MAX_LIST} (a list) are taken; other types are refused. Segments written before this format
 * existed keep Lucene's, which stays readable: the per-field format is recorded in each segment.
 */
public final class CodesFormat extends DocValuesFormat {
  /** The format's name in segments; a new layout needs a new name, never a changed one. */
  public static final String NAME = "QuarryCodes1";

  /** The fields whose values this format keeps in the corpus codec. */
  static final Set<String> FIELDS =
      Set.of(Fields.VECTOR_CODE, Fields.VECTOR_CENTRED_CODE, Fields.VECTOR_LIST);

  /** The largest list a document can be filed in. */
  static final int MAX_LIST = 65_535;

  static final String META_CODEC = "QuarryCodesMeta";
  static final String DATA_CODEC = "QuarryCodesData";
  static final String META_EXTENSION = "qcm";
  static final String DATA_EXTENSION = "qcd";
  static final int VERSION = 0;

  /** A field's kind in the metadata file. */
  static final byte BINARY = 0;

  static final byte NUMERIC = 1;

  /** Public and without arguments: Lucene's service loader creates it by name when reading. */
  public CodesFormat() {
    super(NAME);
  }

  /** The name of a segment's file of this format with {@code extension}. */
  static String fileName(SegmentInfo segment, String suffix, String extension) {
    return IndexFileNames.segmentFileName(segment.name, suffix, extension);
  }

  @Override
  public DocValuesConsumer fieldsConsumer(SegmentWriteState state) throws IOException {
    return new CodesWriter(state);
  }

  @Override
  public DocValuesProducer fieldsProducer(SegmentReadState state) throws IOException {
    return new CodesReader(state);
  }
}
