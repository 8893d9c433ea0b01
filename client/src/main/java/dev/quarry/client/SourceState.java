package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * A source's state, from {@code sources/read} (which adds the corpus, its id and the revision read
 * at) or {@code sources/list} (where those three are null).
 *
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
    List<Receipt.Warning> warnings) {}
