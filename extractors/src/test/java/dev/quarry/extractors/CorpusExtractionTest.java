package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException.Failure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every shared test document, through one pool of two workers: the good ones extract (or, for
 * scans, fail with NO_TEXT_EXTRACTED), the bad ones fail with the right typed error or are
 * recovered, and the pool still works afterwards. Each test reports every miss at once.
 */
class CorpusExtractionTest {

  /**
   * Good documents that do not extract, and why. Each is a limit of the libraries, checked here so
   * that a change in behaviour is noticed.
   */
  private static final Map<String, Failure> KNOWN_GOOD_FAILURES =
      Map.of(
          // The zip's central directory is one byte short and an entry's CRC is wrong: Tika and
          // java.util.zip both refuse it (unzip warns "missing 1 bytes in zipfile").
          "ocrmypdf__tagged.odt", Failure.EXTRACTION_FAILED,
          // PDFBox finds no Unicode mapping for this TrueType CID font; poppler reads 1,019
          // characters.
          "pdfjs__complex_ttf_font.pdf", Failure.NO_TEXT_EXTRACTED);

  private static final Set<Failure> ANY_DOCUMENT_FAILURE =
      EnumSet.of(
          Failure.UNSUPPORTED_MEDIA_TYPE,
          Failure.DOCUMENT_TOO_LARGE,
          Failure.EXTRACTION_FAILED,
          Failure.DOCUMENT_ENCRYPTED,
          Failure.NO_TEXT_EXTRACTED);

  private static Extractors extractors;

  @BeforeAll
  static void startPool() {
    extractors = Extractors.builder().workers(2).queueCapacity(64).build();
  }

  @AfterAll
  static void closePool() {
    if (extractors != null) {
      extractors.close();
    }
  }

  /** What happened to one document: an extraction or a failure. */
  private record Outcome(String file, Extraction extraction, ExtractionException failure) {
    String describe() {
      return extraction != null ? "extracted " + extraction : "failed " + failure;
    }
  }

  @Test
  void goodDocuments_allExtract_scansFailWithNoText() throws Exception {
    List<SharedDocs.Row> rows = SharedDocs.manifest("good");
    List<String> misses = new ArrayList<>();
    for (Outcome outcome : extractAll("good", rows)) {
      SharedDocs.Row row =
          rows.stream().filter(r -> r.file().equals(outcome.file())).findFirst().orElseThrow();
      List<String> labels = SharedDocs.labels(row);
      boolean imageOnly = labels.contains("image-only") || labels.contains("docx-image-only");
      Failure known = KNOWN_GOOD_FAILURES.get(outcome.file());
      if (known != null) {
        if (outcome.failure() == null || outcome.failure().failure() != known) {
          misses.add(outcome.file() + ": expected the known " + known + ", " + outcome.describe());
        }
      } else if (outcome.extraction() != null) {
        if (outcome.extraction().text().isBlank()) {
          misses.add(outcome.file() + ": blank text");
        }
      } else if (!(imageOnly && outcome.failure().failure() == Failure.NO_TEXT_EXTRACTED)) {
        misses.add(outcome.file() + ": " + outcome.describe());
      }
    }
    assertEquals(
        List.of(), misses, misses.size() + " of " + rows.size() + " good documents missed");
  }

  @Test
  void badDocuments_failTypedOrAreRecovered_andPoolStillWorks() throws Exception {
    List<SharedDocs.Row> rows = SharedDocs.manifest("bad");
    List<String> misses = new ArrayList<>();
    for (Outcome outcome : extractAll("bad", rows)) {
      SharedDocs.Row row =
          rows.stream().filter(r -> r.file().equals(outcome.file())).findFirst().orElseThrow();
      String miss = checkBad(outcome, row.column("hostile_class"));
      if (miss != null) {
        misses.add(outcome.file() + " (" + row.column("hostile_class") + "): " + miss);
      }
    }
    assertEquals(List.of(), misses, misses.size() + " of " + rows.size() + " bad documents missed");
    Extraction after =
        extractors.extract(SharedDocs.good("docling__bookmark_sample.pdf"), "application/pdf");
    assertTrue(
        after.text().contains("Termination"), "the pool extracts again after the bad documents");
  }

