package dev.quarry.app.cli;

import java.io.PrintWriter;
import java.util.Objects;

/**
 * What became of one file: {@code indexed} or {@code unchanged}, or failed with an error code and a
 * message.
 *
 * @param status {@code indexed}, {@code unchanged} or {@code failed}
 * @param code the error code when failed (a contract code, or {@code UNREADABLE}, {@code
 *     UNREACHABLE}), else null
 * @param ocr what recognition did for the file, when its extraction recognised pages; else null
 * @param decoding the legacy charset the file's text was decoded from; else null
 */
record IngestOutcome(
    String status, String code, String message, RecognitionReport ocr, DecodingReport decoding) {
  static final String INDEXED = "indexed";
  static final String UNCHANGED = "unchanged";
  static final String FAILED = "failed";

  IngestOutcome {
    Objects.requireNonNull(status, "status");
  }

  static IngestOutcome of(String status) {
    return new IngestOutcome(status, null, null, null, null);
  }

  static IngestOutcome of(String status, RecognitionReport ocr, DecodingReport decoding) {
    return new IngestOutcome(status, null, null, ocr, decoding);
  }

  static IngestOutcome failed(String code, String message) {
    return new IngestOutcome(FAILED, code, message, null, null);
  }

  /**
   * Prints what extraction reported of the file ({@code source}): its legacy charset, its
   * recognition.
   */
  void printReports(String source, PrintWriter out) {
    if (decoding != null) {
      decoding.print(source, out);
    }
    if (ocr != null) {
      ocr.print(source, out);
    }
  }

  boolean isFailure() {
    return FAILED.equals(status);
  }
}
