package dev.quarry.api.wire;

import dev.quarry.corpora.jobs.JobSettings;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceIds;

/**
 * One bound of the contract, advertised under {@code limits} in {@code GET /v1/protocol} by its
 * wire name. Each has a default and a ceiling: the ceiling is what the layers below accept, so a
 * configuration cannot advertise more than the engine would take.
 */
public enum Limit {
  /** JSON request bodies; checked from Content-Length and again while reading. */
  MAX_REQUEST_BYTES("maxRequestBytes", 8L << 20, 256L << 20),
  MAX_QUERY_CHARS("maxQueryChars", SearchRequest.MAX_QUERY_CHARS, SearchRequest.MAX_QUERY_CHARS),
  MAX_TOP_K("maxTopK", SearchRequest.MAX_TOP_K, SearchRequest.MAX_TOP_K),
  /** Entries of a search's {@code sources}. */
  MAX_SOURCES_PER_SEARCH("maxSourcesPerSearch", 100, 1000),
  /**
   * Fields of one object of a search's {@code filter} (the filter itself, or one inside and, or,
   * not).
   */
  MAX_FILTER_FIELDS("maxFilterFields", 32, 256),
  /**
   * Conditions and operators in a whole {@code filter}, at every level. Each becomes at most a few
   * Lucene clauses; the ceiling keeps a filter with the longest query under Lucene's 1024 clauses.
   */
  MAX_FILTER_CONDITIONS("maxFilterConditions", 64, 200),
  /**
   * Operators (and, or, not) enclosing a filter condition; the engine refuses more than its own
   * bound.
   */
  MAX_FILTER_DEPTH("maxFilterDepth", Filter.MAX_DEPTH, Filter.MAX_DEPTH),
  /** Values of one {@code {"in": [...]}} condition. */
  MAX_FILTER_VALUES("maxFilterValues", 100, 1024),
  /** Fields of a search's {@code facets}. */
  MAX_FACETS("maxFacets", 8, SearchRequest.MAX_FACETS),
  /** Values one facet returns ({@code size}); counting is exact whatever the size. */
  MAX_FACET_SIZE("maxFacetSize", SearchRequest.Facet.MAX_SIZE, SearchRequest.Facet.MAX_SIZE),
  /** Characters of one source's {@code text}, or of all its passages together. */
  MAX_TEXT_CHARS("maxTextChars", 4_000_000, 64_000_000),
  MAX_PASSAGES("maxPassages", 10_000, 100_000),
  MAX_TITLE_CHARS("maxTitleChars", 1000, 10_000),
  MAX_SOURCE_CHARS("maxSourceChars", SourceIds.MAX_LENGTH, SourceIds.MAX_LENGTH),
  MAX_METADATA_ENTRIES("maxMetadataEntries", Metadata.MAX_ENTRIES, Metadata.MAX_ENTRIES),
  MAX_BATCH_OPERATIONS("maxBatchOperations", Mutation.MAX_OPERATIONS, Mutation.MAX_OPERATIONS),
  MAX_IDEMPOTENCY_KEY_CHARS(
      "maxIdempotencyKeyChars",
      Mutation.Idempotency.MAX_KEY_CHARS,
      Mutation.Idempotency.MAX_KEY_CHARS),
  /** {@code limit} of corpora/list, sources/list and corpora/history when the request omits it. */
  DEFAULT_LIST_LIMIT("defaultListLimit", 100, 1000),
  // The corpora layer pages at most 1,000 entries at a time.
  MAX_LIST_LIMIT("maxListLimit", 1000, 1000),
  /** Uploaded document bytes (ingest). */
  MAX_DOCUMENT_BYTES("maxDocumentBytes", 64L << 20, 1L << 30),
  MAX_DOCUMENT_PAGES("maxDocumentPages", 2000, 100_000),
  MAX_EXTRACTED_CHARS("maxExtractedChars", 10_000_000, 100_000_000),
  /** Wall-clock time one document may take in an extraction worker before it fails (ingest). */
  EXTRACTION_TIMEOUT_MILLIS("extractionTimeoutMillis", 60_000, 3_600_000),
  /** Files one ingestion job may hold (ingestion-jobs). */
  MAX_JOB_FILES("maxJobFiles", JobSettings.DEFAULT_MAX_FILES_PER_JOB, 1_000_000),
  /** Bytes one ingestion job's files may hold together (ingestion-jobs). */
  MAX_JOB_BYTES("maxJobBytes", JobSettings.DEFAULT_MAX_BYTES_PER_JOB, 1L << 40);

  private final String wireName;
  private final long defaultValue;
  private final long ceiling;

  Limit(String wireName, long defaultValue, long ceiling) {
    this.wireName = wireName;
    this.defaultValue = defaultValue;
    this.ceiling = ceiling;
  }

  public String wireName() {
    return wireName;
  }

  public long defaultValue() {
    return defaultValue;
  }

  /** The most this limit may be configured to. */
  public long ceiling() {
    return ceiling;
  }

  /** The limit with this wire name, or null. */
  public static Limit fromWireName(String name) {
    for (Limit l : values()) {
      if (l.wireName.equals(name)) {
        return l;
      }
    }
    return null;
  }
}
