package dev.quarry.extractors.inflation;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One document's inflated bytes, counted part by part against the bounds of a decompression bomb: a
 * part (a zip entry, a PDF stream) may inflate to {@link #MAX_RATIO} times its compressed size, or
 * to {@link #RATIO_APPLIES_ABOVE_BYTES} whatever its ratio, and all parts together to {@link
 * #MAX_TOTAL_BYTES}. The same bounds for every format, so that the limits a user reads in the docs
 * are one set.
 *
 * <p>Not thread safe: one per document checked.
 */
public final class InflationBudget {

  /** A part that inflates to more than this many times its compressed size is a bomb... */
  public static final long MAX_RATIO = 100;

  /**
   * ...once it is this large. Smaller parts compress very well for honest reasons (a vector image
   * of a few MB in a real DOCX inflates 129 times; PDF content streams 3 to 10 times); the
   * character budget and the worker's heap cap catch the rest.
   */
  public static final long RATIO_APPLIES_ABOVE_BYTES = 32L << 20;

  /**
   * The most all parts of a document may inflate to: an Office file's XML is a few times its text.
   */
  public static final long MAX_TOTAL_BYTES = 1L << 30;

  private long total;

  /** The most a part of {@code compressed} bytes (unknown: 0 or less) may inflate to. */
  public static long partBound(long compressed) {
    return Math.max(RATIO_APPLIES_ABOVE_BYTES, compressed > 0 ? MAX_RATIO * compressed : 0);
  }

  /**
   * Starts counting a part of {@code compressed} bytes (unknown: 0 or less); it adds to the total.
   */
  public Part part(long compressed) {
    return new Part(partBound(compressed), true);
  }

  /**
   * Starts counting an intermediate stage of a part of {@code compressed} bytes (what one filter of
   * a chain hands the next): bound as the part, not added to the total, which counts what the part
   * finally inflates to.
   */
  public Part stage(long compressed) {
    return new Part(partBound(compressed), false);
  }

  /** The bytes counted so far by the parts. */
  public long total() {
    return total;
  }

  /** Whether the parts together have inflated past {@link #MAX_TOTAL_BYTES}. */
  public boolean totalExceeded() {
    return total > MAX_TOTAL_BYTES;
  }

  /**
   * The failure a bomb is refused with; {@code why} completes "The document is a decompression
   * bomb: ".
   */
  public static ExtractionException bomb(String why) {
    return new ExtractionException(
        Failure.DOCUMENT_TOO_LARGE, "The document is a decompression bomb: " + why + ".");
  }

  /** The inflated bytes of one part. */
  public final class Part {
    private final long bound;
    private final boolean addsToTotal;
    private long size;

    private Part(long bound, boolean addsToTotal) {
      this.bound = bound;
      this.addsToTotal = addsToTotal;
    }

    /**
     * Counts {@code n} more bytes; whether the part and the document are still within their bounds.
     */
    public boolean add(long n) {
      size += n;
      if (addsToTotal) {
        total += n;
      }
      return !exceeded() && !totalExceeded();
    }

    /** Whether this part has inflated past its own bound. */
    public boolean exceeded() {
      return size > bound;
    }

    /** The most this part may inflate to. */
    public long bound() {
      return bound;
    }

    /**
     * {@code sink}, counting what is written through it, and failing every write once a bound is
     * passed so that a decoder stops at once. Decoders may swallow what a write throws: ask {@link
     * #exceeded()} and {@link #totalExceeded()} after.
     */
    public OutputStream counting(OutputStream sink) {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          count(1);
          sink.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          count(len);
          sink.write(b, off, len);
        }

        private void count(int n) throws IOException {
          if (!add(n)) {
            throw new IOException("decoded past its bound");
          }
        }
      };
    }
  }
}
