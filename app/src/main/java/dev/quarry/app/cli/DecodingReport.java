package dev.quarry.app.cli;

import java.io.PrintWriter;
import java.util.Objects;

/**
 * The legacy charset an ingested text file was decoded from, as {@code quarry ingest} prints it on
 * stdout before its closing table ({@code encoding SOURCE: IBM866}), so that a guessed charset can
 * be checked. UTF-8 and US-ASCII, what text is expected to be, are not reported.
 *
 * @param encoding the charset's name as the extraction report gives it
 */
record DecodingReport(String encoding) {
  DecodingReport {
    Objects.requireNonNull(encoding, "encoding");
  }

  /**
   * The report of a file decoded from {@code encoding}, or null when it is absent, UTF-8 or
   * US-ASCII.
   */
  static DecodingReport of(String encoding) {
    if (encoding == null
        || encoding.equalsIgnoreCase("UTF-8")
        || encoding.equalsIgnoreCase("US-ASCII")) {
      return null;
    }
    return new DecodingReport(encoding);
  }

  /** Prints {@code encoding SOURCE: CHARSET}. */
  void print(String source, PrintWriter out) {
    out.println("encoding " + source + ": " + encoding);
  }
}
