package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * A source's state, from {@code sources/read} (which adds the corpus, its id and the revision read
 * at) or {@code sources/list} (where those three are null).
 *
 * @param language the language the source is analysed in ({@code german}; in an auto corpus its
 *     detected one, {@code standard} when detection was not confident), the one its receipt and
 *     hits say; null when an older server did not say
 * @quarry.stable
 */
public record SourceState(
    String corpus,
    String corpusId,
    Long revision,
    String source,
    long sourceRevision,
    String contentSha256,
    String title,
    String mediaType,
    Map<String, Object> metadata,
    long chunks,
    long characters,
    Integer pages,
    String indexedAt,
    String extractor,
    List<Receipt.Warning> warnings,
    String language) {

  /** A state that does not say its language (the shape before it was returned). */
  public SourceState(
      String corpus,
      String corpusId,
      Long revision,
      String source,
      long sourceRevision,
      String contentSha256,
      String title,
      String mediaType,
      Map<String, Object> metadata,
      long chunks,
      long characters,
      Integer pages,
      String indexedAt,
      String extractor,
      List<Receipt.Warning> warnings) {
    this(
        corpus,
        corpusId,
        revision,
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
        extractor,
        warnings,
        null);
  }
}
