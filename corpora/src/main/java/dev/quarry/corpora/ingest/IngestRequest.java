package dev.quarry.corpora.ingest;

import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceIds;
import java.util.List;

/**
 * What a caller asks of one document ingestion, besides the document's bytes: where it goes and
 * what to record with it.
 *
 * @param source the source id the document becomes
 * @param title the source's title, or null to use the document's own title (PDF info, Office
 *     properties, HTML title) when it has one
 * @param metadata the source's metadata; null means none
 * @param mediaType the media type the caller declares, or null; the bytes decide, and a declaration
 *     that disagrees becomes a warning
 * @param expectedRevision optimistic concurrency on the source (0: must not exist yet), or null
 * @param expectedCorpusId the corpusId the caller expects (CORPUS_REPLACED otherwise), or null
 * @param fileName the uploaded file's name, or null: a hint for detection where the bytes cannot
 *     tell (Markdown, text in a legacy charset), never stronger than the bytes
 * @param ocr whether the document may be recognised by OCR, or null for the server's setting
 * @param ocrLanguages the Tesseract language data it is recognised with, in order, or null for the
 *     server's {@code extraction.ocrLanguages}
 */
public record IngestRequest(
    String source,
    String title,
    Metadata metadata,
    String mediaType,
    Long expectedRevision,
    String expectedCorpusId,
    String fileName,
    OcrChoice ocr,
    List<String> ocrLanguages) {

  /** A request with the server's OCR languages. */
  public IngestRequest(
      String source,
      String title,
      Metadata metadata,
      String mediaType,
      Long expectedRevision,
      String expectedCorpusId,
      String fileName,
      OcrChoice ocr) {
    this(
        source,
        title,
        metadata,
        mediaType,
        expectedRevision,
        expectedCorpusId,
        fileName,
        ocr,
        null);
  }

  /** A request without a file name, with the server's OCR setting. */
  public IngestRequest(
      String source,
      String title,
      Metadata metadata,
      String mediaType,
      Long expectedRevision,
      String expectedCorpusId) {
    this(source, title, metadata, mediaType, expectedRevision, expectedCorpusId, null, null);
  }

  public IngestRequest {
    SourceIds.checkNew(source, "source");
    metadata = metadata == null ? Metadata.EMPTY : metadata;
    ocrLanguages = OcrLanguages.check(ocrLanguages, "ocrLanguages");
    if (expectedRevision != null && expectedRevision < 0) {
      throw QuarryException.invalid(
          "expectedRevision", "expectedRevision must be 0 or more; got " + expectedRevision);
    }
  }

  /** A request for {@code source} with nothing else set. */
  public static IngestRequest of(String source) {
    return new IngestRequest(source, null, null, null, null, null);
  }
}
