package dev.quarry.client;

import java.net.http.HttpRequest;
import java.util.List;

/**
 * One {@code POST /v1/retrieval/jobs/upload} or {@code jobs/submit}: a {@code multipart/form-data}
 * body of the {@code request} JSON, then one {@code file} part per entry of its {@code files}, each
 * streamed from disk when the body is sent (never held in memory) and named by its file name (a
 * hint for detecting its type). Every file is checked to be a readable regular file before a byte
 * is sent, so a missing one fails here, not halfway through the upload.
 */
final class JobUpload {
  private JobUpload() {}

  /** The upload's request part: an open job's files, and whether to close it after them. */
  record Upload(String job, List<JobFile.Entry> files, Boolean close) {}

  /** The submit's request part: a job created, filled and closed at once. */
  record Submit(
      String corpus,
      String corpusId,
      String ocr,
      List<String> ocrLanguages,
      List<JobFile.Entry> files) {}

  static Job upload(Transport transport, String job, List<JobFile> files, boolean close) {
    return send(
        transport,
        "v1/retrieval/jobs/upload",
        new Upload(job, entries(files), close ? Boolean.TRUE : null),
        files);
  }

  static Job submit(
      Transport transport,
      String corpus,
      String corpusId,
      String ocr,
      List<String> ocrLanguages,
      List<JobFile> files) {
    return send(
        transport,
        "v1/retrieval/jobs/submit",
        new Submit(corpus, corpusId, ocr, ocrLanguages, entries(files)),
        files);
  }

  private static List<JobFile.Entry> entries(List<JobFile> files) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("an upload needs at least one file");
    }
    return files.stream().map(JobFile::entry).toList();
  }

  private static Job send(Transport transport, String path, Object request, List<JobFile> files) {
    List<MultipartIngest.FileBytes> bytes =
        files.stream().map(f -> MultipartIngest.FileBytes.of(f.path())).toList();
    HttpRequest http = MultipartIngest.post(transport, path, request, bytes).build();
    return Transport.read(Transport.json(transport.send(http)).path("job"), Job.class);
  }
}
