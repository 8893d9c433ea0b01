package dev.quarry.extractors.worker;

import dev.quarry.extractors.ocr.Tesseract;
import java.util.List;
import java.util.Objects;

/**
 * What the parent asks a worker to do: extract one file within limits. Sent as one JSON frame.
 *
 * @param file absolute path of the document, readable by the worker
 * @param declaredMediaType the media type the caller declared, or null
 * @param maxDocumentPages most pages, slides or sheets
 * @param maxExtractedChars most characters of text
 * @param pdfEnabled whether PDFs may be extracted
 * @param fileName the document's file name, a detection hint, or null
 * @param ocr whether images and pages without a text layer are recognised
 * @param detectOrientation whether recognition turns pages scanned sideways or upside down upright
 *     first (Tesseract's orientation detection), or reads every page as it lies
 * @param timeoutMillis the document's deadline, which the parent enforces by killing the worker;
 *     the worker gives the programs it starts (Tesseract) no more than what is left of it
 * @param ocrLanguages the Tesseract language data recognition reads with, in order; null or empty:
 *     English ({@code eng})
 */
public record WorkerRequest(
    String file,
    String declaredMediaType,
    int maxDocumentPages,
    int maxExtractedChars,
    boolean pdfEnabled,
    String fileName,
    boolean ocr,
    boolean detectOrientation,
    long timeoutMillis,
    List<String> ocrLanguages) {

  /** Extraction without OCR or a file name, within a minute. */
  public WorkerRequest(
      String file,
      String declaredMediaType,
      int maxDocumentPages,
      int maxExtractedChars,
      boolean pdfEnabled) {
    this(
        file,
        declaredMediaType,
        maxDocumentPages,
        maxExtractedChars,
        pdfEnabled,
        null,
        false,
        true,
        60_000,
        List.of(Tesseract.LANGUAGE));
  }

  public WorkerRequest {
    Objects.requireNonNull(file, "file");
    ocrLanguages =
        ocrLanguages == null || ocrLanguages.isEmpty()
            ? List.of(Tesseract.LANGUAGE)
            : List.copyOf(ocrLanguages);
  }
}
