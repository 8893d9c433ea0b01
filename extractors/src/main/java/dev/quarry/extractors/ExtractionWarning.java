package dev.quarry.extractors;

import java.util.List;
import java.util.Objects;

/**
 * Something a caller should know about an extraction that still succeeded.
 *
 * @param code stable, upper-case code, for example {@value #NO_TEXT_LAYER}
 * @param message for people
 * @param pages the 1-based pages concerned, or empty when the warning is not about pages
 * @quarry.stable
 */
public record ExtractionWarning(String code, String message, List<Integer> pages) {

  /** Pages that carry no text layer (images only); their text is missing. */
  public static final String NO_TEXT_LAYER = "NO_TEXT_LAYER";

  /** The declared media type disagrees with the one detected from the bytes; the bytes won. */
  public static final String DECLARED_MEDIA_TYPE_MISMATCH = "DECLARED_MEDIA_TYPE_MISMATCH";

  /** Text bytes that are not valid in their charset were replaced with U+FFFD. */
  public static final String INVALID_ENCODING = "INVALID_ENCODING";

  /** A part of the document (an outline, a page) could not be read and was left out. */
  public static final String PARTIALLY_READ = "PARTIALLY_READ";

  /**
   * Pages whose recognised text has a mean word confidence under 60 of 100: expect misread words.
   */
  public static final String OCR_LOW_CONFIDENCE = "OCR_LOW_CONFIDENCE";

  /** Pages that optical character recognition failed on; their text is missing. */
  public static final String OCR_FAILED = "OCR_FAILED";

  /**
   * Pages whose text lay turned in the image (a sideways or upside-down scan) and was read upright;
   * one warning per angle, the message saying which.
   */
  public static final String OCR_ROTATED = "OCR_ROTATED";

  public ExtractionWarning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    pages = pages == null ? List.of() : List.copyOf(pages);
  }

  public ExtractionWarning(String code, String message) {
    this(code, message, List.of());
  }
}
