package dev.quarry.extractors;

import dev.quarry.extractors.ocr.OcrMode;

/**
 * What a caller knows about a document besides its bytes.
 *
 * @param declaredMediaType the media type the caller was told, or null; the bytes decide, and a
 *     disagreeing declaration becomes a {@code DECLARED_MEDIA_TYPE_MISMATCH} warning
 * @param fileName the document's file name (a path is cut to its last segment), or null: a hint
 *     for detection where the bytes cannot tell (a Markdown file opening with an HTML comment, text
 *     in a legacy charset); it never overrides what the bytes show (a {@code .txt} that is a PDF is
 *     a PDF)
 * @param ocr whether this document may be recognised, or null for the extractors' own setting;
 *     {@link OcrMode#AUTO} on extractors without OCR fails
 *
 * @quarry.stable
 */
public record ExtractionOptions(String declaredMediaType, String fileName, OcrMode ocr) {

  public ExtractionOptions {
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
