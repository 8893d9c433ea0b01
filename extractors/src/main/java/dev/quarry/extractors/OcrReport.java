package dev.quarry.extractors;

/**
 * What optical character recognition did for one document.
 *
 * @param pagesRecognized how many pages (PDF pages without a text layer, or the frames of an image)
 *     were recognised; at least 1
 * @param meanConfidence Tesseract's mean word confidence over those pages, from 0 to 100, or null
 *     when no word was found
 * @param words how many words were recognised
 * @quarry.stable
 */
public record OcrReport(int pagesRecognized, Double meanConfidence, int words) {

  public OcrReport {
    if (pagesRecognized < 1) {
      throw new IllegalArgumentException(
          "pagesRecognized must be at least 1, got " + pagesRecognized);
    }
    if (meanConfidence != null && (meanConfidence < 0 || meanConfidence > 100)) {
      throw new IllegalArgumentException(
          "meanConfidence must be within [0, 100], got " + meanConfidence);
    }
    if (words < 0) {
      throw new IllegalArgumentException("words must be at least 0, got " + words);
    }
  }
}
