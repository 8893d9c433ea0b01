package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core extraction rules on documents the test writes itself, so they run on every clone (the
 * shared collection, when present, tests the same rules on real-world files).
 */
class MadeDocumentsTest {

  private static final Extractors extractors = TestExtractors.oneWorker();

  @Test
  void pdf_wordOnPageThree_landsInPageThree(@TempDir Path dir)
      throws IOException, ExtractionException {
    Path pdf =
        MadeDocuments.pdf(
            dir.resolve("agreement.pdf"),
            List.of(
                List.of("1. Parties", "The parties agree as follows."),
                List.of("2. Payment", "Invoices are paid within thirty days."),
                List.of("3. Termination", "Either party may end this agreement in writing.")));
    Extraction extraction = extractors.extract(pdf, "application/pdf");
    assertEquals(3, extraction.pages());
    assertEquals(Extraction.PDFBOX, extraction.extractor());
    int offset = extraction.text().indexOf("Termination");
    assertTrue(offset >= 0, extraction.text());
    assertEquals(3, extraction.pageOf(offset));
    assertTrue(extraction.pageText(2).contains("thirty days"), extraction.pageText(2));
    assertFalse(extraction.pageText(2).contains("Termination"));
  }

  @Test
  void pdf_onlyAnImage_withOcrOff_isNoTextExtracted_sayingSo(@TempDir Path dir) throws IOException {
    Path scan = MadeDocuments.scannedPdf(dir.resolve("scan.pdf"));
    ExtractionException failure =
        assertThrows(ExtractionException.class, () -> extractors.extract(scan, "application/pdf"));
    assertEquals(Failure.NO_TEXT_EXTRACTED, failure.failure());
    assertTrue(failure.getMessage().contains("OCR is off"), failure.getMessage());
  }

  @Test
  void pdf_withUserPassword_isDocumentEncrypted(@TempDir Path dir) throws IOException {
    Path locked = MadeDocuments.encryptedPdf(dir.resolve("locked.pdf"));
    ExtractionException failure =
        assertThrows(
            ExtractionException.class, () -> extractors.extract(locked, "application/pdf"));
    assertEquals(Failure.DOCUMENT_ENCRYPTED, failure.failure());
  }

  @Test
  void pdf_truncatedHalfway_failsTyped_andThePoolStillWorks(@TempDir Path dir)
      throws IOException, ExtractionException {
    Path whole =
        MadeDocuments.pdf(dir.resolve("whole.pdf"), List.of(List.of("Travel is booked by train.")));
    byte[] bytes = Files.readAllBytes(whole);
    Path half =
        Files.write(dir.resolve("half.pdf"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    ExtractionException failure =
        assertThrows(ExtractionException.class, () -> extractors.extract(half, "application/pdf"));
    assertTrue(
        failure.getMessage().length() < 500, "a message for people, not a stack trace: " + failure);
    assertTrue(extractors.extract(whole, "application/pdf").text().contains("booked by train"));
  }
}
