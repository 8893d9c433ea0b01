package dev.quarry.extractors;

import java.util.Objects;

/**
 * A document could not be turned into text. The {@link Failure} is stable and names the contract's
 * error code; the message is for the client that sent the document and never carries a stack trace,
 * a library's words, a class name or a path. What a parser said, when anything, is the {@link
 * #detail()}, for the operator's log only.
 *
 * @quarry.stable
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
  private final String detail;

  public ExtractionException(Failure failure, String message) {
    this(failure, message, null);
  }

  /**
   * @param detail what the parser or the system said (exception classes and text), for the log;
   *     null when the message says all
   */
  public ExtractionException(Failure failure, String message, String detail) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.failure = Objects.requireNonNull(failure, "failure");
    this.detail = detail;
  }

  /**
   * What the parser or the system said, for the operator's log; never for a client, since it may
   * hold a library's class names, its messages or paths of the server. Null when there is none.
   */
  public String detail() {
    return detail;
  }

  /** The chain of {@code cause}'s classes and messages, one line, bounded: a {@link #detail()}. */
  public static String describe(Throwable cause) {
    StringBuilder chain = new StringBuilder();
    int depth = 0;
    for (Throwable t = cause;
        t != null && depth < 5;
        t = t.getCause() == t ? null : t.getCause(), depth++) {
      if (chain.length() > 0) {
        chain.append(" <- ");
      }
      chain.append(t.getClass().getName());
      if (t.getMessage() != null) {
        chain.append(": ").append(t.getMessage().lines().findFirst().orElse("").strip());
      }
    }
    return chain.length() > 1000 ? chain.substring(0, 1000) + "..." : chain.toString();
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
