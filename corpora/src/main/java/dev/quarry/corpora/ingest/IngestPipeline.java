package dev.quarry.corpora.ingest;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import dev.quarry.engine.SourceOperation;
import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.OcrReport;
import dev.quarry.extractors.ocr.OcrMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a document file into the engine's index operation: hashes the bytes, extracts the text in
 * the extractors' worker pool, and carries what extraction said into an {@link IngestReport}.
 * Nothing is written here; the caller applies the operation, so a failed extraction changes
 * nothing.
 *
 * <p>Thread-safe; one per {@code Corpora}. It does not own the {@link Extractors}: whoever built
 * them closes them.
 */
public final class IngestPipeline {
  /** A document title longer than this is a parser's accident (a whole paragraph), not a title. */
  static final int MAX_DOCUMENT_TITLE_CHARS = 1000;

  private final Extractors extractors;

  /**
   * Idempotency keys whose document is being extracted, so a second request with one waits its
   * turn.
   */
  private final Set<String> keysExtracting = ConcurrentHashMap.newKeySet();

  public IngestPipeline(Extractors extractors) {
    this.extractors = Objects.requireNonNull(extractors, "extractors");
  }

  /** Whether PDFs are extracted; when not, they fail with PDF_INGESTION_UNAVAILABLE. */
  public boolean pdfEnabled() {
    return extractors.pdfEnabled();
  }

  /**
   * The names in {@code languages} whose Tesseract data this server lacks (all of them without
   * OCR).
   */
  public List<String> missingOcrLanguages(List<String> languages) {
    return extractors.missingOcrLanguages(languages);
  }

  /** Whether images and PDF pages without a text layer are recognised (OCR on, Tesseract found). */
  public boolean ocrAvailable() {
    return extractors.ocrAvailable();
  }

  /** The bounds each document is held to. */
  public ExtractionLimits limits() {
    return extractors.limits();
  }

  /**
   * Marks {@code key} (already scoped to its subject and corpus) as being extracted, or fails with
   * IDEMPOTENCY_IN_PROGRESS when it already is. Close the returned claim when done.
   */
  public KeyClaim claim(String key) {
    if (key == null) {
      return () -> {};
    }
    if (!keysExtracting.add(key)) {
      throw new QuarryException(
          ErrorCode.IDEMPOTENCY_IN_PROGRESS,
          "a request with this Idempotency-Key is still being ingested; retry shortly");
    }
    return () -> keysExtracting.remove(key);
  }

  /** A held idempotency key; closing releases it. */
  @FunctionalInterface
  public interface KeyClaim extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * The index operation for {@code file}: the extracted text, its page starts, the media type
   * detected from the bytes, the SHA-256 of the bytes and the extraction report.
   *
   * @throws QuarryException with the extraction failure's code (UNSUPPORTED_MEDIA_TYPE,
   *     DOCUMENT_TOO_LARGE, EXTRACTION_FAILED, DOCUMENT_ENCRYPTED, NO_TEXT_EXTRACTED,
   *     PDF_INGESTION_UNAVAILABLE, CAPACITY), or UNAVAILABLE when the file cannot be read
   */
  public SourceOperation.Index prepare(IngestRequest request, Path file) {
    String sha256 = sha256Hex(file);
    if (request.ocr() == OcrChoice.AUTO && !extractors.ocrAvailable()) {
      throw QuarryException.invalid(
          "ocr",
          "this server does not offer OCR (feature 'ocr' is not advertised);"
              + " leave ocr out or set it to 'off'");
    }
    OcrLanguages.requireInstalled(
        request.ocrLanguages(),
        "ocrLanguages",
        extractors.ocrAvailable(),
        extractors::missingOcrLanguages);
    Extraction extraction;
    try {
      extraction =
          extractors.extractWith(
              file,
              new ExtractionOptions(
                  request.mediaType(),
                  request.fileName(),
                  modeOf(request.ocr()),
                  request.ocrLanguages()));
    } catch (ExtractionException e) {
      throw new QuarryException(codeOf(e.failure()), e.getMessage());
    } catch (IllegalStateException e) {
      // The extractors were closed under us: the service is shutting down.
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "document extraction is shutting down; retry later", e);
    }
    String title = request.title() != null ? request.title() : blankToNull(extraction.title());
    return new SourceOperation.Index(
        request.source(),
        title,
        extraction.text(),
        null,
        extraction.mediaType(),
        request.metadata(),
        request.expectedRevision(),
        extraction.pageStarts(),
        sha256,
        report(extraction),
        null,
        tables(extraction));
  }

  /** Where the extraction's tables lie in its text: each is chunked apart, between its rows. */
  static List<SourceOperation.Table> tables(Extraction extraction) {
    List<SourceOperation.Table> out = new ArrayList<>(extraction.tables().size());
    for (ExtractedTable t : extraction.tables()) {
      if (!t.rowStarts().isEmpty() && t.end() > t.start()) {
        out.add(new SourceOperation.Table(t.start(), t.end(), t.rowStarts()));
      }
    }
    return out;
  }

  /** The extractors' mode for a caller's OCR choice; null (the server's setting) stays null. */
  static OcrMode modeOf(OcrChoice choice) {
    if (choice == null) {
      return null;
    }
    return switch (choice) {
      case AUTO -> OcrMode.AUTO;
      case OFF -> OcrMode.OFF;
    };
  }

  /** Each extraction failure is the same-named error code of the contract. */
  static ErrorCode codeOf(ExtractionException.Failure failure) {
    return switch (failure) {
      case UNSUPPORTED_MEDIA_TYPE -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
      case DOCUMENT_TOO_LARGE -> ErrorCode.DOCUMENT_TOO_LARGE;
      case EXTRACTION_FAILED -> ErrorCode.EXTRACTION_FAILED;
      case DOCUMENT_ENCRYPTED -> ErrorCode.DOCUMENT_ENCRYPTED;
      case NO_TEXT_EXTRACTED -> ErrorCode.NO_TEXT_EXTRACTED;
      case PDF_INGESTION_UNAVAILABLE -> ErrorCode.PDF_INGESTION_UNAVAILABLE;
      case CAPACITY -> ErrorCode.CAPACITY;
    };
  }

  static IngestReport report(Extraction extraction) {
    List<IngestReport.Warning> warnings = new ArrayList<>(extraction.warnings().size());
    for (ExtractionWarning w : extraction.warnings()) {
      warnings.add(
          new IngestReport.Warning(w.code(), w.message(), w.pages().isEmpty() ? null : w.pages()));
    }
    OcrReport ocr = extraction.ocr();
    return new IngestReport(
        extraction.extractor(),
        extraction.mediaType(),
        extraction.pages(),
        extraction.characters(),
        warnings,
        extraction.markdownHeadings(),
        extraction.encoding(),
        ocr == null
            ? null
            : new IngestReport.Ocr(ocr.pagesRecognized(), ocr.meanConfidence(), ocr.words()));
  }

  /** Lowercase hex SHA-256 of the file's bytes: the source's {@code contentSha256}. */
  public static String sha256Hex(Path file) {
    try {
      return Sha256.ofFile(file);
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "the uploaded document could not be read back", e);
    }
  }

  /** A document's own title, when it is usable as the source's: not blank, not absurdly long. */
  private static String blankToNull(String s) {
    return s == null || s.isBlank() || s.length() > MAX_DOCUMENT_TITLE_CHARS ? null : s.strip();
  }
}
