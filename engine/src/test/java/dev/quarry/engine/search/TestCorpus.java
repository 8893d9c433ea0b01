package dev.quarry.engine.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.index.TestSnapshots;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SoftDeletesRetentionMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * A corpus index on disk written the way the engine's write path writes it (chunk documents with
 * revision stamps, source records, soft-deleting supersession), one revision per mutation, for
 * tests of search. Automatic merges are off so every mutation leaves its own segment; tests merge
 * explicitly. Superseded documents are retained forever.
 */
public final class TestCorpus implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FieldType TEXT_TYPE = textType();

  private final CorpusInfo info;
  private final Analyzer analyzer;
  private final FSDirectory directory;
  private final IndexWriter writer;
  private final Map<String, Long> current = new HashMap<>();
  private long revision;

  public TestCorpus(Path dir, CorpusSettings settings) throws IOException {
    this.info = new CorpusInfo("test", "test-id", settings, Instant.EPOCH);
    this.analyzer = Analyzers.forLanguage(settings.language());
    this.directory = FSDirectory.open(dir);
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setSimilarity(new BM25Similarity((float) settings.ranking().k1(), (float) settings.ranking().b()))
        .setSoftDeletesField(Fields.SOFT_DELETES)
        .setMergePolicy(new SoftDeletesRetentionMergePolicy(
            Fields.SOFT_DELETES, MatchAllDocsQuery::new, NoMergePolicy.INSTANCE));
    this.writer = new IndexWriter(directory, config);
  }

  public TestCorpus(Path dir) throws IOException {
    this(dir, CorpusSettings.DEFAULT);
  }

  public CorpusInfo info() {
    return info;
  }

  public Analyzer analyzer() {
    return analyzer;
  }

  public RevisionSearcher newSearcher() {
    return new RevisionSearcher(info, analyzer);
  }

  public long revision() {
    return revision;
  }

  /** One source version to write: its title (or null), chunk texts, metadata, pages per chunk or null. */
  public record Source(String id, String title, List<String> chunks, Map<String, Object> metadata,
      List<int[]> pages) {
    public Source(String id, String... chunks) {
      this(id, null, List.of(chunks), Map.of(), null);
    }

    public Source withTitle(String newTitle) {
      return new Source(id, newTitle, chunks, metadata, pages);
    }

    public Source withMetadata(Map<String, Object> newMetadata) {
      return new Source(id, title, chunks, newMetadata, pages);
    }

    public Source withPages(List<int[]> newPages) {
      return new Source(id, title, chunks, metadata, newPages);
    }
  }

  /** Writes (or replaces) the sources at one new revision, and makes them searchable. */
  public long index(Source... sources) throws IOException {
    long rev = ++revision;
    for (Source source : sources) {
      supersede(source.id(), rev);
      addVersion(source, rev);
      current.put(source.id(), rev);
    }
    writer.flush();
    return rev;
  }

  /** Deletes a source at one new revision; its chunks stay retained for pinned searches. */
  public long delete(String source) throws IOException {
    long rev = ++revision;
    supersede(source, rev);
    current.remove(source);
    writer.flush();
    return rev;
  }

  /** Removes every version of a source from disk (as a purge does): hard deletes. */
  public long purge(String source) throws IOException {
    long rev = ++revision;
    writer.deleteDocuments(new Term(Fields.SOURCE, source));
    current.remove(source);
    writer.flush();
    return rev;
  }

  public void forceMerge(int segments) throws IOException {
    IndexWriterConfig config = (IndexWriterConfig) writer.getConfig();
    config.setMergePolicy(new SoftDeletesRetentionMergePolicy(
        Fields.SOFT_DELETES, MatchAllDocsQuery::new, new TieredMergePolicy()));
    writer.forceMerge(segments);
    config.setMergePolicy(new SoftDeletesRetentionMergePolicy(
        Fields.SOFT_DELETES, MatchAllDocsQuery::new, NoMergePolicy.INSTANCE));
  }

  /** A snapshot at the current revision retaining every revision; release it after use. */
  public IndexSnapshot snapshot() throws IOException {
    return snapshot(0);
  }

  public IndexSnapshot snapshot(long oldestRetained) throws IOException {
    return TestSnapshots.of(revision, oldestRetained, DirectoryReader.open(writer));
  }

  private void supersede(String source, long rev) throws IOException {
    Long previous = current.get(source);
    if (previous != null) {
      writer.updateDocValues(new Term(Fields.VERSION_KEY, Fields.versionKey(source, previous)),
          new NumericDocValuesField(Fields.SOFT_DELETES, 1),
          new NumericDocValuesField(Fields.SUPERSEDED_REV, rev));
    }
  }

  private void addVersion(Source source, long rev) throws IOException {
    String versionKey = Fields.versionKey(source.id(), rev);
    List<Document> docs = new ArrayList<>();
    Document record = new Document();
    record.add(new StringField(Fields.KIND, Fields.KIND_SOURCE, Field.Store.NO));
    versioned(record, source.id(), versionKey, rev);
    record.add(new StringField(Fields.SOURCE_RECORD, source.id(), Field.Store.NO));
    docs.add(record);
    int offset = 0;
    String json = metadataJson(source.metadata());
    for (int i = 0; i < source.chunks().size(); i++) {
      String text = source.chunks().get(i);
      Document chunk = new Document();
      chunk.add(new StringField(Fields.KIND, Fields.KIND_CHUNK, Field.Store.NO));
      versioned(chunk, source.id(), versionKey, rev);
      chunk.add(new StoredField(Fields.SOURCE_REV, rev));
      chunk.add(new StoredField(Fields.CHUNK, i));
      chunk.add(new NumericDocValuesField(Fields.CHUNK, i));
      chunk.add(new Field(Fields.TEXT, text, TEXT_TYPE));
      if (source.title() != null && !source.title().isEmpty()) {
        chunk.add(new TextField(Fields.TITLE, source.title(), Field.Store.NO));
        chunk.add(new StoredField(Fields.TITLE_STORED, source.title()));
      }
      chunk.add(new StoredField(Fields.MEDIA_TYPE, "text/plain"));
      chunk.add(new StoredField(Fields.CONTENT_SHA256, "sha-" + source.id() + "-" + rev));
      if (json != null) {
        chunk.add(new StoredField(Fields.METADATA_JSON, json));
      }
      chunk.add(new StoredField(Fields.OFFSET_START, offset));
      chunk.add(new StoredField(Fields.OFFSET_END, offset + text.length()));
      offset += text.length() + 2;
      if (source.pages() != null) {
        chunk.add(new StoredField(Fields.PAGE_FROM, source.pages().get(i)[0]));
        chunk.add(new StoredField(Fields.PAGE_TO, source.pages().get(i)[1]));
      }
      addMetadataFields(chunk, source.metadata());
      docs.add(chunk);
    }
    writer.addDocuments(docs);
  }

  private static void versioned(Document doc, String source, String versionKey, long rev) {
    doc.add(new StringField(Fields.SOURCE, source, Field.Store.YES));
    doc.add(new SortedDocValuesField(Fields.SOURCE, new BytesRef(source)));
    doc.add(new StringField(Fields.VERSION_KEY, versionKey, Field.Store.NO));
    doc.add(new NumericDocValuesField(Fields.ADDED_REV, rev));
    doc.add(new NumericDocValuesField(Fields.SUPERSEDED_REV, Long.MAX_VALUE));
  }

  private static void addMetadataFields(Document doc, Map<String, Object> metadata) {
    for (Map.Entry<String, Object> e : metadata.entrySet()) {
      Object value = e.getValue();
      if (value instanceof Number n) {
        doc.add(new DoublePoint(Fields.META_NUMBER_PREFIX + e.getKey(), n.doubleValue()));
      } else if (value instanceof List<?> list) {
        for (Object element : list) {
          doc.add(new StringField(Fields.META_TERM_PREFIX + e.getKey(), (String) element, Field.Store.NO));
        }
      } else {
        doc.add(new StringField(Fields.META_TERM_PREFIX + e.getKey(), String.valueOf(value), Field.Store.NO));
      }
    }
  }

  private static String metadataJson(Map<String, Object> metadata) {
    Metadata checked = Metadata.of(metadata, "metadata");
    if (checked.isEmpty()) {
      return null;
    }
    try {
      return JSON.writeValueAsString(checked.values());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FieldType textType() {
    FieldType type = new FieldType();
    type.setStored(true);
    type.setTokenized(true);
    type.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
    type.freeze();
    return type;
  }

  @Override
  public void close() throws IOException {
    writer.close();
    directory.close();
  }
}
