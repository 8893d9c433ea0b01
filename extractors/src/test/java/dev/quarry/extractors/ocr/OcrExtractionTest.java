package dev.quarry.extractors.ocr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ScannedPages;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optical character recognition through the worker pool, on pages whose text is known: a text PDF
 * made here, rendered to images the way a scanner would. Skipped when {@code tesseract} with
 * English data is not installed.
 */
class OcrExtractionTest {
  private static Extractors extractors;

  @BeforeAll
  static void start() {
    extractors = ocrExtractors();
  }

  /**
   * Extractors with OCR on and one worker; the calling class is skipped without {@code tesseract}
   * and its English data.
   */
  static Extractors ocrExtractors() {
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    // Five minutes a document: a recognised page takes seconds of CPU, and the machines running
    // the tests are often busy.
    Extractors ocr =
        Extractors.builder()
            .workers(1)
            .ocr(OcrMode.AUTO)
            .limits(ExtractionLimits.defaults().withTimeout(Duration.ofMinutes(5)))
            .build();
    assertTrue(ocr.ocrAvailable());
    return ocr;
  }

  @AfterAll
  static void stop() {
    if (extractors != null) {
      extractors.close();
    }
  }

  @Test
  void scannedPdf_isRecognised_withWordAccuracyReported(@TempDir Path dir) throws Exception {
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE));
    Path scan = ScannedPages.scannedCopy(text, dir.resolve("scan.pdf"), 200);

    Extraction extraction =
        extractors.extractWith(scan, new ExtractionOptions(null, "scan.pdf", null));

    double accuracy =
        ScannedPages.wordAccuracy(String.join(" ", ScannedPages.PAGE), extraction.text());
    System.out.printf(
        "OCR word accuracy on a page scanned at 200 dpi: %.3f (mean confidence %s)%n",
        accuracy, extraction.ocr().meanConfidence());
    assertTrue(accuracy >= 0.95, "word accuracy " + accuracy + " on: " + extraction.text());
    assertEquals("pdfbox", extraction.extractor());
    assertEquals(1, extraction.ocr().pagesRecognized());
    assertTrue(extraction.ocr().meanConfidence() > 80, "confidence " + extraction.ocr());
    assertTrue(
        extraction.warnings().stream()
            .noneMatch(w -> w.code().equals(ExtractionWarning.NO_TEXT_LAYER)));
    assertTrue(
        extraction.warnings().stream()
            .noneMatch(w -> w.code().equals(ExtractionWarning.OCR_ROTATED)),
        "an upright page is not reported turned: " + extraction.warnings());
  }

  @Test
  void mixedPdf_pagesWithTextKeepTheirText_onlyTheScannedPageIsRecognised(@TempDir Path dir)
      throws Exception {
    Path first =
        ScannedPages.textPdf(
            dir.resolve("first.pdf"), List.of(List.of("Quarterly ledger of the harbour office.")));
    Path second =
        ScannedPages.scannedCopy(
            ScannedPages.textPdf(dir.resolve("second.pdf"), List.of(ScannedPages.PAGE)),
            dir.resolve("s.pdf"),
            200);
    Path mixed = ScannedPages.concatenate(dir.resolve("mixed.pdf"), first, second);

    Extraction extraction =
        extractors.extractWith(mixed, ExtractionOptions.declared("application/pdf"));

    assertEquals(2, extraction.pages());
    assertEquals("Quarterly ledger of the harbour office.", extraction.pageText(1).strip());
    assertTrue(extraction.pageText(2).contains("lighthouse"), extraction.pageText(2));
    assertEquals(1, extraction.ocr().pagesRecognized());
  }

  @Test
  void pngAndTiff_areRecognised(@TempDir Path dir) throws Exception {
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE));
    for (String format : List.of("png", "tiff", "jpeg")) {
      Path image = ScannedPages.pageImage(text, dir.resolve("page." + format), 200, format);
      Extraction extraction = extractors.extractWith(image, ExtractionOptions.declared(null));
      assertEquals("tesseract", extraction.extractor(), format);
      assertEquals("image/" + format, extraction.mediaType());
      assertEquals(1, extraction.pages());
      double accuracy =
          ScannedPages.wordAccuracy(String.join(" ", ScannedPages.PAGE), extraction.text());
      assertTrue(accuracy >= 0.95, format + " accuracy " + accuracy);
    }
  }

  /** Skips, saying so, without the orientation data: pages are then read as they lie. */
  static void assumeOrientationData() {
    assumeTrue(
        Tesseract.onPath().detectsOrientation(),
        "tesseract has no orientation data (osd; Debian: tesseract-ocr-osd); skipping the turned pages");
  }

  @Test
  void turnedImages_areReadUpright_andTheTurnIsReported(@TempDir Path dir) throws Exception {
    assumeOrientationData();
    BufferedImage upright =
        ScannedPages.render(
            ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE)), 200);
    for (int degrees : List.of(90, 180, 270)) {
      Path png = dir.resolve("turned-" + degrees + ".png");
      ImageIO.write(ScannedPages.turned(upright, degrees), "png", png.toFile());
      Extraction extraction = extractors.extractWith(png, ExtractionOptions.declared(null));
      assertReadUpright(extraction, degrees, "PNG turned " + degrees);
    }
  }

  @Test
  void turnedScansInPdfs_areReadUpright_andTheTurnIsReported(@TempDir Path dir) throws Exception {
    assumeOrientationData();
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE));
    BufferedImage upright = ScannedPages.render(text, 200);
    for (int degrees : List.of(90, 180)) {
      Path scan =
          ScannedPages.imageOnlyPdf(
              ScannedPages.turned(upright, degrees),
              200,
              dir.resolve("turned-" + degrees + ".pdf"));
      assertReadUpright(
          extractors.extractWith(scan, ExtractionOptions.declared(null)),
          degrees,
          "PDF scan turned " + degrees);
    }
    // An upright scan whose page says /Rotate 180: it renders, as viewers show it, upside down.
    Path rotate =
        ScannedPages.withPageRotation(
            ScannedPages.scannedCopy(text, dir.resolve("scan.pdf"), 200),
            180,
            dir.resolve("rotate-180.pdf"));
    assertReadUpright(
        extractors.extractWith(rotate, ExtractionOptions.declared(null)), 180, "/Rotate 180");
  }

  /**
   * With orientation detection off a page scanned upside down is read as it lies: few of its words
   * are found, and no turn is reported; the same page is read upright with it on (the default).
   */
  @Test
  void orientationDetectionOff_readsAnUpsideDownPageAsItLies(@TempDir Path dir) throws Exception {
    assumeOrientationData();
    BufferedImage upright =
        ScannedPages.render(
            ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE)), 200);
    Path png = dir.resolve("turned-180.png");
    ImageIO.write(ScannedPages.turned(upright, 180), "png", png.toFile());
    assertTrue(extractors.detectsOrientation(), "detection is on by default");
    assertReadUpright(
        extractors.extractWith(png, ExtractionOptions.declared(null)),
        180,
        "PNG turned 180, detection on");

    try (Extractors uprightOnly =
        Extractors.builder()
            .workers(1)
            .ocr(OcrMode.AUTO)
            .detectOrientation(false)
            .limits(ExtractionLimits.defaults().withTimeout(Duration.ofMinutes(5)))
            .build()) {
      assertFalse(uprightOnly.detectsOrientation());
      Extraction asItLies;
      try {
        asItLies = uprightOnly.extractWith(png, ExtractionOptions.declared(null));
      } catch (ExtractionException e) {
        // Nothing legible at all is the other way of reading the page as it lies.
        assertEquals(Failure.NO_TEXT_EXTRACTED, e.failure(), e::getMessage);
        return;
      }
      double accuracy =
          ScannedPages.wordAccuracy(String.join(" ", ScannedPages.PAGE), asItLies.text());
      System.out.printf(
          "OCR word accuracy on a page scanned upside down, orientation detection off: %.3f%n",
          accuracy);
      assertTrue(accuracy < 0.5, "word accuracy " + accuracy + " on: " + asItLies.text());
      assertTrue(
          asItLies.warnings().stream()
              .noneMatch(w -> w.code().equals(ExtractionWarning.OCR_ROTATED)),
          asItLies.warnings()::toString);
    }
  }

  private static void assertReadUpright(Extraction extraction, int degrees, String what) {
    double accuracy =
        ScannedPages.wordAccuracy(String.join(" ", ScannedPages.PAGE), extraction.text());
    System.out.printf(
        "OCR word accuracy on a page scanned at 200 dpi, %s: %.3f (mean confidence %s)%n",
        what, accuracy, extraction.ocr().meanConfidence());
    assertTrue(
        accuracy >= 0.95, what + ": word accuracy " + accuracy + " on: " + extraction.text());
    List<ExtractionWarning> turned =
        extraction.warnings().stream()
            .filter(w -> w.code().equals(ExtractionWarning.OCR_ROTATED))
            .toList();
    assertEquals(1, turned.size(), what + ": " + extraction.warnings());
    assertEquals(List.of(1), turned.get(0).pages(), what);
    assertTrue(
        turned.get(0).message().contains(degrees + " degrees clockwise"),
        what + ": " + turned.get(0));
  }

  @Test
  void ocrOffForOneDocument_imageIsRefused_scanHasNoText(@TempDir Path dir) throws Exception {
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE));
    Path image = ScannedPages.pageImage(text, dir.resolve("page.png"), 100, "png");
    Path scan = ScannedPages.scannedCopy(text, dir.resolve("scan.pdf"), 100);
    ExtractionOptions off = new ExtractionOptions(null, null, OcrMode.OFF);

    ExtractionException refused =
        assertThrows(ExtractionException.class, () -> extractors.extractWith(image, off));
    assertEquals(Failure.UNSUPPORTED_MEDIA_TYPE, refused.failure());
    assertTrue(
        refused.getMessage().contains("optical character recognition"), refused.getMessage());
    assertEquals(
        Failure.NO_TEXT_EXTRACTED,
        assertThrows(ExtractionException.class, () -> extractors.extractWith(scan, off)).failure());
  }

  @Test
  void blankImage_hasNoText(@TempDir Path dir) throws IOException {
    Path blank = ScannedPages.blankPng(dir.resolve("blank.png"));
    assertEquals(
        Failure.NO_TEXT_EXTRACTED,
        assertThrows(
                ExtractionException.class,
                () -> extractors.extractWith(blank, ExtractionOptions.declared(null)))
            .failure());
  }

  @Test
  void textPdf_isNotRecognised(@TempDir Path dir) throws Exception {
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(ScannedPages.PAGE));
    Extraction extraction = extractors.extractWith(text, ExtractionOptions.declared(null));
    assertNull(extraction.ocr());
    assertNotNull(extraction.text());
    assertFalse(extraction.text().isBlank());
  }
}
