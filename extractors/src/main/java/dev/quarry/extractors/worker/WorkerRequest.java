package dev.quarry.extractors.worker;

import java.util.Objects;

/**
 * What the parent asks a worker to do: extract one file within limits. Sent as one JSON frame.
 *
 * @param file absolute path of the document, readable by the worker
 * @param declaredMediaType the media type the caller declared, or null
 * @param maxDocumentPages most pages, slides or sheets
 * @param maxExtractedChars most characters of text
 * @param pdfEnabled whether PDFs may be extracted
 */
public record WorkerRequest(
    String file, String declaredMediaType, int maxDocumentPages, int maxExtractedChars, boolean pdfEnabled) {

  public WorkerRequest {
    Objects.requireNonNull(file, "file");
  }
}
