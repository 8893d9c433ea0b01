package dev.quarry.engine.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.StoredFields;

/** Reads a result chunk's stored fields into a {@link Hit}; only returned chunks are ever read. */
final class HitReader {
  private static final Set<String> STORED =
      Set.of(
          Fields.SOURCE,
          Fields.SOURCE_REV,
          Fields.CHUNK,
          Fields.TEXT,
          Fields.TITLE_STORED,
          Fields.MEDIA_TYPE,
          Fields.CONTENT_SHA256,
          Fields.METADATA_JSON,
          Fields.OFFSET_START,
          Fields.OFFSET_END,
          Fields.PAGE_FROM,
          Fields.PAGE_TO,
          Fields.SECTION,
          Fields.LANGUAGE,
          Fields.TABLE_INDEX,
          Fields.TABLE_ROW_FROM,
          Fields.TABLE_ROW_TO);

  /** Immutable and thread-safe; decodes metadata JSON into plain maps. */
  private static final ObjectReader METADATA = new ObjectMapper().readerFor(Map.class);

  private HitReader() {}

  /**
   * A chunk as {@link dev.quarry.engine.SourceChunks} holds it: its text and provenance, no score.
   */
  static SourceChunks.Chunk chunk(Document doc) {
    return new SourceChunks.Chunk(
        number(doc, Fields.CHUNK).intValue(),
        doc.get(Fields.TEXT),
        pages(doc),
        number(doc, Fields.OFFSET_START).intValue(),
        number(doc, Fields.OFFSET_END).intValue(),
        metadata(doc.get(Fields.METADATA_JSON)),
        section(doc),
        table(doc));
  }

  static Document document(StoredFields stored, int doc) throws IOException {
    return stored.document(doc, STORED);
  }

  static Hit read(StoredFields stored, ScoredChunk chunk, List<int[]> highlights)
      throws IOException {
    Document doc = stored.document(chunk.doc(), STORED);
    return new Hit(
        doc.get(Fields.SOURCE),
        number(doc, Fields.SOURCE_REV).longValue(),
        number(doc, Fields.CHUNK).intValue(),
        chunk.score(),
        doc.get(Fields.TEXT),
        highlights,
        doc.get(Fields.TITLE_STORED),
        doc.get(Fields.MEDIA_TYPE),
        pages(doc),
        number(doc, Fields.OFFSET_START).intValue(),
        number(doc, Fields.OFFSET_END).intValue(),
        doc.get(Fields.CONTENT_SHA256),
        metadata(doc.get(Fields.METADATA_JSON)),
        null,
        null,
        section(doc),
        doc.get(Fields.LANGUAGE),
        table(doc));
  }

  /**
   * The rows of a table the chunk holds; null outside tables and on chunks written before tables
   * were kept.
   */
  static ChunkTable table(Document doc) {
    IndexableField index = doc.getField(Fields.TABLE_INDEX);
    IndexableField from = doc.getField(Fields.TABLE_ROW_FROM);
    IndexableField to = doc.getField(Fields.TABLE_ROW_TO);
    if (index == null || from == null || to == null) {
      return null;
    }
    return new ChunkTable(
        index.numericValue().intValue(),
        from.numericValue().intValue(),
        to.numericValue().intValue());
  }

  static Number number(Document doc, String field) {
    IndexableField value = doc.getField(field);
    if (value == null || value.numericValue() == null) {
      throw new QuarryException(ErrorCode.INTERNAL, "chunk document lacks stored field " + field);
    }
    return value.numericValue();
  }

  static PageRange pages(Document doc) {
    IndexableField from = doc.getField(Fields.PAGE_FROM);
    IndexableField to = doc.getField(Fields.PAGE_TO);
    if (from == null || to == null) {
      return null;
    }
    return new PageRange(from.numericValue().intValue(), to.numericValue().intValue());
  }

  /** The chunk's headings in the order they were stored; none on chunks written before sections. */
  static List<String> section(Document doc) {
    return List.of(doc.getValues(Fields.SECTION));
  }

  static Metadata metadata(String json) {
    if (json == null || json.isEmpty()) {
      return Metadata.EMPTY;
    }
    try {
      Map<String, Object> raw = METADATA.readValue(json);
      return Metadata.of(raw, "metadata");
    } catch (JsonProcessingException | QuarryException e) {
      throw new QuarryException(ErrorCode.INTERNAL, "chunk document has unreadable metadata", e);
    }
  }
}