  /** Null when the outcome is right for the hostile class, else what is wrong. */
  private static String checkBad(Outcome outcome, String hostileClass) {
    Set<Failure> expected =
        switch (outcome.file()) {
          case "gen__zip-bomb-256MiB.docx", "gen__5000-pages.pdf" ->
              EnumSet.of(Failure.DOCUMENT_TOO_LARGE);
          case "gen__jpeg-named.pdf" -> EnumSet.of(Failure.UNSUPPORTED_MEDIA_TYPE);
          default ->
              switch (hostileClass) {
                case "encrypted-user-password", "encrypted-public-key", "encrypted-office" ->
                    EnumSet.of(Failure.DOCUMENT_ENCRYPTED);
                case "zero-byte" -> EnumSet.of(Failure.UNSUPPORTED_MEDIA_TYPE);
                case "truncated" -> EnumSet.of(Failure.EXTRACTION_FAILED);
                case "not-a-pdf", "binary-as-text", "malformed-encoding" ->
                    EnumSet.of(Failure.UNSUPPORTED_MEDIA_TYPE, Failure.EXTRACTION_FAILED);
                case "wrong-extension" -> null; // a valid document under another name: must extract
                default -> ANY_DOCUMENT_FAILURE; // recovered text is as welcome as a typed failure
              };
        };
    if (expected == null) {
      if (outcome.extraction() == null) {
        return "a valid document under a misleading name must extract, but " + outcome.describe();
      }
      boolean warned =
          outcome.extraction().warnings().stream()
              .anyMatch(w -> w.code().equals(ExtractionWarning.DECLARED_MEDIA_TYPE_MISMATCH));
      return warned ? null : "no DECLARED_MEDIA_TYPE_MISMATCH warning";
    }
    if (outcome.failure() != null) {
      String leak = libraryWords(outcome.failure().getMessage());
      if (leak != null) {
        return "the message a client reads holds " + leak + ": " + outcome.describe();
      }
      return expected.contains(outcome.failure().failure())
          ? null
          : "expected one of " + expected + ", " + outcome.describe();
    }
    boolean recoverable = expected == ANY_DOCUMENT_FAILURE;
    // Bytes that are plain text under a PDF name (a 5-byte "PDF") are read as the text they are.
    boolean textUnderPdfName =
        hostileClass.equals("not-a-pdf")
            && outcome.extraction().mediaType().equals("text/plain")
            && outcome.extraction().warnings().stream()
                .anyMatch(w -> w.code().equals(ExtractionWarning.DECLARED_MEDIA_TYPE_MISMATCH));
    return recoverable || textUnderPdfName
        ? null
        : "expected one of " + expected + ", " + outcome.describe();
  }

  /**
   * What in {@code message} is a library's or the system's words (class names, exception text), or
   * null.
   */
  static String libraryWords(String message) {
    for (String word :
        new String[] {"org.apache", "java.", "Exception", "TIKA-", "PDFBox", "COS", "@", "/tmp/"}) {
      if (message.contains(word)) {
        return "\"" + word + "\"";
      }
    }
    return null;
  }

  private static List<Outcome> extractAll(String folder, List<SharedDocs.Row> rows)
      throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (SharedDocs.Row row : rows) {
        Path file = SharedDocs.docs().resolve(folder).resolve(row.file());
        futures.add(
            callers.submit(
                () -> {
                  try {
                    // Named as an upload names them: the name is a hint the bytes may overrule.
                    return new Outcome(
                        row.file(),
                        extractors.extractWith(
                            file,
                            new ExtractionOptions(
                                SharedDocs.declaredType(row.file()), row.file(), null)),
                        null);
                  } catch (ExtractionException e) {
                    return new Outcome(row.file(), null, e);
                  }
                }));
      }
      List<Outcome> outcomes = new ArrayList<>();
      for (Future<Outcome> future : futures) {
        outcomes.add(future.get());
      }
      return Collections.unmodifiableList(outcomes);
    } finally {
      callers.shutdownNow();
    }
  }
}
