package dev.quarry.extractors.ocr;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ScannedPages;
import dev.quarry.extractors.SharedDocs;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Optical character recognition of real scans from the shared document collection (skipped without
 * it, or without {@code tesseract} and its English data). Apart from {@link OcrExtractionTest},
 * whose pages are made here, so that a run without the collection runs only this class again.
 */
class OcrSharedScansTest {
  private static Extractors extractors;

  @BeforeAll
  static void start() {
    extractors = OcrExtractionTest.ocrExtractors();
  }

  @AfterAll
  static void stop() {
    if (extractors != null) {
      extractors.close();
    }
  }

  /**
   * A real scan from the shared collection, saved turned a quarter, reads as its upright twin does
   * (skipped without the shared collection).
   */
  @Test
  void sharedScanTurnedAQuarter_readsAsItsUprightTwin() throws Exception {
    OcrExtractionTest.assumeOrientationData();
    Extraction upright =
        extractors.extractWith(
            SharedDocs.good("docling__ocr_test.pdf"),
            ExtractionOptions.declared("application/pdf"));
    Extraction turned =
        extractors.extractWith(
            SharedDocs.good("docling__ocr_test_rotated_90.pdf"),
            ExtractionOptions.declared("application/pdf"));
    double accuracy = ScannedPages.wordAccuracy(upright.text(), turned.text());
    System.out.printf(
        "OCR of a real scan turned a quarter: word accuracy %.3f against its upright twin; %s%n",
        accuracy, turned.warnings());
    assertTrue(upright.text().split("\\s+").length >= 10, upright.text());
    assertTrue(accuracy >= 0.9, "word accuracy " + accuracy + " on: " + turned.text());
    assertTrue(
        turned.warnings().stream()
            .anyMatch(
                w ->
                    w.code().equals(ExtractionWarning.OCR_ROTATED) && w.pages().equals(List.of(1))),
        turned.warnings()::toString);
    assertTrue(
        upright.warnings().stream().noneMatch(w -> w.code().equals(ExtractionWarning.OCR_ROTATED)),
        upright.warnings()::toString);
  }

  /**
   * One-page scans of the shared collection (labelled image-only): most get text, and the rate is
   * printed. Five files, so the suite stays short on a small machine.
   */
  @Test
  void sharedScans_mostAreRecognised_pagesPerSecondPrinted() throws Exception {
    List<SharedDocs.Row> scans =
        SharedDocs.manifest("good").stream()
            .filter(
                row ->
                    SharedDocs.labels(row).contains("image-only")
                        && row.file().endsWith(".pdf")
                        && row.column("pdf_pages").equals("1"))
            .limit(5)
            .toList();
    int recognised = 0;
    int pages = 0;
    long started = System.nanoTime();
    for (SharedDocs.Row row : scans) {
      try {
        Extraction extraction =
            extractors.extractWith(
                SharedDocs.good(row.file()),
                new ExtractionOptions("application/pdf", row.file(), null));
        recognised++;
        pages += extraction.ocr().pagesRecognized();
        System.out.printf(
            "  %-45s %d pages recognised, mean confidence %s, %d characters%n",
            row.file(),
            extraction.ocr().pagesRecognized(),
            extraction.ocr().meanConfidence(),
            extraction.characters());
      } catch (ExtractionException e) {
        System.out.printf("  %-45s %s: %s%n", row.file(), e.failure(), e.getMessage());
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "OCR of %d shared scans: %d recognised, %d pages in %.1f s (%.2f pages/s, one worker)%n",
        scans.size(), recognised, pages, seconds, pages / seconds);
    assertTrue(
        recognised * 4 >= scans.size() * 3,
        recognised + " of " + scans.size() + " scans recognised");
  }
}
