package dev.quarry.extractors.worker;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.detect.DocumentKind;
import dev.quarry.extractors.detect.MediaTypeDetector;
import dev.quarry.extractors.ocr.ImageExtractor;
import dev.quarry.extractors.ocr.Recognizer;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.extractors.pdf.PdfExtractor;
import dev.quarry.extractors.text.PlainTextExtractor;
import dev.quarry.extractors.tika.HtmlFragments;
import dev.quarry.extractors.tika.TikaExtractor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.tika.config.TikaConfig;

/**
 * Inside a worker: detects a document's media type from its bytes and hands it to the extractor for
 * that type, adding a warning when the declared type disagrees.
 *
 * <p>Built once per worker process; not shared between threads.
 */
final class ExtractionRouter {

  private final MediaTypeDetector detector;
  private final PdfExtractor pdf = new PdfExtractor();
  private final TikaExtractor tika;
  private final PlainTextExtractor plainText = new PlainTextExtractor(HtmlFragments::render);
  private final ImageExtractor image = new ImageExtractor();
  private final Tesseract tesseract = Tesseract.onPath();

  ExtractionRouter() {
    TikaConfig config = TikaConfig.getDefaultConfig();
    this.detector = new MediaTypeDetector(config);
    this.tika = new TikaExtractor(config);
  }

  Extraction extract(WorkerRequest request) throws ExtractionException {
    // Started before anything is read, so recognition ends before the parent's deadline does.
    Duration budget = Duration.ofMillis(request.timeoutMillis());
    Recognizer recognizer =
        request.ocr()
            ? new Recognizer(
                tesseract
                    .detectingOrientation(request.detectOrientation())
                    .withLanguages(request.ocrLanguages()),
                budget)
            : null;
    Path file = Path.of(request.file());
    // The parent has checked the size and enforces the deadline; only pages and characters
    // can be checked while parsing.
    ExtractionLimits limits =
        new ExtractionLimits(
            Long.MAX_VALUE,
            request.maxDocumentPages(),
            request.maxExtractedChars(),
            Duration.ofDays(1));
    String detected;
    try {
      detected = detector.detect(file, request.fileName());
    } catch (IOException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file could not be read.");
    }
    String mediaType = detector.refine(detected, request.declaredMediaType(), request.fileName());
    Extraction extraction =
        switch (detector.kindOf(mediaType)) {
          case PDF -> {
            if (!request.pdfEnabled()) {
              throw new ExtractionException(
                  Failure.PDF_INGESTION_UNAVAILABLE,
                  "The document is a PDF and PDF extraction is switched off.");
            }
            yield pdf.extract(file, limits, recognizer);
          }
          case IMAGE -> {
            if (recognizer == null) {
              throw new ExtractionException(
                  Failure.UNSUPPORTED_MEDIA_TYPE,
                  "The document is an image ("
                      + mediaType
                      + "); its text can only be read by optical character recognition, which is off.");
            }
            yield image.extract(file, mediaType, recognizer, limits);
          }
          case MARKDOWN -> plainText.extract(file, mediaType, true, limits);
          case PLAIN_TEXT -> plainText.extract(file, mediaType, false, limits);
          case TIKA -> tika.extract(file, mediaType, limits);
          case ENCRYPTED ->
              throw new ExtractionException(
                  Failure.DOCUMENT_ENCRYPTED,
                  "The document is encrypted and needs a password to be opened.");
          case UNSUPPORTED -> {
            DocumentKind declaredKind = declaredTextKind(request.declaredMediaType());
            if (declaredKind == null) {
              declaredKind = declaredTextKind(detector.typeOfName(request.fileName()));
            }
            if (detected.equals("application/octet-stream") && declaredKind != null) {
              // Bytes in a charset no magic recognises (EBCDIC, say) may still be the declared or
              // named text.
              String declared =
                  declaredKind == DocumentKind.MARKDOWN ? "text/markdown" : "text/plain";
              yield plainText.extractDeclared(
                  file, declared, declaredKind == DocumentKind.MARKDOWN, limits);
            }
            throw new ExtractionException(
                Failure.UNSUPPORTED_MEDIA_TYPE,
                "No extractor reads these bytes (detected as " + mediaType + ").");
          }
        };
    return withMismatchWarning(extraction, request.declaredMediaType(), extraction.mediaType());
  }

  private DocumentKind declaredTextKind(String declared) {
    if (declared == null) {
      return null;
    }
    DocumentKind kind = detector.kindOf(declared.trim().toLowerCase(Locale.ROOT));
    return kind == DocumentKind.PLAIN_TEXT || kind == DocumentKind.MARKDOWN ? kind : null;
  }

  private Extraction withMismatchWarning(Extraction extraction, String declared, String detected) {
    if (declared == null || !detector.disagrees(declared, detected)) {
      return extraction;
    }
    List<ExtractionWarning> warnings = new ArrayList<>(extraction.warnings());
    warnings.add(
        new ExtractionWarning(
            ExtractionWarning.DECLARED_MEDIA_TYPE_MISMATCH,
            "The declared media type "
                + declared
                + " disagrees with the bytes, which are "
                + detected
                + "; the bytes were trusted."));
    return extraction.withWarnings(warnings);
  }
}
