package dev.quarry.app.server;

import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ocr.OcrMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The standalone server's extraction pool, from the {@code extraction} key of its configuration:
 * how many worker processes parse documents, each one's heap, and how many documents may wait. The
 * per-document bounds come from {@code limits} ({@code maxDocumentBytes}, {@code maxDocumentPages},
 * {@code maxExtractedChars}, {@code extractionTimeoutMillis}), so what {@code /v1/protocol}
 * advertises is what the workers enforce.
 *
 * <p>{@code ocr} ({@code auto} or {@code off}, default off) switches on optical character
 * recognition of images and of PDF pages without a text layer; it takes effect only where the
 * {@code tesseract} command with English data is installed, and the feature {@code ocr} is
 * advertised only then. {@code ocrDetectOrientation} (default true) has recognition turn pages
 * scanned sideways or upside down upright first; false reads every page as it lies, saving the
 * detection's cost on every page of collections known to be scanned upright. {@code ocrLanguages}
 * (default {@code ["eng"]}) is the Tesseract language data recognition reads with; with OCR on and
 * Tesseract installed, the server does not start when one is not installed.
 */
public record ExtractionSettings(
    int workers,
    int workerHeapMiB,
    int queueCapacity,
    OcrMode ocr,
    boolean ocrDetectOrientation,
    List<String> ocrLanguages) {
  public static final ExtractionSettings DEFAULT =
      new ExtractionSettings(
          Extractors.DEFAULT_WORKERS,
          Extractors.DEFAULT_WORKER_HEAP_MIB,
          Extractors.DEFAULT_QUEUE_CAPACITY,
          OcrMode.OFF);

  /** Settings without OCR. */
  public ExtractionSettings(int workers, int workerHeapMiB, int queueCapacity) {
    this(workers, workerHeapMiB, queueCapacity, OcrMode.OFF);
  }

  /** Settings whose OCR, when on, detects orientation. */
  public ExtractionSettings(int workers, int workerHeapMiB, int queueCapacity, OcrMode ocr) {
    this(workers, workerHeapMiB, queueCapacity, ocr, true);
  }

  /** Settings whose OCR, when on, reads English. */
  public ExtractionSettings(
      int workers,
      int workerHeapMiB,
      int queueCapacity,
      OcrMode ocr,
      boolean ocrDetectOrientation) {
    this(
        workers,
        workerHeapMiB,
        queueCapacity,
        ocr,
        ocrDetectOrientation,
        Extractors.DEFAULT_OCR_LANGUAGES);
  }

  public ExtractionSettings {
    ocr = ocr == null ? OcrMode.OFF : ocr;
    ocrLanguages = List.copyOf(ocrLanguages);
  }

  /**
   * The system property naming a folder where extraction workers keep their class-data archive (the
   * launcher sets it; see {@link Extractors.Builder#workerClassArchive}).
   */
  public static final String CLASS_ARCHIVES_PROPERTY = "quarry.classArchives";

  /** Starts nothing yet: workers start with the first document. The caller closes the result. */
  public Extractors build(Limits limits, boolean pdfEnabled) {
    Extractors.Builder builder = Extractors.builder();
    String archives = System.getProperty(CLASS_ARCHIVES_PROPERTY);
    if (archives != null && !archives.isBlank()) {
      try {
        builder.workerClassArchive(
            Files.createDirectories(Path.of(archives)).resolve("extraction-worker.jsa"));
      } catch (IOException e) {
        // Workers start without the archive: slower, never wrong.
      }
    }
    return builder
        .workers(workers)
        .workerHeapMiB(workerHeapMiB)
        .queueCapacity(queueCapacity)
        .limits(extractionLimits(limits))
        .pdfEnabled(pdfEnabled)
        .ocr(ocr)
        .detectOrientation(ocrDetectOrientation)
        .ocrLanguages(ocrLanguages)
        .build();
  }

  /** The extractors' bounds from the advertised limits. */
  static ExtractionLimits extractionLimits(Limits limits) {
    return new ExtractionLimits(
        limits.get(Limit.MAX_DOCUMENT_BYTES),
        limits.getInt(Limit.MAX_DOCUMENT_PAGES),
        limits.getInt(Limit.MAX_EXTRACTED_CHARS),
        Duration.ofMillis(limits.get(Limit.EXTRACTION_TIMEOUT_MILLIS)));
  }
}
