package dev.quarry.engine.index;

import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;

/**
 * The codec every segment of a corpus is written with: Lucene 10.4's, with stored fields kept
 * uncompressed ({@link UncompressedStoredFields}, for the speed of reading returned chunks).
 *
 * <p>Segments record their codec's name and Lucene finds it again by that name (the service file in
 * META-INF/services), so the name is tied to the Lucene codec it wraps: when Lucene's default moves
 * on, a new class with a new name wraps the new one, and this one stays to read the segments it
 * wrote. Indexes written before this codec existed (Lucene's own codec) stay readable; their
 * segments take this codec as merges rewrite them.
 */
public final class QuarryCodec extends FilterCodec {
  public static final String NAME = "Quarry104";
  private final StoredFieldsFormat storedFields = UncompressedStoredFields.format();

  /** Public and without arguments: Lucene's service loader creates it by name when reading. */
  public QuarryCodec() {
    super(NAME, new Lucene104Codec());
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }
}
