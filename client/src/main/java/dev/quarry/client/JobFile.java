package dev.quarry.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One file of a job upload: the file on disk (streamed when the upload is sent) and what the {@code
 * files} entry of the upload's {@code request} part records with it.
 *
 * @param mediaType declared; the bytes decide, and a disagreement is a warning in the file's
 *     receipt
 * @param ocr {@code auto} or {@code off} for this file alone, overriding the job's; null: the job's
 *     choice
 * @param ocrLanguages the Tesseract language data this file alone is recognised with, overriding
 *     the job's; null: the job's
 * @quarry.stable
 */
public record JobFile(
    Path path,
    String source,
    String title,
    Map<String, Object> metadata,
    String mediaType,
    String ocr,
    List<String> ocrLanguages) {
  /**
   * A file with the job's OCR languages, as the client described files before they could be chosen.
   */
  public JobFile(
      Path path,
      String source,
      String title,
      Map<String, Object> metadata,
      String mediaType,
      String ocr) {
    this(path, source, title, metadata, mediaType, ocr, null);
  }

  public static JobFile of(Path path, String source) {
    return new JobFile(path, source, null, null, null, null, null);
  }

  public JobFile withTitle(String t) {
    return new JobFile(path, source, t, metadata, mediaType, ocr, ocrLanguages);
  }

  public JobFile withMetadata(Map<String, Object> m) {
    return new JobFile(path, source, title, Map.copyOf(m), mediaType, ocr, ocrLanguages);
  }

  public JobFile withMediaType(String m) {
    return new JobFile(path, source, title, metadata, m, ocr, ocrLanguages);
  }

  /**
   * This file with its own OCR choice: {@code auto} (the server must advertise the feature {@code
   * ocr}, else the upload is refused) or {@code off}.
   */
  public JobFile withOcr(String mode) {
    return new JobFile(path, source, title, metadata, mediaType, mode, ocrLanguages);
  }

  /**
   * This file recognised with {@code languages} (Tesseract language data names, in order), over the
   * job's; null for the job's. Refused as {@link IngestRequest#withOcrLanguages} is, naming {@code
   * files[i].ocrLanguages[j]}.
   */
  public JobFile withOcrLanguages(List<String> languages) {
    return new JobFile(
        path,
        source,
        title,
        metadata,
        mediaType,
        ocr,
        languages == null ? null : List.copyOf(languages));
  }

  /** The {@code files} entry: exactly the contract's fields. */
  Entry entry() {
    return new Entry(source, title, metadata, mediaType, ocr, ocrLanguages);
  }

  record Entry(
      String source,
      String title,
      Map<String, Object> metadata,
      String mediaType,
      String ocr,
      List<String> ocrLanguages) {}
}
