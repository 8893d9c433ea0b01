package dev.quarry.engine.index;

import java.util.List;

/**
 * The Lucene schema of a corpus index: one index holds four kinds of documents.
 *
 * <ul>
 *   <li>{@code chunk}: one passage of one version of a source; what search returns.
 *   <li>{@code source}: one version of a source's record (its state for read and list).
 *   <li>{@code history}: one history entry; never soft-deleted, pruned past retention.
 *   <li>{@code idem}: one idempotency record; pruned past its retention window.
 * </ul>
 *
 * <p>Chunk and source documents are versioned: {@link #ADDED_REV} is the revision that added them,
 * {@link #SUPERSEDED_REV} the revision that replaced or deleted them ({@link Long#MAX_VALUE} while
 * current). A document is visible at revision r iff {@code added <= r < superseded}. Superseding a
 * version sets {@link #SOFT_DELETES} (hiding it from latest-revision readers) and {@link
 * #SUPERSEDED_REV} in one doc-values update on the version's {@link #VERSION_KEY} term.
 */
public final class Fields {
  private Fields() {}

  /**
   * Lucene's soft-deletes field; a doc with a value here is hidden from latest-revision readers.
   */
  public static final String SOFT_DELETES = "__superseded";

  /** StringField: chunk, source, history or idem. */
  public static final String KIND = "kind";

  public static final String KIND_CHUNK = "chunk";
  public static final String KIND_SOURCE = "source";
  public static final String KIND_HISTORY = "history";
  public static final String KIND_IDEM = "idem";

  // ---- chunk and source documents ----

  /** StringField (indexed, stored) + SortedDocValuesField: the source id. */
  public static final String SOURCE = "source";

  /** StringField: source + '\u0000' + sourceRevision; names one version's documents. */
  public static final String VERSION_KEY = "ver";

  /** NumericDocValues: the revision that added the document. */
  public static final String ADDED_REV = "rev_added";

  /**
   * NumericDocValues (updatable): the revision that superseded it, Long.MAX_VALUE while current.
   */
  public static final String SUPERSEDED_REV = "rev_superseded";

  /** Stored long: the source's revision (= ADDED_REV of its current version). */
  public static final String SOURCE_REV = "source_rev";

  /** Stored: lowercase hex SHA-256 of the submitted content. */
  public static final String CONTENT_SHA256 = "sha256";

  /** Stored: the source title (may be absent). */
  public static final String TITLE_STORED = "title_stored";

  /** Stored: the media type. */
  public static final String MEDIA_TYPE = "media_type";

  /**
   * StringField, stored, in an auto corpus only: the wire name of the language the source was
   * analysed in ({@code german}, {@code standard}). A chunk's text and title terms then carry that
   * name as their prefix ({@link dev.quarry.engine.analysis.Analyzers#marked}).
   */
  public static final String LANGUAGE = "lang";

  /**
   * Stored only, on the source records of an auto corpus: the {@link #LANGUAGE} of the source's
   * chunks, for read and list (its own field: Lucene holds one field to one indexing, and the
   * indexed term counts chunks alone). Records written before it was kept have none: their chunks
   * say it.
   */
  public static final String SOURCE_LANGUAGE = "source_lang";

  /** Stored: metadata as canonical JSON (merged with passage metadata on chunk documents). */
  public static final String METADATA_JSON = "metadata";

  // ---- chunk documents ----

  /**
   * TextField with offsets in postings, stored: the chunk's text. Every other document has an
   * empty, unstored one (no term, a norm of 0), so that the field's norms are dense.
   */
  public static final String TEXT = "text";

  /**
   * TextField (not stored): the source title, indexed on every chunk for title boosting; empty on
   * the chunks of untitled sources and on every other document, so that its norms are dense.
   */
  public static final String TITLE = "title";

  /** Stored int + NumericDocValues: the chunk's ordinal within its source version (0-based). */
  public static final String CHUNK = "chunk";

  /** Stored ints: the chunk's offsets in the source text, [start, end). */
  public static final String OFFSET_START = "off_start";

  public static final String OFFSET_END = "off_end";

  /** Stored ints, absent for unpaged sources: the first and last page of the chunk (1-based). */
  public static final String PAGE_FROM = "page_from";

  public static final String PAGE_TO = "page_to";

  /**
   * Stored strings, one value per heading in order, absent when the chunk has no section (and on
   * every chunk written before sections were kept): the headings above the chunk, outermost first.
   */
  public static final String SECTION = "section";

  /**
   * Stored ints, on chunks of a table only (and never on chunks written before tables were kept):
   * the table's place among its source's tables (0 for the first), and the first and last of its
   * rows the chunk holds (1 for the first row under the header).
   */
  public static final String TABLE_INDEX = "table_index";

  public static final String TABLE_ROW_FROM = "table_row_from";
  public static final String TABLE_ROW_TO = "table_row_to";

