package dev.quarry.extractors;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on one document's extraction. Exceeding the byte, page or character bound fails the
 * document with {@link ExtractionException.Failure#DOCUMENT_TOO_LARGE}; text is never silently
 * truncated. Exceeding the timeout fails it with {@link
 * ExtractionException.Failure#EXTRACTION_FAILED} and costs the worker that held it.
 *
 * @param maxDocumentBytes largest file accepted, checked before any parsing
 * @param maxDocumentPages most pages (PDF pages, slides, sheets), checked before pages are read
 * @param maxExtractedChars most characters of text; extraction stops as soon as it is passed
 * @param timeout wall-clock time one document may take in a worker
 * @quarry.stable
 */
public record ExtractionLimits(
    long maxDocumentBytes, int maxDocumentPages, int maxExtractedChars, Duration timeout) {

  /** 64 MiB: the contract's advertised {@code maxDocumentBytes}; larger uploads are rare. */
  public static final long DEFAULT_MAX_DOCUMENT_BYTES = 64L << 20;

  /** 2,000 pages: books fit; a generated 5,000-page file does not. */
  public static final int DEFAULT_MAX_DOCUMENT_PAGES = 2_000;

  /**
   * 20 million characters: about 40 MB of UTF-16, which bounds the caller's memory per document.
   */
  public static final int DEFAULT_MAX_EXTRACTED_CHARS = 20_000_000;

  /** 60 s: a 350-page book takes a few seconds; a minute means the parser is stuck. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public ExtractionLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (maxDocumentBytes < 1) {
      throw new IllegalArgumentException(
          "maxDocumentBytes must be at least 1, got " + maxDocumentBytes);
    }
    if (maxDocumentPages < 1) {
      throw new IllegalArgumentException(
          "maxDocumentPages must be at least 1, got " + maxDocumentPages);
    }
    if (maxExtractedChars < 1) {
      throw new IllegalArgumentException(
          "maxExtractedChars must be at least 1, got " + maxExtractedChars);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** The default limits. */
  public static ExtractionLimits defaults() {
    return new ExtractionLimits(
        DEFAULT_MAX_DOCUMENT_BYTES,
        DEFAULT_MAX_DOCUMENT_PAGES,
        DEFAULT_MAX_EXTRACTED_CHARS,
        DEFAULT_TIMEOUT);
  }

  public ExtractionLimits withMaxDocumentBytes(long value) {
    return new ExtractionLimits(value, maxDocumentPages, maxExtractedChars, timeout);
  }

  public ExtractionLimits withMaxDocumentPages(int value) {
    return new ExtractionLimits(maxDocumentBytes, value, maxExtractedChars, timeout);
  }

  public ExtractionLimits withMaxExtractedChars(int value) {
    return new ExtractionLimits(maxDocumentBytes, maxDocumentPages, value, timeout);
  }

  public ExtractionLimits withTimeout(Duration value) {
    return new ExtractionLimits(maxDocumentBytes, maxDocumentPages, maxExtractedChars, value);
  }
}
