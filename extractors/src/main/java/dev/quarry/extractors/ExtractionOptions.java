package dev.quarry.extractors;

import dev.quarry.extractors.ocr.OcrMode;
import java.util.List;

/**
 * What a caller knows about a document besides its bytes.
 *
 * @param declaredMediaType the media type the caller was told, or null; the bytes decide, and a
 *     disagreeing declaration becomes a {@code DECLARED_MEDIA_TYPE_MISMATCH} warning
 * @param fileName the document's file name (a path is cut to its last segment), or null: a hint for
 *     detection where the bytes cannot tell (a Markdown file opening with an HTML comment, text in
 *     a legacy charset); it never overrides what the bytes show (a {@code .txt} that is a PDF is a
 *     PDF)
 * @param ocr whether this document may be recognised, or null for the extractors' own setting;
 *     {@link OcrMode#AUTO} on extractors without OCR fails
 * @param ocrLanguages the Tesseract language data this document is recognised with, in order, or
 *     null for the extractors' own; a name whose data is not installed fails (see {@link
 *     Extractors#missingOcrLanguages})
 * @quarry.stable
 */
public record ExtractionOptions(
    String declaredMediaType, String fileName, OcrMode ocr, List<String> ocrLanguages) {

  /** Options with the extractors' own OCR languages. */
  public ExtractionOptions(String declaredMediaType, String fileName, OcrMode ocr) {
    this(declaredMediaType, fileName, ocr, null);
  }

  public ExtractionOptions {
    if (ocrLanguages != null) {
      Extractors.checkOcrLanguages(ocrLanguages);
      ocrLanguages = List.copyOf(ocrLanguages);
    }
    if (fileName != null) {
      int slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
      fileName = fileName.substring(slash + 1);
      if (fileName.isBlank()) {
        fileName = null;
      }
    }
  }

  /** Options with only a declared media type. */
  public static ExtractionOptions declared(String declaredMediaType) {
    return new ExtractionOptions(declaredMediaType, null, null);
  }
}
