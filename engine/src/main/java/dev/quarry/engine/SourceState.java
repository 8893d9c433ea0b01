package dev.quarry.engine;

import java.time.Instant;

/**
 * A source as it stands at the latest revision.
 *
 * @param pages page count for paged content, or null
 * @param ingest the extraction report when the source was ingested, or null
 * @quarry.stable
 */
public record SourceState(
    String source,
    long sourceRevision,
    String contentSha256,
    String title,
    String mediaType,
    Metadata metadata,
    int chunks,
    long characters,
    Integer pages,
    Instant indexedAt,
    IngestReport ingest,
    Integer truncatedChunks) {

  /** The state of a source in a lexical corpus. */
  public SourceState(
      String source,
      long sourceRevision,
      String contentSha256,
      String title,
      String mediaType,
      Metadata metadata,
      int chunks,
      long characters,
      Integer pages,
      Instant indexedAt,
      IngestReport ingest) {
    this(
        source,
        sourceRevision,
        contentSha256,
        title,
        mediaType,
        metadata,
        chunks,
        characters,
        pages,
        indexedAt,
        ingest,
        null);
  }
}
