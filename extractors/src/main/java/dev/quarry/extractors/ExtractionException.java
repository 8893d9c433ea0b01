package dev.quarry.extractors;

import java.util.Objects;

/**
 * A document could not be turned into text. The {@link Failure} is stable and names the
 * contract's error code; the message is for people and never carries a stack trace.
 */
public final class ExtractionException extends Exception {

  /** Why extraction failed. Each name is exactly an error code of the ingest contract. */
  public enum Failure {
    /** The bytes are of no type an extractor reads (random bytes, an empty file, an image). */
    UNSUPPORTED_MEDIA_TYPE,
    /** Over a limit: document bytes, pages, extracted characters, or a decompression bomb. */
    DOCUMENT_TOO_LARGE,
    /** A recognised but broken document, or a parser that ran out of time or memory. */
    EXTRACTION_FAILED,
    /** The document needs a password or a certificate to be read. */
    DOCUMENT_ENCRYPTED,
    /** The document was read but holds no text (for example a scanned PDF with OCR off). */
    NO_TEXT_EXTRACTED,
    /** The document is a PDF and the PDF extractor is switched off. */
    PDF_INGESTION_UNAVAILABLE,
    /** Every worker is busy and the wait queue is full; retrying later may succeed. */
    CAPACITY;

    /** Whether the same request may succeed when tried again later. */
    public boolean retryable() {
      return this == CAPACITY;
    }
  }

  private final Failure failure;

  public ExtractionException(Failure failure, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  /** The stable error code. */
  public Failure failure() {
    return failure;
  }

  @Override
  public String toString() {
    return failure + ": " + getMessage();
  }
}
