package dev.quarry.extractors;

import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ocr.OcrMode;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.extractors.worker.WorkerCommand;
import dev.quarry.extractors.worker.WorkerPool;
import dev.quarry.extractors.worker.WorkerRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns document files into text, away from the caller's heap: every document is parsed in one of a
 * small pool of worker processes, each with its own heap cap and a per-document deadline. A
 * document that hangs a parser or exhausts its memory costs its worker (killed and replaced) and
 * fails with a typed {@link ExtractionException}; the caller carries on.
 *
 * <pre>{@code
 * try (Extractors extractors = Extractors.builder().build()) {
 *   Extraction extraction = extractors.extract(file, "application/pdf");
 *   String text = extraction.text();
 * }
 * }</pre>
 *
 * <p>Thread safe: share one instance; up to {@code workers} documents are extracted at once and up
 * to {@code queueCapacity} more wait. Whoever builds it closes it, which ends the workers.
 *
 * @quarry.stable
 */
public final class Extractors implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Extractors.class);

  /** Two workers: extraction is CPU-bound and the engine needs cores of its own. */
  public static final int DEFAULT_WORKERS = 2;

  /** 512 MiB per worker: enough for the large PDFs seen; larger needs are hostile. */
  public static final int DEFAULT_WORKER_HEAP_MIB = 512;

  /** Sixteen documents may wait for a worker before callers are told to come back later. */
  public static final int DEFAULT_QUEUE_CAPACITY = 16;

  /** The Tesseract language data OCR reads with unless told otherwise: English. */
  public static final List<String> DEFAULT_OCR_LANGUAGES = List.of(Tesseract.LANGUAGE);

  /**
   * Refuses an empty list or a name that cannot be Tesseract language data ({@code eng}, {@code
   * deu}, {@code chi_sim}); whether it is installed is checked when OCR starts.
   *
   * @throws IllegalArgumentException naming the first bad name
   */
  public static void checkOcrLanguages(List<String> languages) {
    Tesseract.checkLanguages(languages);
  }

  private final ExtractionLimits limits;
  private final boolean pdfEnabled;

  /** Whether OCR was asked for and Tesseract with English data answered at build time. */
  private final boolean ocrAvailable;

  /** Whether recognition turns pages lying sideways or upside down upright first. */
  private final boolean detectOrientation;

  /** The language data recognition reads with unless a document names its own. */
  private final List<String> ocrLanguages;

  /** The language data Tesseract has, asked once at build time; empty without OCR. */
  private final Set<String> installedOcrLanguages;

  private final WorkerPool pool;

  private Extractors(Builder builder) {
    this.limits = builder.getLimits();
    this.pdfEnabled = builder.getPdfEnabled();
    this.ocrAvailable = builder.getOcr() == OcrMode.AUTO && Tesseract.onPath().available();
    this.detectOrientation = builder.getDetectOrientation();
    this.ocrLanguages = builder.getOcrLanguages();
    this.installedOcrLanguages =
        ocrAvailable ? Set.copyOf(Tesseract.onPath().installedData()) : Set.of();
    if (ocrAvailable) {
      // OCR is on and Tesseract runs: a language it cannot read is a mistake to say now, not a
      // failure of every scanned document later.
      List<String> missing = missingOcrLanguages(ocrLanguages);
      if (!missing.isEmpty()) {
        throw new IllegalArgumentException(
            "ocrLanguages: tesseract has no language data '"
                + missing.get(0)
                + "' (Debian: install tesseract-ocr-"
                + missing.get(0).replace('_', '-')
                + ")");
      }
    }
    WorkerCommand command =
        (builder.command != null
                ? builder.command
                : WorkerCommand.ofCurrentJvm(builder.getWorkerHeapMiB()))
            .withClassArchive(builder.classArchive);
    this.pool = new WorkerPool(command, builder.getWorkers(), builder.getQueueCapacity());
  }

  /**
   * The names in {@code languages} these extractors cannot recognise with: those whose Tesseract
   * data is not installed (as Tesseract answered at build time), or all of them without OCR.
   */
  public List<String> missingOcrLanguages(List<String> languages) {
    return languages.stream().filter(l -> !installedOcrLanguages.contains(l)).toList();
  }

  /** A builder with the default limits, two workers of 512 MiB, and PDF extraction on. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Extracts {@code file} within this instance's limits.
   *
   * @param declaredMediaType the media type the caller was told, or null; the bytes decide, and a
   *     disagreeing declaration becomes a {@code DECLARED_MEDIA_TYPE_MISMATCH} warning
   * @throws ExtractionException with the failure that names the contract's error code
   * @throws IllegalStateException when closed
   */
  public Extraction extract(Path file, String declaredMediaType) throws ExtractionException {
    return extractWith(file, ExtractionOptions.declared(declaredMediaType), limits);
  }

  /** Extracts {@code file} within {@code limits} instead of this instance's own. */
  public Extraction extract(Path file, String declaredMediaType, ExtractionLimits limits)
      throws ExtractionException {
    return extractWith(file, ExtractionOptions.declared(declaredMediaType), limits);
  }

  /**
   * Extracts {@code file} with what the caller knows of it (declared media type, file name, OCR)
   * within this instance's limits.
   *
   * @throws IllegalArgumentException when {@code options} asks for OCR and {@link #ocrAvailable()}
   *     is false
   */
  public Extraction extractWith(Path file, ExtractionOptions options) throws ExtractionException {
    return extractWith(file, options, limits);
  }

  /**
   * Extracts {@code file} with {@code options} within {@code limits} instead of this instance's
   * own.
   */
  public Extraction extractWith(Path file, ExtractionOptions options, ExtractionLimits limits)
      throws ExtractionException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(limits, "limits");
    if (options.ocr() == OcrMode.AUTO && !ocrAvailable) {
      throw new IllegalArgumentException("OCR was asked for but these extractors do not offer it");
    }
    boolean ocr = options.ocr() == null ? ocrAvailable : options.ocr() == OcrMode.AUTO;
    List<String> languages = options.ocrLanguages() == null ? ocrLanguages : options.ocrLanguages();
    if (ocr && !missingOcrLanguages(languages).isEmpty()) {
      throw new IllegalArgumentException(
          "OCR language data '"
              + missingOcrLanguages(languages).get(0)
              + "' was asked for but is not installed");
    }
    long size;
    try {
      size = Files.size(file);
    } catch (NoSuchFileException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file does not exist.");
    } catch (IOException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file could not be read.");
    }
    if (size > limits.maxDocumentBytes()) {
      throw new ExtractionException(
          Failure.DOCUMENT_TOO_LARGE,
          "The document has "
              + size
              + " bytes, more than the limit of "
              + limits.maxDocumentBytes()
              + " (maxDocumentBytes).");
    }
    if (size == 0) {
      throw new ExtractionException(Failure.UNSUPPORTED_MEDIA_TYPE, "The file is empty.");
    }
    WorkerRequest request =
        new WorkerRequest(
            file.toAbsolutePath().toString(),
            options.declaredMediaType(),
            limits.maxDocumentPages(),
            limits.maxExtractedChars(),
            pdfEnabled,
            options.fileName(),
            ocr,
            detectOrientation,
            limits.timeout().toMillis(),
            languages);
    try {
      return pool.extract(request, limits.timeout());
    } catch (ExtractionException e) {
      if (e.detail() != null) {
        // The client reads the message; what the parser said is for the operator (the host's
        // logging context, such as a request id, is this thread's).
        LOG.info("extraction failed with {} ({}): {}", e.failure(), e.getMessage(), e.detail());
      }
      throw e;
    }
  }

  /** Whether PDFs are extracted; when not, they fail with {@code PDF_INGESTION_UNAVAILABLE}. */
  public boolean pdfEnabled() {
    return pdfEnabled;
  }

  /**
   * Whether images and PDF pages without a text layer are recognised: OCR was switched on ({@link
   * Builder#ocr(OcrMode)}) and the {@code tesseract} command with English data was found.
   */
  public boolean ocrAvailable() {
    return ocrAvailable;
  }

  /**
   * Whether recognition detects each page's orientation and reads a page scanned sideways or upside
   * down upright ({@link Builder#detectOrientation(boolean)}).
   */
  public boolean detectsOrientation() {
    return detectOrientation;
  }

  /** The limits {@link #extract(Path, String)} applies. */
  public ExtractionLimits limits() {
    return limits;
  }

  /** Expert: how busy the extraction pool is now, for metrics. Cheap: a few counters. */
  public ExtractionPoolState poolState() {
    return new ExtractionPoolState(
        pool.size(), pool.busyCount(), pool.waitingCount(), pool.refusedCount());
  }

  /** Ends the worker processes; extractions still running fail. */
  @Override
  public void close() {
    pool.close();
  }

  /** The pool, for tests of the isolation in this module. */
  WorkerPool pool() {
    return pool;
  }

  /**
   * Configures {@link Extractors}. Each option may be set once; a second call fails, naming the
   * value already set.
   */
  public static final class Builder {
    /** An option not set yet: its getter gives the default (as Caffeine's builder does). */
    static final int UNSET_INT = -1;

    private ExtractionLimits limits;
    private int workers = UNSET_INT;
    private int workerHeapMiB = UNSET_INT;
    private int queueCapacity = UNSET_INT;
    private Boolean pdfEnabled;
    private OcrMode ocr;
    private Boolean detectOrientation;
    private List<String> ocrLanguages;
    private WorkerCommand command;
    private Path classArchive;

    private Builder() {}

    /** The limits each document is held to; default {@link ExtractionLimits#defaults()}. */
    public Builder limits(ExtractionLimits limits) {
      requireState(this.limits == null, "limits was already set to %s", this.limits);
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** How many worker processes extract at once; default {@value #DEFAULT_WORKERS}. */
    public Builder workers(int workers) {
      requireState(this.workers == UNSET_INT, "workers was already set to %s", this.workers);
      requireArgument(workers >= 1, "workers must be at least 1, got %s", workers);
      this.workers = workers;
      return this;
    }

    /** Each worker's maximum heap in MiB; default {@value #DEFAULT_WORKER_HEAP_MIB}. */
    public Builder workerHeapMiB(int heapMiB) {
      requireState(
          this.workerHeapMiB == UNSET_INT,
          "workerHeapMiB was already set to %s",
          this.workerHeapMiB);
      requireArgument(heapMiB >= 64, "workerHeapMiB must be at least 64, got %s", heapMiB);
      this.workerHeapMiB = heapMiB;
      return this;
    }

    /**
     * How many documents may wait for a busy pool before {@code CAPACITY} is raised; default
     * {@value #DEFAULT_QUEUE_CAPACITY}. Zero refuses whenever every worker is busy.
     */
    public Builder queueCapacity(int queueCapacity) {
      requireState(
          this.queueCapacity == UNSET_INT,
          "queueCapacity was already set to %s",
          this.queueCapacity);
      requireArgument(
          queueCapacity >= 0, "queueCapacity must be at least 0, got %s", queueCapacity);
      this.queueCapacity = queueCapacity;
      return this;
    }

    /** Whether PDFs are extracted; default true. */
    public Builder pdfEnabled(boolean enabled) {
      requireState(this.pdfEnabled == null, "pdfEnabled was already set to %s", this.pdfEnabled);
      this.pdfEnabled = enabled;
      return this;
    }

    /**
     * Whether images and PDF pages without a text layer are recognised with Tesseract; default
     * {@link OcrMode#OFF}. {@link OcrMode#AUTO} needs the {@code tesseract} command with English
     * language data on the PATH; without it OCR stays off ({@link Extractors#ocrAvailable()}).
     */
    public Builder ocr(OcrMode mode) {
      requireState(this.ocr == null, "ocr was already set to %s", this.ocr);
      this.ocr = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Whether recognition detects each page's orientation first, so that a page scanned sideways or
     * upside down is read upright (warning {@code OCR_ROTATED}); default true. It costs about 0.2
     * to 0.5 CPU-seconds more on every recognised page, upright or not: false reads every page as
     * it lies, for collections known to be scanned upright.
     */
    public Builder detectOrientation(boolean detect) {
      requireState(
          this.detectOrientation == null,
          "detectOrientation was already set to %s",
          this.detectOrientation);
      this.detectOrientation = detect;
      return this;
    }

    /**
     * The Tesseract language data recognition reads with, in order of preference (Debian's {@code
     * tesseract-ocr-deu} installs {@code deu}); default {@code eng}. With OCR on and Tesseract
     * installed, {@link #build()} refuses a language whose data is not installed.
     *
     * @throws IllegalArgumentException when the list is empty or a name is not a language data name
     */
    public Builder ocrLanguages(List<String> languages) {
      requireState(
          this.ocrLanguages == null, "ocrLanguages was already set to %s", this.ocrLanguages);
      Tesseract.checkLanguages(languages);
      this.ocrLanguages = List.copyOf(languages);
      return this;
    }

    List<String> getOcrLanguages() {
      return ocrLanguages == null ? List.of(Tesseract.LANGUAGE) : ocrLanguages;
    }

    boolean getDetectOrientation() {
      return detectOrientation == null || detectOrientation;
    }

    OcrMode getOcr() {
      return ocr == null ? OcrMode.OFF : ocr;
    }

    ExtractionLimits getLimits() {
      return limits == null ? ExtractionLimits.defaults() : limits;
    }

    int getWorkers() {
      return workers == UNSET_INT ? DEFAULT_WORKERS : workers;
    }

    int getWorkerHeapMiB() {
      return workerHeapMiB == UNSET_INT ? DEFAULT_WORKER_HEAP_MIB : workerHeapMiB;
    }

    int getQueueCapacity() {
      return queueCapacity == UNSET_INT ? DEFAULT_QUEUE_CAPACITY : queueCapacity;
    }

    boolean getPdfEnabled() {
      return pdfEnabled == null || pdfEnabled;
    }

    /**
     * Expert: the java binary and class path workers run with, for hosts whose own class path does
     * not hold this module's dependencies (the default is the running JVM's). The heap is {@link
     * #workerHeapMiB(int)}'s.
     */
    public Builder workerCommand(String javaBinary, String classPath) {
      requireState(command == null, "workerCommand was already set to %s", command);
      this.command = new WorkerCommand(javaBinary, classPath, getWorkerHeapMiB());
      return this;
    }

    /**
     * Expert: a class-data archive file the workers share, so that each starts in about half the
     * CPU time (see {@link WorkerCommand}); written by the first worker to exit, in a folder this
     * process may write and no other user may; default none.
     */
    public Builder workerClassArchive(Path file) {
      requireState(classArchive == null, "workerClassArchive was already set to %s", classArchive);
      this.classArchive = Objects.requireNonNull(file, "file");
      return this;
    }

    public Extractors build() {
      if (command != null && command.heapMiB() != getWorkerHeapMiB()) {
        command = new WorkerCommand(command.javaBinary(), command.classPath(), getWorkerHeapMiB());
      }
      return new Extractors(this);
    }

    private static void requireState(boolean expression, String template, Object value) {
      if (!expression) {
        throw new IllegalStateException(String.format(template, value));
      }
    }

    private static void requireArgument(boolean expression, String template, Object value) {
      if (!expression) {
        throw new IllegalArgumentException(String.format(template, value));
      }
    }
  }
}
