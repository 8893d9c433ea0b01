package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * What extraction said about an ingested document; stored with the source and echoed in its receipt.
 *
 * @param extractor the extractor that produced the text, e.g. {@code pdfbox} or {@code tika}
 * @param pages the document's page count, or null when the format has no pages
 * @param characters extracted characters
 */
public record IngestReport(String extractor, Integer pages, long characters, List<Warning> warnings) {
  public IngestReport {
    Objects.requireNonNull(extractor, "extractor");
    warnings = List.copyOf(warnings == null ? List.of() : warnings);
  }

  /** One extraction warning, such as pages without a text layer or a declared type that disagreed. */
  public record Warning(String code, String message, List<Integer> pages) {
    public Warning {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
      pages = pages == null ? null : List.copyOf(pages);
    }
  }
}
