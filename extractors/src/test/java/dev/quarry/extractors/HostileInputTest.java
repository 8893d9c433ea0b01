package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile input fails with the right typed error, and the pool keeps working after each. */
class HostileInputTest {

  private static final Extractors extractors = TestExtractors.oneWorker();

  private static Failure failureOf(Path file, String declared) {
    return failureOf(file, declared, extractors.limits());
  }

  private static Failure failureOf(Path file, String declared, ExtractionLimits limits) {
    return assertThrows(ExtractionException.class, () -> extractors.extract(file, declared, limits))
        .failure();
  }

  private static void assertPoolStillWorks() throws ExtractionException {
    Extraction extraction =
        extractors.extract(SharedDocs.good("pdfjs__copy_paste_ligatures.pdf"), "application/pdf");
    assertTrue(extraction.text().contains("abcdef"), "the next document extracts");
  }

  @Test
  void extract_zeroBytes_isUnsupportedMediaType() {
    assertEquals(
        Failure.UNSUPPORTED_MEDIA_TYPE,
        failureOf(SharedDocs.bad("gen__zero-byte.pdf"), "application/pdf"));
  }

  @Test
  void extract_randomBytesNamedPdf_isUnsupportedMediaType() {
    assertEquals(
        Failure.UNSUPPORTED_MEDIA_TYPE,
        failureOf(SharedDocs.bad("gen__random-bytes.pdf"), "application/pdf"));
  }

  @Test
  void extract_truncatedPdf_isExtractionFailed() {
    assertEquals(
        Failure.EXTRACTION_FAILED,
        failureOf(SharedDocs.bad("gen__truncated50__pdfjs__tracemonkey.pdf"), "application/pdf"));
  }

  @Test
  void extract_damagedDocuments_failWithAMessageForClients_namingTheFormat() {
    // A zip entry with a wrong CRC: Tika's words were "TIKA-198: Illegal IOException from
    // org.apache.tika.parser.odf.OpenDocumentParser@edd25d2".
    // Looked up first: without the shared documents the test skips instead of failing inside
    // assertThrows.
    Path damagedOdt = SharedDocs.good("ocrmypdf__tagged.odt");
    ExtractionException odt =
        assertThrows(ExtractionException.class, () -> extractors.extract(damagedOdt, null));
    assertEquals(Failure.EXTRACTION_FAILED, odt.failure());
    assertTrue(odt.getMessage().contains("OpenDocument text"), odt.getMessage());
    assertEquals(null, CorpusExtractionTest.libraryWords(odt.getMessage()), odt.getMessage());
    assertTrue(
        odt.detail() != null && odt.detail().contains("Exception"),
        "the cause is kept for the log: " + odt.detail());
    for (String pdf :
        new String[] {"qpdf__bad1.pdf", "pdfbox__MissingCatalog.pdf", "qpdf__damaged-stream.pdf"}) {
      try {
        extractors.extract(SharedDocs.bad(pdf), "application/pdf");
      } catch (ExtractionException typed) {
        assertEquals(
            null, CorpusExtractionTest.libraryWords(typed.getMessage()), pdf + ": " + typed);
      }
    }
  }

  @Test
  void extract_userPasswordPdf_isDocumentEncrypted() {
    assertEquals(
        Failure.DOCUMENT_ENCRYPTED,
        failureOf(SharedDocs.bad("pdfbox__PasswordSample-256bit.pdf"), "application/pdf"));
  }

  @Test
  void extract_passwordProtectedDocx_isDocumentEncrypted() {
    assertEquals(
        Failure.DOCUMENT_ENCRYPTED,
        failureOf(SharedDocs.bad("tika__testWORD_protected_passtika.docx"), null));
  }

  @Test
  void extract_ownerPasswordOnlyPdf_isRead() throws ExtractionException {
    Extraction extraction =
        extractors.extract(SharedDocs.good("pdfminer__kampo.pdf"), "application/pdf");
    assertTrue(
        extraction.characters() > 1000, "an owner password restricts nothing a reader needs");
  }

