package dev.quarry.extractors.ocr;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the text of an image (PNG, JPEG, TIFF, WebP) by optical character recognition. Each frame
 * of a multi-frame TIFF is a page.
 *
 * <p>Stateless and thread safe.
 */
public final class ImageExtractor {

  /** Recognises {@code file}, an image of {@code mediaType}, with {@code recognizer}. */
  public Extraction extract(
      Path file, String mediaType, Recognizer recognizer, ExtractionLimits limits)
      throws ExtractionException {
    List<String> frames = recognizer.recognize(file, 1);
    if (frames.size() > limits.maxDocumentPages()) {
      throw new ExtractionException(
          Failure.DOCUMENT_TOO_LARGE,
          "The image has "
              + frames.size()
              + " frames, more than the limit of "
              + limits.maxDocumentPages()
              + " (maxDocumentPages).");
    }
    PagedTextBuilder text =
        new PagedTextBuilder(limits.maxExtractedChars(), limits.maxDocumentPages());
    for (String frame : frames) {
      if (text.length() > 0) {
        text.append("\n\n");
      }
      text.startPage();
      text.append(frame);
    }
    String body = text.text();
    if (body.isBlank()) {
      throw new ExtractionException(
          Failure.NO_TEXT_EXTRACTED,
          recognizer.warnings().stream()
                  .anyMatch(w -> w.code().equals(ExtractionWarning.OCR_FAILED))
              ? "Optical character recognition could not read the image."
              : "Optical character recognition found no text in the image.");
    }
    return new Extraction(
        body,
        text.pageStarts(),
        null,
        List.of(),
        mediaType,
        Extraction.TESSERACT,
        frames.size(),
        body.length(),
        recognizer.warnings(),
        false,
        null,
        recognizer.report());
  }
}
