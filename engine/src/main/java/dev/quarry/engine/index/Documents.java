package dev.quarry.engine.index;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.analysis.Analyzers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KnnByteVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * Builds the Lucene documents of {@link Fields}: chunks, source records, history and idempotency.
 */
final class Documents {
  /** Chunk text: stored, with offsets in the postings so highlighting needs no re-analysis. */
  static final FieldType TEXT_TYPE;

  /**
   * The text field as an empty, unstored value: indexed like {@link #TEXT_TYPE} (a field keeps one
   * set of index options), so it adds no term and a norm of 0, see {@link #addZeroNorms}.
   */
  private static final FieldType EMPTY_TEXT_TYPE;

  static {
    FieldType t = new FieldType(TextField.TYPE_STORED);
    t.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
    t.freeze();
    TEXT_TYPE = t;
    FieldType empty = new FieldType(t);
    empty.setStored(false);
    empty.freeze();
    EMPTY_TEXT_TYPE = empty;
  }

  private Documents() {}

  /** The chunk documents and the source record of one new version of a source. */
  static List<Document> sourceVersion(PreparedSource p, long revision, Instant at) {
    String source = p.op().source();
    String versionKey = Fields.versionKey(source, revision);
    String title = p.op().title();
    boolean hasTitle = title != null && !title.isBlank();
    List<Document> docs = new ArrayList<>(p.chunks().size() + 1);
    for (int i = 0; i < p.chunks().size(); i++) {
      PreparedSource.PreparedChunk c = p.chunks().get(i);
      Document d = new Document();
      addVersioned(d, Fields.KIND_CHUNK, source, versionKey, revision);
      d.add(new StoredField(Fields.CHUNK, i));
      d.add(new NumericDocValuesField(Fields.CHUNK, i));
      if (p.language() != null) {
        d.add(new StringField(Fields.LANGUAGE, p.language().wireName(), Field.Store.YES));
      }
      d.add(analysed(Fields.TEXT, c.text(), TEXT_TYPE, p.language()));
      if (hasTitle) {
        d.add(analysed(Fields.TITLE, title, TextField.TYPE_NOT_STORED, p.language()));
        d.add(new StoredField(Fields.TITLE_STORED, title));
      } else {
        d.add(new TextField(Fields.TITLE, "", Field.Store.NO));
      }
      d.add(new StoredField(Fields.MEDIA_TYPE, p.mediaType()));
      d.add(new StoredField(Fields.CONTENT_SHA256, p.contentSha256()));
      d.add(new StoredField(Fields.OFFSET_START, c.start()));
      d.add(new StoredField(Fields.OFFSET_END, c.end()));
      if (c.pages() != null) {
        d.add(new StoredField(Fields.PAGE_FROM, c.pages().from()));
        d.add(new StoredField(Fields.PAGE_TO, c.pages().to()));
      }
      addSection(d, c.section());
      if (c.table() != null) {
        d.add(new StoredField(Fields.TABLE_INDEX, c.table().index()));
        d.add(new StoredField(Fields.TABLE_ROW_FROM, c.table().firstRow()));
        d.add(new StoredField(Fields.TABLE_ROW_TO, c.table().lastRow()));
      }
      addMetadata(d, c.metadata());
      if (c.vector() != null) {
        d.add(new BinaryDocValuesField(Fields.VECTOR, new BytesRef(c.vector())));
        if (c.code() != null) {
          d.add(new BinaryDocValuesField(c.code().field(), new BytesRef(c.code().bytes())));
          if (c.code().list() != PreparedSource.ChunkCode.NO_LIST) {
            d.add(new NumericDocValuesField(Fields.VECTOR_LIST, c.code().list()));
          }
        }
        if (c.graph()) {
          d.add(
              new KnnByteVectorField(
                  Fields.VECTOR_GRAPH, c.vector(), VectorSimilarityFunction.DOT_PRODUCT));
        }
      }
      docs.add(d);
    }
    Document rec = new Document();
    addVersioned(rec, Fields.KIND_SOURCE, source, versionKey, revision);
    rec.add(new StringField(Fields.SOURCE_RECORD, source, Field.Store.NO));
    addZeroNorms(rec);
    if (title != null) {
      rec.add(new StoredField(Fields.TITLE_STORED, title));
    }
    rec.add(new StoredField(Fields.MEDIA_TYPE, p.mediaType()));
    rec.add(new StoredField(Fields.CONTENT_SHA256, p.contentSha256()));
    if (p.language() != null) {
      rec.add(new StoredField(Fields.SOURCE_LANGUAGE, p.language().wireName()));
    }
    if (!p.op().metadata().isEmpty()) {
      rec.add(new StoredField(Fields.METADATA_JSON, Json.write(p.op().metadata().values())));
    }
    rec.add(new StoredField(Fields.FINGERPRINT, p.fingerprint()));
    rec.add(new StoredField(Fields.CHUNKS, p.chunks().size()));
    rec.add(new StoredField(Fields.CHARACTERS, p.characters()));
    if (p.pages() != null) {
      rec.add(new StoredField(Fields.PAGES, p.pages()));
    }
    rec.add(new StoredField(Fields.INDEXED_AT, at.toEpochMilli()));
    if (p.truncatedChunks() != null) {
      rec.add(new StoredField(Fields.TRUNCATED_CHUNKS, p.truncatedChunks()));
    }
    if (p.op().ingest() != null) {
      rec.add(
          new StoredField(Fields.INGEST_JSON, Json.write(IngestReports.toMap(p.op().ingest()))));
    }
    docs.add(rec);
    return docs;
  }