  @Test
  void extract_zipBomb_isDocumentTooLarge() throws ExtractionException {
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE, failureOf(SharedDocs.bad("gen__zip-bomb-256MiB.docx"), null));
    assertPoolStillWorks();
  }

  @Test
  void extract_fiveThousandPages_isDocumentTooLarge() throws ExtractionException {
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE,
        failureOf(SharedDocs.bad("gen__5000-pages.pdf"), "application/pdf"));
    assertPoolStillWorks();
  }

  @Test
  void extract_deeplyNestedDocuments_failTypedOrSucceed() throws ExtractionException {
    for (String file :
        new String[] {
          "gen__deep-nested-array.pdf",
          "gen__deep-nested-dict.pdf",
          "gen__deep-nested-html.html",
          "gen__deep-nested-rtf.rtf"
        }) {
      try {
        extractors.extract(SharedDocs.bad(file), null);
      } catch (ExtractionException typed) {
        assertTrue(
            typed.getMessage().length() < 500, "a message for people, not a stack trace: " + typed);
      }
    }
    assertPoolStillWorks();
  }

  @Test
  void extract_moreCharactersThanTheLimit_isDocumentTooLarge() {
    ExtractionLimits limits = extractors.limits().withMaxExtractedChars(1_000);
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE,
        failureOf(SharedDocs.good("pdfjs__tracemonkey.pdf"), "application/pdf", limits));
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE,
        failureOf(
            SharedDocs.good("docling__word_sample.docx"), null, limits.withMaxExtractedChars(100)));
  }

  @Test
  void extract_morePagesThanTheLimit_isDocumentTooLarge() {
    ExtractionLimits limits = extractors.limits().withMaxDocumentPages(3);
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE,
        failureOf(SharedDocs.good("pdfjs__tracemonkey.pdf"), "application/pdf", limits));
  }

  @Test
  void extract_moreBytesThanTheLimit_isDocumentTooLarge() {
    ExtractionLimits limits = extractors.limits().withMaxDocumentBytes(1_000);
    assertEquals(
        Failure.DOCUMENT_TOO_LARGE,
        failureOf(SharedDocs.good("pdfjs__tracemonkey.pdf"), "application/pdf", limits));
  }

  @Test
  void extract_pastTheDeadline_isExtractionFailed_andTheNextDocumentSucceeds()
      throws ExtractionException {
    ExtractionLimits limits = extractors.limits().withTimeout(Duration.ofMillis(1));
    Path book = SharedDocs.good("pdfjs__freeculture.pdf");
    ExtractionException timedOut =
        assertThrows(
            ExtractionException.class, () -> extractors.extract(book, "application/pdf", limits));
    assertEquals(Failure.EXTRACTION_FAILED, timedOut.failure());
    assertTrue(timedOut.getMessage().contains("time limit"), timedOut.getMessage());
    assertPoolStillWorks();
  }

  @Test
  void extract_memoryBomb_isExtractionFailed_andTheNextDocumentSucceeds()
      throws ExtractionException {
    Path bomb = SharedDocs.bad("pdfjs__bomb_giant.pdf");
    ExtractionException outOfMemory =
        assertThrows(ExtractionException.class, () -> extractors.extract(bomb, "application/pdf"));
    assertEquals(Failure.EXTRACTION_FAILED, outOfMemory.failure());
    assertTrue(outOfMemory.getMessage().contains("memory"), outOfMemory.getMessage());
    assertPoolStillWorks();
  }

  @Test
  void extract_markdownOfInvalidUtf8_failsTyped() {
    assertEquals(
        Failure.UNSUPPORTED_MEDIA_TYPE,
        failureOf(SharedDocs.bad("gen__invalid-utf8.md"), "text/markdown"));
  }

  @Test
  void extract_textWithAFewInvalidBytes_isReadWithAWarning(@TempDir Path dir)
      throws IOException, ExtractionException {
    Path file = dir.resolve("notes.md");
    byte[] text =
        "# Notes\n\nThe caf\u00e9 opens at nine. The museum opens at ten.\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] damaged = java.util.Arrays.copyOf(text, text.length + 2);
    damaged[text.length] = (byte) 0xC3; // a lead byte without its continuation
    damaged[text.length + 1] = '\n';
    Files.write(file, damaged);
    Extraction extraction = extractors.extract(file, "text/markdown");
    assertTrue(extraction.text().contains("caf\u00e9 opens"), extraction.text());
    assertTrue(
        extraction.warnings().stream()
            .anyMatch(w -> w.code().equals(ExtractionWarning.INVALID_ENCODING)),
        extraction.warnings().toString());
  }

  @Test
  void extract_missingFile_isExtractionFailed(@TempDir Path dir) {
    assertEquals(
        Failure.EXTRACTION_FAILED, failureOf(dir.resolve("absent.pdf"), "application/pdf"));
  }
}
