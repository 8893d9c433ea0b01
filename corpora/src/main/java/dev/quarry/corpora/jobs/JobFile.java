package dev.quarry.corpora.jobs;

import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.SourceIds;
import java.util.List;

/**
 * What a client says of one file it sends to a job: the source it becomes and what is recorded with
 * it. The bytes come separately.
 *
 * @param title the source's title, or null for the document's own
 * @param metadata null for none
 * @param mediaType the declared media type, or null; the bytes decide
 * @param fileName the name the client gave the file, or null: a hint for detection, never
 *     overriding what the bytes prove (as on a single ingest)
 * @param ocr whether this file may be recognised by OCR, or null for the job's choice
 * @param ocrLanguages the Tesseract language data this file is recognised with, or null for the
 *     job's
 */
public record JobFile(
    String source,
    String title,
    Metadata metadata,
    String mediaType,
    String fileName,
    OcrChoice ocr,
    List<String> ocrLanguages) {
  public JobFile {
    SourceIds.check(source, "source");
    metadata = metadata == null ? Metadata.EMPTY : metadata;
    ocrLanguages = ocrLanguages == null ? null : List.copyOf(ocrLanguages);
  }

  /** A file with the job's OCR languages. */
  public JobFile(
      String source,
      String title,
      Metadata metadata,
      String mediaType,
      String fileName,
      OcrChoice ocr) {
    this(source, title, metadata, mediaType, fileName, ocr, null);
  }

  /**
   * A file without a name and without its own OCR choice, as a client lists it before its bytes
   * arrive.
   */
  public JobFile(String source, String title, Metadata metadata, String mediaType) {
    this(source, title, metadata, mediaType, null, null);
  }

  /** This file with the name its bytes arrived under. */
  JobFile withFileName(String name) {
    return new JobFile(source, title, metadata, mediaType, name, ocr, ocrLanguages);
  }

  /** This file with its own OCR choice ({@code null}: the job's). */
  public JobFile withOcr(OcrChoice mode) {
    return new JobFile(source, title, metadata, mediaType, fileName, mode, ocrLanguages);
  }

  /** This file with its own OCR languages ({@code null}: the job's). */
  public JobFile withOcrLanguages(List<String> languages) {
    return new JobFile(source, title, metadata, mediaType, fileName, ocr, languages);
  }

  /**
   * The OCR languages this file is recognised with: its own, else the job's; null for the server's.
   */
  List<String> ocrLanguagesWithin(List<String> jobLanguages) {
    return ocrLanguages != null ? ocrLanguages : jobLanguages;
  }

  /**
   * The OCR choice this file is extracted with: its own, else the job's {@code jobOcr}; null for
   * the server's setting.
   */
  OcrChoice ocrWithin(OcrChoice jobOcr) {
    return ocr != null ? ocr : jobOcr;
  }

  /**
   * The ingestion of this file into the job's corpus, which must still be {@code corpusId}, with
   * its own OCR choice, else the job's {@code jobOcr} (null: the server's setting), and its own OCR
   * languages, else the job's {@code jobLanguages} (null: the server's).
   */
  IngestRequest toRequest(String corpusId, OcrChoice jobOcr, List<String> jobLanguages) {
    return new IngestRequest(
        source,
        title,
        metadata,
        mediaType,
        null,
        corpusId,
        fileName,
        ocrWithin(jobOcr),
        ocrLanguagesWithin(jobLanguages));
  }
}
