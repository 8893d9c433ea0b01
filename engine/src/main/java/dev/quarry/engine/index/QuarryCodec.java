package dev.quarry.engine.index;

import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;

/**
 * The codec every segment of a corpus is written with: Lucene 10.4's, with stored fields kept
 * uncompressed ({@link UncompressedStoredFields}, for the speed of reading returned chunks) and the
 * coded first pass's fields in a layout of their own ({@link CodesFormat}, read where they lie).
 *
 * <p>Segments record their codec's name and Lucene finds it again by that name (the service file in
 * META-INF/services), so the name is tied to the Lucene codec it wraps: when Lucene's default moves
 * on, a new class with a new name wraps the new one, and this one stays to read the segments it
 * wrote. Indexes written before this codec existed (Lucene's own codec) stay readable; their
 * segments take this codec as merges rewrite them. The doc-values format is recorded per field in
 * each segment, so segments this codec wrote before {@link CodesFormat} existed keep reading their
 * codes with Lucene's format until a merge rewrites them.
 */
public final class QuarryCodec extends FilterCodec {
  public static final String NAME = "Quarry104";
  private final StoredFieldsFormat storedFields = UncompressedStoredFields.format();
  private final DocValuesFormat docValues;

  /** Public and without arguments: Lucene's service loader creates it by name when reading. */
  public QuarryCodec() {
    this(new Lucene104Codec());
  }

  private QuarryCodec(Lucene104Codec lucene) {
    super(NAME, lucene);
    DocValuesFormat codes = new CodesFormat();
    this.docValues =
        new PerFieldDocValuesFormat() {
          @Override
          public DocValuesFormat getDocValuesFormatForField(String field) {
            return CodesFormat.FIELDS.contains(field)
                ? codes
                : lucene.getDocValuesFormatForField(field);
          }
        };
  }

  @Override
  public DocValuesFormat docValuesFormat() {
    return docValues;
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }
}
