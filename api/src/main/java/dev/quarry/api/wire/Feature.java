package dev.quarry.api.wire;

import dev.quarry.engine.ErrorCode;

/**
 * A host feature of the retrieval extension: its name in {@code GET /v1/protocol} and the code its
 * endpoints answer when it is switched off.
 */
public enum Feature {
  SCOPED_RETRIEVAL("scoped-retrieval", ErrorCode.RETRIEVAL_UNAVAILABLE),
  RETRIEVAL_INDEXING("retrieval-indexing", ErrorCode.INDEXING_UNAVAILABLE),
  DOCUMENT_INGESTION("document-ingestion", ErrorCode.INGESTION_UNAVAILABLE),
  PDF_INGESTION("pdf-ingestion", ErrorCode.PDF_INGESTION_UNAVAILABLE),
  /**
   * Images and PDF pages without a text layer are recognised (Tesseract). Not an endpoint of its
   * own: without it an image is UNSUPPORTED_MEDIA_TYPE and {@code ocr: "auto"} is refused.
   */
  OCR("ocr", ErrorCode.UNSUPPORTED_MEDIA_TYPE),
  /**
   * Durable ingestion jobs (docs/ingestion.md): many files, detached from the connection, surviving
   * restarts.
   */
  INGESTION_JOBS("ingestion-jobs", ErrorCode.INGESTION_JOBS_UNAVAILABLE);

  private final String wireName;
  private final ErrorCode unavailable;

  Feature(String wireName, ErrorCode unavailable) {
    this.wireName = wireName;
    this.unavailable = unavailable;
  }

  public String wireName() {
    return wireName;
  }

  /** The code an endpoint of this feature answers while the feature is off. */
  public ErrorCode unavailableCode() {
    return unavailable;
  }

  /** The feature with this wire name, or null. */
  public static Feature fromWireName(String name) {
    for (Feature f : values()) {
      if (f.wireName.equals(name)) {
        return f;
      }
    }
    return null;
  }
}