  /**
   * StringFields (not stored): each leading part of the chunk's section joined by {@link
   * #SECTION_SEPARATOR} ({@code A}, {@code A\u001FB}, ...), so that a section-prefix filter is one
   * term.
   */
  public static final String SECTION_PATH = "section_path";

  /** Joins headings in {@link #SECTION_PATH}; a control character no heading text holds. */
  public static final char SECTION_SEPARATOR = '\u001F';

  /**
   * BinaryDocValues, on chunk documents of an embedding corpus: the chunk's embedding (of its
   * source's title and its text) as {@link dev.quarry.engine.embed.VectorCodec} bytes.
   */
  public static final String VECTOR = "vec";

  /**
   * KnnByteVectorField (dot product), on chunk documents of a corpus that opted into the
   * approximate index: the same bytes as {@link #VECTOR}, in Lucene's HNSW graph. Only finds
   * candidates; their scores come from {@link #VECTOR}.
   */
  public static final String VECTOR_GRAPH = "vec_hnsw";

  /**
   * BinaryDocValues, on every chunk document with a {@link #VECTOR}: its one-bit code ({@link
   * dev.quarry.engine.embed.SignCodes}, a function of the vector's bytes alone), which the coded
   * first pass of a corpus with {@code code: sign} scans instead of the vectors. Written only for
   * such corpora (segments written earlier hold it for every embedding corpus; nothing reads it
   * there).
   */
  public static final String VECTOR_CODE = "vec_code";

  /**
   * BinaryDocValues, on every chunk document of a corpus with {@code index: codes} and {@code code:
   * centred}: its code ({@link dev.quarry.engine.embed.CentredCodes}, a function of the vector's
   * bytes and the corpus's frozen first-pass settings).
   */
  public static final String VECTOR_CENTRED_CODE = "vec_ccode";

  /**
   * NumericDocValues, on every chunk document of a corpus whose coded first pass reads an inverted
   * file ({@code probes}): the list its vector belongs to ({@link
   * dev.quarry.engine.embed.VectorLists#listOf}, a function of the vector's bytes and the corpus's
   * frozen lists).
   */
  public static final String VECTOR_LIST = "vec_list";

  /** Stored int on source records of an embedding corpus: chunks longer than the model's window. */
  public static final String TRUNCATED_CHUNKS = "truncated_chunks";

  /** Prefix of StringFields for string, boolean and list metadata: "m." + key. */
  public static final String META_TERM_PREFIX = "m.";

  /** Prefix of DoublePoint fields for numeric metadata: "n." + key. */
  public static final String META_NUMBER_PREFIX = "n.";

  // ---- source documents ----

  /** StringField on source records only: the source id, for listing sources in name order. */
  public static final String SOURCE_RECORD = "source_rec";

  /**
   * Stored: fingerprint of content, title, media type, metadata and passages ("unchanged" test).
   */
  public static final String FINGERPRINT = "fingerprint";

  public static final String CHUNKS = "chunks";
  public static final String CHARACTERS = "characters";
  public static final String PAGES = "pages";
  public static final String INDEXED_AT = "indexed_at";

  /** Stored JSON: the ingest report, for ingested sources. */
  public static final String INGEST_JSON = "ingest";

  // ---- history documents ----

  /** LongPoint + stored + NumericDocValues: the entry's revision. */
  public static final String HISTORY_REV = "h_rev";

  /** StringField, stored: the source the entry is about. */
  public static final String HISTORY_SOURCE = "h_source";

  /** Stored: operation, content hash, subject, time (epoch millis), ordinal within the revision. */
  public static final String HISTORY_OP = "h_op";

  public static final String HISTORY_SHA256 = "h_sha256";
  public static final String HISTORY_SUBJECT = "h_subject";
  public static final String HISTORY_AT = "h_at";
  public static final String HISTORY_ORD = "h_ord";

  // ---- idempotency documents ----

  /** StringField: subject + '\u0000' + key. */
  public static final String IDEM_KEY = "i_key";

  public static final String IDEM_FINGERPRINT = "i_fp";

  /** Stored JSON: the mutation result. */
  public static final String IDEM_RESULT = "i_result";

  /** LongPoint + stored: when it was recorded (epoch millis). */
  public static final String IDEM_AT = "i_at";

  /** Commit user-data keys. */
  public static final String COMMIT_REVISION = "quarry.revision";

  public static final String COMMIT_CORPUS_ID = "quarry.corpusId";

  /** The {@link #SECTION_PATH} term of the headings {@code section}. */
  public static String sectionPath(List<String> section) {
    return String.join(String.valueOf(SECTION_SEPARATOR), section);
  }

  /** The version key of a source version. */
  public static String versionKey(String source, long sourceRevision) {
    return source + '\u0000' + sourceRevision;
  }
}
