package dev.quarry.client;

import java.util.List;

/**
 * A mutation's receipt: the exact corpus, source and revision, sent once the change is durable and
 * visible to search. Ingest receipts add what extraction found.
 *
 * @param status {@code indexed}, {@code unchanged}, {@code deleted} or {@code absent}
 * @param encoding the charset an ingested plain text or Markdown file was decoded from, as the
 *     server names it ({@code UTF-8}, or a legacy one it detected: {@code windows-1252}, {@code
 *     IBM866}, {@code IBM500}, ...); null on other receipts (the server sends none)
 * @param ocr what optical character recognition did, on an ingest receipt whose document had pages
 *     or frames recognised; null otherwise (the server sends none)
 * @param warnings what extraction warns of; those of recognition are also in {@link #ocrWarnings()}
 * @param language the language an indexed source is analysed in ({@code german}; in an auto corpus
 *     its detected one, {@code standard} when detection was not confident); null on a delete's
 *     receipt (and from an older server)
 * @quarry.stable
 */
public record Receipt(
    String corpus,
    String corpusId,
    String source,
    long revision,
    long sourceRevision,
    String status,
    String contentSha256,
    Integer chunks,
    String mediaType,
    String extractor,
    Integer pages,
    Long characters,
    String encoding,
    Ocr ocr,
    List<Warning> warnings,
    String language) {
  /** A receipt that does not say a language (the shape before languages were returned). */
  public Receipt(
      String corpus,
      String corpusId,
      String source,
      long revision,
      long sourceRevision,
      String status,
      String contentSha256,
      Integer chunks,
      String mediaType,
      String extractor,
      Integer pages,
      Long characters,
      String encoding,
      Ocr ocr,
      List<Warning> warnings) {
    this(
        corpus,
        corpusId,
        source,
        revision,
        sourceRevision,
        status,
        contentSha256,
        chunks,
        mediaType,
        extractor,
        pages,
        characters,
        encoding,
        ocr,
        warnings,
        null);
  }

  /** The prefix of the warning codes recognition gives ({@code OCR_LOW_CONFIDENCE}, ...). */
  public static final String OCR_WARNING_PREFIX = "OCR_";

  /**
   * The warnings of optical character recognition: pages read with low confidence ({@code
   * OCR_LOW_CONFIDENCE}), not read ({@code OCR_FAILED}), or read upright after lying turned ({@code
   * OCR_ROTATED}); empty when there are none.
   */
  public List<Warning> ocrWarnings() {
    return warnings == null
        ? List.of()
        : warnings.stream()
            .filter(w -> w.code() != null && w.code().startsWith(OCR_WARNING_PREFIX))
            .toList();
  }

  /**
   * What optical character recognition did for one ingested document (the wire's {@code ocr}).
   *
   * @param pagesRecognized pages (PDF pages without a text layer, or the frames of an image)
   *     recognised; at least 1
   * @param meanConfidence Tesseract's mean word confidence over those pages, 0 to 100; null when no
   *     word was found
   * @param words words recognised
   */
  public record Ocr(int pagesRecognized, Double meanConfidence, int words) {}

  /** An extraction warning ({@code NO_TEXT_LAYER}, ...), with the pages it concerns when known. */
  public record Warning(String code, String message, List<Integer> pages) {}
}
