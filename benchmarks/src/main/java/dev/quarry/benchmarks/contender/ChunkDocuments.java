package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.Sha256;
import dev.quarry.engine.chunk.ChunkSpan;
import dev.quarry.engine.index.Fields;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene documents for the chunks of one source, with the fields of Quarry's chunk documents
 * ({@link Fields}): the text stored with offsets in its postings, the title indexed, the source as
 * a term and sorted doc values, the revision doc values and the stored provenance (no metadata:
 * benchmark sources have none, and Quarry then stores none). Only Quarry's other kinds of documents
 * (source records, history, idempotency) are left out: they are part of what the engine does and
 * the baseline does not.
 */
final class ChunkDocuments {
  /** Text as Quarry indexes it: tokenized, positions and offsets in postings, stored. */
  static final FieldType TEXT_WITH_OFFSETS = textWithOffsets();

  private static final String MEDIA_TYPE = "text/plain";

  private ChunkDocuments() {}

  private static FieldType textWithOffsets() {
    FieldType type = new FieldType(TextField.TYPE_STORED);
    type.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
    type.freeze();
    return type;
  }

  /** One document per chunk of {@code source}, added at {@code revision}. */
  static List<Document> of(SourceDocument source, List<ChunkSpan> spans, long revision) {
    String sha256 = Sha256.ofUtf8(source.text());
    String versionKey = Fields.versionKey(source.id(), revision);
    List<Document> documents = new ArrayList<>(spans.size());
    for (int ordinal = 0; ordinal < spans.size(); ordinal++) {
      ChunkSpan span = spans.get(ordinal);
      Document d = new Document();
      d.add(new StringField(Fields.KIND, Fields.KIND_CHUNK, Field.Store.NO));
      d.add(new StringField(Fields.SOURCE, source.id(), Field.Store.YES));
      d.add(new SortedDocValuesField(Fields.SOURCE, new BytesRef(source.id())));
      d.add(new StringField(Fields.VERSION_KEY, versionKey, Field.Store.NO));
      d.add(new NumericDocValuesField(Fields.ADDED_REV, revision));
      d.add(new NumericDocValuesField(Fields.SUPERSEDED_REV, Long.MAX_VALUE));
      d.add(new StoredField(Fields.SOURCE_REV, revision));
      d.add(new StoredField(Fields.CONTENT_SHA256, sha256));
      if (source.title() != null && !source.title().isBlank()) {
        d.add(new StoredField(Fields.TITLE_STORED, source.title()));
        d.add(new TextField(Fields.TITLE, source.title(), Field.Store.NO));
      }
      d.add(new StoredField(Fields.MEDIA_TYPE, MEDIA_TYPE));
      d.add(
          new Field(
              Fields.TEXT, source.text().substring(span.start(), span.end()), TEXT_WITH_OFFSETS));
      d.add(new StoredField(Fields.CHUNK, ordinal));
      d.add(new NumericDocValuesField(Fields.CHUNK, ordinal));
      d.add(new StoredField(Fields.OFFSET_START, span.start()));
      d.add(new StoredField(Fields.OFFSET_END, span.end()));
      documents.add(d);
    }
    return documents;
  }
}
