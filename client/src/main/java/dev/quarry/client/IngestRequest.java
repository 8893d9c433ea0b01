package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * The {@code request} part of an ingest: where the document goes and what is recorded with it.
 *
 * @param mediaType declared; the bytes decide, and a disagreement is a warning in the receipt
 * @param ocr {@code auto} or {@code off} for this document; null (not sent): the server's setting
 * @param ocrLanguages the Tesseract language data it is recognised with, in order ({@code ["deu",
 *     "eng"]}); null (not sent): the server's {@code extraction.ocrLanguages}
 * @quarry.stable
 */
public record IngestRequest(
    String corpus,
    String corpusId,
    String source,
    String title,
    Map<String, Object> metadata,
    String mediaType,
    Long expectedRevision,
    String ocr,
    List<String> ocrLanguages) {
  /**
   * A request with the server's OCR languages, as the client described ingests before they could be
   * chosen.
   */
  public IngestRequest(
      String corpus,
      String corpusId,
      String source,
      String title,
      Map<String, Object> metadata,
      String mediaType,
      Long expectedRevision,
      String ocr) {
    this(corpus, corpusId, source, title, metadata, mediaType, expectedRevision, ocr, null);
  }

  public static IngestRequest of(String corpus, String source) {
    return new IngestRequest(corpus, null, source, null, null, null, null, null);
  }

  public IngestRequest withTitle(String t) {
    return new IngestRequest(
        corpus, corpusId, source, t, metadata, mediaType, expectedRevision, ocr, ocrLanguages);
  }

  public IngestRequest withMetadata(Map<String, Object> m) {
    return new IngestRequest(
        corpus,
        corpusId,
        source,
        title,
        Map.copyOf(m),
        mediaType,
        expectedRevision,
        ocr,
        ocrLanguages);
  }

  public IngestRequest withCorpusId(String id) {
    return new IngestRequest(
        corpus, id, source, title, metadata, mediaType, expectedRevision, ocr, ocrLanguages);
  }

  public IngestRequest withMediaType(String m) {
    return new IngestRequest(
        corpus, corpusId, source, title, metadata, m, expectedRevision, ocr, ocrLanguages);
  }

  public IngestRequest withExpectedRevision(long r) {
    return new IngestRequest(
        corpus, corpusId, source, title, metadata, mediaType, r, ocr, ocrLanguages);
  }

  /**
   * This document with an OCR choice: {@code auto} (the server must advertise the feature {@code
   * ocr}, else the ingest is refused with {@code INVALID_REQUEST} naming {@code ocr}) or {@code
   * off} (an image is then refused as unsupported, and a scanned PDF as without text).
   */
  public IngestRequest withOcr(String mode) {
    return new IngestRequest(
        corpus, corpusId, source, title, metadata, mediaType, expectedRevision, mode, ocrLanguages);
  }

  /**
   * This document recognised with {@code languages}, Tesseract language data names in order (such
   * as {@code List.of("deu", "eng")}), instead of the server's {@code extraction.ocrLanguages};
   * null for the server's. A name that is not language data, or whose data the server has not
   * installed, is refused with {@code INVALID_REQUEST} naming {@code ocrLanguages[i]}; so is any
   * list on a server without the feature {@code ocr}.
   */
  public IngestRequest withOcrLanguages(List<String> languages) {
    return new IngestRequest(
        corpus,
        corpusId,
        source,
        title,
        metadata,
        mediaType,
        expectedRevision,
        ocr,
        languages == null ? null : List.copyOf(languages));
  }
}
