package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException.Failure;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** With the PDF extractor switched off, PDFs are refused and every other format still works. */
class PdfSwitchTest {

  @Test
  void pdfDisabled_pdfIsUnavailable_othersExtract() throws ExtractionException {
    // Resolved outside assertThrows, which would take a skip for absent documents as a failure.
    Path pdf = SharedDocs.good("pdfjs__tracemonkey.pdf");
    Path pdfNamedDocx = SharedDocs.bad("gen__pdf-named.docx");
    try (Extractors extractors = Extractors.builder().workers(1).pdfEnabled(false).build()) {
      assertFalse(extractors.pdfEnabled());
      ExtractionException refused =
          assertThrows(ExtractionException.class, () -> extractors.extract(pdf, "application/pdf"));
      assertEquals(Failure.PDF_INGESTION_UNAVAILABLE, refused.failure());
      // Detected from the bytes: a PDF under another name is still a PDF.
      assertEquals(
          Failure.PDF_INGESTION_UNAVAILABLE,
          assertThrows(ExtractionException.class, () -> extractors.extract(pdfNamedDocx, null))
              .failure());
      assertTrue(
          extractors
              .extract(SharedDocs.good("docling__word_sample.docx"), null)
              .text()
              .contains("Swimming"));
    }
  }
}
