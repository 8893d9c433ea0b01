package dev.quarry.client;

import java.util.Map;

/**
 * The {@code request} part of an ingest: where the document goes and what is recorded with it.
 *
 * @param mediaType declared; the bytes decide, and a disagreement is a warning in the receipt
 */
public record IngestRequest(String corpus, String corpusId, String source, String title, Map<String, Object> metadata,
    String mediaType, Long expectedRevision) {
  public static IngestRequest of(String corpus, String source) {
    return new IngestRequest(corpus, null, source, null, null, null, null);
  }

  public IngestRequest withTitle(String t) {
    return new IngestRequest(corpus, corpusId, source, t, metadata, mediaType, expectedRevision);
  }

  public IngestRequest withMetadata(Map<String, Object> m) {
    return new IngestRequest(corpus, corpusId, source, title, Map.copyOf(m), mediaType, expectedRevision);
  }

  public IngestRequest withCorpusId(String id) {
    return new IngestRequest(corpus, id, source, title, metadata, mediaType, expectedRevision);
  }

  public IngestRequest withMediaType(String m) {
    return new IngestRequest(corpus, corpusId, source, title, metadata, m, expectedRevision);
  }

  public IngestRequest withExpectedRevision(long r) {
    return new IngestRequest(corpus, corpusId, source, title, metadata, mediaType, r);
  }
}
