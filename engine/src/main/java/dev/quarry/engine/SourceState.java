package dev.quarry.engine;

import java.time.Instant;

/**
 * A source as it stands at the latest revision.
 *
 * @param pages page count for paged content, or null
 * @param ingest the extraction report when the source was ingested, or null
 * @param language the wire name of the language the source is analysed in: in an auto corpus its
 *     detected (or named) one, else the corpus's; the same its receipt and hits say. Null only for
 *     a source of an auto corpus recorded before sources kept their language and holding no chunk
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
    Integer truncatedChunks,
    String language) {

  /** A source's state without its language. */
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
      IngestReport ingest,
      Integer truncatedChunks) {
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
        truncatedChunks,
        null);
  }

  /**
   * This state saying {@code newLanguage} as its language.
   *
   * @param newLanguage a language's wire name
   */
  public SourceState withLanguage(String newLanguage) {
    return new SourceState(
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
        truncatedChunks,
        newLanguage);
  }

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
        null,
        null);
  }
}
