package dev.quarry.extractors.ocr;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.OcrReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recognises the images of one document within its deadline and keeps the tally the extraction
 * report gives: pages recognised, mean word confidence, pages read poorly or not at all, pages
 * whose text lay turned.
 *
 * <p>One per document; not thread safe.
 */
public final class Recognizer {
  /** Below this mean word confidence a page's text has many misread words. */
  static final double LOW_CONFIDENCE = 60;

  private final Tesseract tesseract;
  private final long deadlineNanos;
  private int pages;
  private double confidenceSum;
  private int words;
  private final List<Integer> lowConfidencePages = new ArrayList<>();
  private final List<Integer> failedPages = new ArrayList<>();

  /** Pages read upright after lying turned, by clockwise angle in degrees. */
  private final Map<Integer, List<Integer>> rotatedPages = new TreeMap<>();

  /** A recognizer that must be done {@code budget} from now. */
  public Recognizer(Tesseract tesseract, Duration budget) {
    this.tesseract = tesseract;
    this.deadlineNanos = System.nanoTime() + budget.toNanos();
  }

  /**
   * The text of each frame of {@code image}, counted as pages {@code firstPage} onwards.
   *
   * @throws ExtractionException when time is up (the whole document fails: its deadline is passed)
   */
  public List<String> recognize(Path image, int firstPage) throws ExtractionException {
    TesseractTsv.Recognition recognition;
    try {
      recognition = tesseract.recognize(image, Duration.ofNanos(deadlineNanos - System.nanoTime()));
    } catch (ExtractionException e) {
      if (System.nanoTime() - deadlineNanos >= 0) {
        throw e;
      }
      failedPages.add(firstPage);
      return List.of("");
    }
    List<String> texts = recognition.pages().isEmpty() ? List.of("") : recognition.pages();
    pages += texts.size();
    confidenceSum += recognition.confidenceSum();
    words += recognition.words();
    for (int i = 0; i < recognition.rotations().size(); i++) {
      int degrees = recognition.rotations().get(i);
      if (degrees != 0) {
        rotatedPages.computeIfAbsent(degrees, d -> new ArrayList<>()).add(firstPage + i);
      }
    }
    Double mean = recognition.meanConfidence();
    if (mean != null && mean < LOW_CONFIDENCE) {
      for (int i = 0; i < texts.size(); i++) {
        lowConfidencePages.add(firstPage + i);
      }
    }
    return texts;
  }

  /** Records that {@code page} could not be given to recognition; its text is the empty string. */
  public String recognizeFailed(int page) {
    failedPages.add(page);
    return "";
  }

  /** What recognition did, or null when it recognised nothing. */
  public OcrReport report() {
    return pages == 0
        ? null
        : new OcrReport(pages, words == 0 ? null : round(confidenceSum / words), words);
  }

  /** Warnings for pages recognised poorly or not at all, and for pages that lay turned. */
  public List<ExtractionWarning> warnings() {
    List<ExtractionWarning> warnings = new ArrayList<>();
    if (!lowConfidencePages.isEmpty()) {
      warnings.add(
          new ExtractionWarning(
              ExtractionWarning.OCR_LOW_CONFIDENCE,
              lowConfidencePages.size()
                  + " recognised pages have a mean word confidence under "
                  + (int) LOW_CONFIDENCE
                  + " of 100; expect misread words.",
              lowConfidencePages));
    }
    if (!failedPages.isEmpty()) {
      warnings.add(
          new ExtractionWarning(
              ExtractionWarning.OCR_FAILED,
              failedPages.size() + " pages could not be recognised; their text is missing.",
              failedPages));
    }
    rotatedPages.forEach(
        (degrees, pages) ->
            warnings.add(
                new ExtractionWarning(
                    ExtractionWarning.OCR_ROTATED,
                    (pages.size() == 1
                            ? "1 recognised page lay turned "
                            : pages.size() + " recognised pages lay turned ")
                        + degrees
                        + " degrees clockwise; "
                        + (pages.size() == 1 ? "it was" : "they were")
                        + " read upright.",
                    pages)));
    return warnings;
  }

  private static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }
}