  /**
   * A text field analysed by the writer's analyzer (the corpus's language), or in an auto corpus by
   * the source's own language, its terms marked with it.
   */
  private static Field analysed(
      String name, String value, FieldType type, CorpusSettings.Language language) {
    if (language == null) {
      return new Field(name, value, type);
    }
    Analyzer marked = Analyzers.marked(language);
    return new Field(name, value, type) {
      @Override
      public TokenStream tokenStream(Analyzer writers, TokenStream reuse) {
        return marked.tokenStream(name(), stringValue());
      }
    };
  }

  private static void addVersioned(
      Document d, String kind, String source, String versionKey, long revision) {
    d.add(new StringField(Fields.KIND, kind, Field.Store.NO));
    d.add(new StringField(Fields.SOURCE, source, Field.Store.YES));
    d.add(new SortedDocValuesField(Fields.SOURCE, new BytesRef(source)));
    d.add(new StringField(Fields.VERSION_KEY, versionKey, Field.Store.NO));
    d.add(new NumericDocValuesField(Fields.ADDED_REV, revision));
    d.add(new NumericDocValuesField(Fields.SUPERSEDED_REV, Long.MAX_VALUE));
    d.add(new StoredField(Fields.SOURCE_REV, revision));
  }

  /**
   * Gives a document that has no text or title an empty one of each, so that it has a norm of 0 in
   * both fields. Then every document of a segment has norms in the fields BM25 scores, and Lucene
   * stores them densely: writing the postings of a flushed or merged segment looks up the norm of
   * every document of every term (for the impacts that let searches skip), which in sparse norms (a
   * segment mixing chunks with source records and history entries) is a linear scan of the
   * segment's norm entries per term, and in dense norms an array read. Profiles of bulk indexing
   * found that scan to be the largest cost raw Lucene on the same chunks does not have. An empty
   * field adds no term and does not count in the field's document count or lengths (readers skip a
   * zero norm, see LeafVisibility), so scores are unchanged.
   */
  private static void addZeroNorms(Document d) {
    d.add(new Field(Fields.TEXT, "", EMPTY_TEXT_TYPE));
    d.add(new TextField(Fields.TITLE, "", Field.Store.NO));
  }

  private static void addSection(Document d, List<String> section) {
    for (int depth = 0; depth < section.size(); depth++) {
      d.add(new StoredField(Fields.SECTION, section.get(depth)));
      d.add(
          new StringField(
              Fields.SECTION_PATH,
              Fields.sectionPath(section.subList(0, depth + 1)),
              Field.Store.NO));
    }
  }

  private static void addMetadata(Document d, Metadata metadata) {
    if (metadata.isEmpty()) {
      return;
    }
    d.add(new StoredField(Fields.METADATA_JSON, Json.write(metadata.values())));
    for (Map.Entry<String, Object> e : metadata.values().entrySet()) {
      String key = e.getKey();
      Object v = e.getValue();
      if (v instanceof String s) {
        d.add(new StringField(Fields.META_TERM_PREFIX + key, s, Field.Store.NO));
      } else if (v instanceof Boolean b) {
        d.add(new StringField(Fields.META_TERM_PREFIX + key, b.toString(), Field.Store.NO));
      } else if (v instanceof Number n) {
        d.add(new DoublePoint(Fields.META_NUMBER_PREFIX + key, n.doubleValue()));
      } else if (v instanceof List<?> list) {
        for (Object item : list) {
          d.add(new StringField(Fields.META_TERM_PREFIX + key, (String) item, Field.Store.NO));
        }
      }
    }
  }

  /**
   * One history entry. {@code ordinal} orders the entries of one revision (a batch's operations).
   */
  static Document history(
      long revision,
      int ordinal,
      String operation,
      String source,
      String sha256,
      String subject,
      Instant at) {
    Document d = new Document();
    d.add(new StringField(Fields.KIND, Fields.KIND_HISTORY, Field.Store.NO));
    addZeroNorms(d);
    d.add(new LongPoint(Fields.HISTORY_REV, revision));
    d.add(new StoredField(Fields.HISTORY_REV, revision));
    d.add(new NumericDocValuesField(Fields.HISTORY_REV, revision));
    d.add(new NumericDocValuesField(Fields.HISTORY_ORD, ordinal));
    d.add(new StoredField(Fields.HISTORY_ORD, ordinal));
    d.add(new StringField(Fields.HISTORY_SOURCE, source, Field.Store.YES));
    d.add(new StoredField(Fields.HISTORY_OP, operation));
    if (sha256 != null) {
      d.add(new StoredField(Fields.HISTORY_SHA256, sha256));
    }
    if (subject != null) {
      d.add(new StoredField(Fields.HISTORY_SUBJECT, subject));
    }
    d.add(new StoredField(Fields.HISTORY_AT, at.toEpochMilli()));
    return d;
  }

  /** One idempotency record: the key, the request fingerprint and the stored result. */
  static Document idempotency(String keyTerm, String fingerprint, String resultJson, Instant at) {
    Document d = new Document();
    d.add(new StringField(Fields.KIND, Fields.KIND_IDEM, Field.Store.NO));
    addZeroNorms(d);
    d.add(new StringField(Fields.IDEM_KEY, keyTerm, Field.Store.NO));
    d.add(new StoredField(Fields.IDEM_FINGERPRINT, fingerprint));
    d.add(new StoredField(Fields.IDEM_RESULT, resultJson));
    d.add(new LongPoint(Fields.IDEM_AT, at.toEpochMilli()));
    d.add(new StoredField(Fields.IDEM_AT, at.toEpochMilli()));
    return d;
  }

  static String idempotencyTerm(String subject, String key) {
    return subject + '\u0000' + key;
  }
}
