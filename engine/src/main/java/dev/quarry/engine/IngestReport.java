package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * What extraction said about an ingested document; stored with the source and echoed in its
 * receipt.
 *
 * @param extractor the extractor that produced the text, e.g. {@code pdfbox} or {@code tika}
 * @param mediaType the media type detected from the document's bytes, or null when not recorded
 * @param pages the document's page count, or null when the format has no pages
 * @param characters extracted characters
 * @param markdownHeadings true when the extractor rendered the document's headings as Markdown ATX
 *     lines ({@code # Title}): the text is then chunked as Markdown, whatever the document's own
 *     media type (a DOCX stays {@code application/vnd...document} on the wire)
 * @param encoding the charset plain text was decoded from (e.g. {@code UTF-8}, {@code IBM500}), or
 *     null for formats that carry their own
 * @param ocr what optical character recognition did, or null when it recognised no page
 * @quarry.stable
 */
public record IngestReport(
    String extractor,
    String mediaType,
    Integer pages,
    long characters,
    List<Warning> warnings,
    boolean markdownHeadings,
    String encoding,
    Ocr ocr) {
  public IngestReport {
    Objects.requireNonNull(extractor, "extractor");
    warnings = List.copyOf(warnings == null ? List.of() : warnings);
  }

  /** A report of a document read without a charset of its own and without OCR. */
  public IngestReport(
      String extractor,
      String mediaType,
      Integer pages,
      long characters,
      List<Warning> warnings,
      boolean markdownHeadings) {
    this(extractor, mediaType, pages, characters, warnings, markdownHeadings, null, null);
  }

  /** A report without a recorded media type, of text without Markdown headings. */
  public IngestReport(String extractor, Integer pages, long characters, List<Warning> warnings) {
    this(extractor, null, pages, characters, warnings, false);
  }

  /**
   * What optical character recognition did for a document.
   *
   * @param pagesRecognized pages (or image frames) recognised
   * @param meanConfidence mean word confidence, 0 to 100, or null when no word was found
   * @param words words recognised
   */
  public record Ocr(int pagesRecognized, Double meanConfidence, int words) {}

  /**
   * One extraction warning, such as pages without a text layer or a declared type that disagreed.
   */
  public record Warning(String code, String message, List<Integer> pages) {
    public Warning {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
      pages = pages == null ? null : List.copyOf(pages);
    }
  }
}
