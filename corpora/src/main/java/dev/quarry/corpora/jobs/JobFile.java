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
 */
public record JobFile(String source, String title, Metadata metadata, String mediaType, String fileName, OcrChoice ocr) {
  public JobFile {
    SourceIds.check(source, "source");
    metadata = metadata == null ? Metadata.EMPTY : metadata;
  }

  /** A file without a name and without its own OCR choice, as a client lists it before its bytes arrive. */
  public JobFile(String source, String title, Metadata metadata, String mediaType) {
    this(source, title, metadata, mediaType, null, null);
  }

  /** This file with the name its bytes arrived under. */
  JobFile withFileName(String name) {
    return new JobFile(source, title, metadata, mediaType, name, ocr);
  }

  /** This file with its own OCR choice ({@code null}: the job's). */
  public JobFile withOcr(OcrChoice mode) {
    return new JobFile(source, title, metadata, mediaType, fileName, mode);
  }

  /** The OCR choice this file is extracted with: its own, else the job's {@code jobOcr}; null for the server's setting. */
  OcrChoice ocrWithin(OcrChoice jobOcr) {
    return ocr != null ? ocr : jobOcr;
  }

  /**
   * The ingestion of this file into the job's corpus, which must still be {@code corpusId}, with
   * its own OCR choice, else the job's {@code jobOcr} (null: the server's setting), and the job's
   * OCR languages {@code jobLanguages} (null: the server's).
   */
  IngestRequest toRequest(String corpusId, OcrChoice jobOcr, List<String> jobLanguages) {
    return new IngestRequest(source, title, metadata, mediaType, null, corpusId, fileName, ocrWithin(jobOcr),
        jobLanguages);
  }
}
