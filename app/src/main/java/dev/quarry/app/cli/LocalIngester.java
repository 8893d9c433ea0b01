package dev.quarry.app.cli;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ocr.OcrMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

/**
 * Ingests straight into a data folder with {@code Corpora} in this process, as a local caller with
 * every grant. The folder is locked while open: no server may hold it at the same time.
 */
final class LocalIngester implements DocumentIngester {
  private static final Access LOCAL =
      new Access("local", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));

  private final Extractors extractors;
  private final Corpora corpora;

  /** Each request's OCR choice, the same as the extractors' mode (null: theirs, off). */
  private final OcrChoice ocr;

  /** Each request's OCR language data, or null for the extractors' (English). */
  private final List<String> ocrLanguages;

  /**
   * @param workers extraction worker processes
   * @param ocr {@link OcrMode#AUTO} to recognise images and PDF pages without a text layer, else
   *     (off, or null) never
   * @param ocrLanguages the Tesseract language data to read with, checked names, or null for
   *     English
   * @throws QuarryException when the data folder cannot be opened (another process holds it), or
   *     OCR is asked for and Tesseract with English data (or with a language asked for) is not
   *     installed
   */
  LocalIngester(Path data, int workers, OcrMode ocr, List<String> ocrLanguages) {
    this.ocr = ocr == null ? null : OcrChoice.fromWireName(ocr.wireName());
    this.ocrLanguages = ocrLanguages;
    this.extractors =
        Extractors.builder().workers(workers).ocr(ocr == null ? OcrMode.OFF : ocr).build();
    try {
      if (ocr == OcrMode.AUTO && !extractors.ocrAvailable()) {
        throw QuarryException.invalid(
            "ocr",
            "--ocr auto needs the tesseract command with English language data"
                + " (Debian: tesseract-ocr tesseract-ocr-eng); it was not found");
      }
      List<String> missing =
          ocrLanguages == null ? List.of() : extractors.missingOcrLanguages(ocrLanguages);
      if (!missing.isEmpty()) {
        throw QuarryException.invalid(
            "ocr-languages",
            "--ocr-languages: Tesseract has no language data '"
                + missing.get(0)
                + "' here (Debian: tesseract-ocr-"
                + missing.get(0).replace('_', '-')
                + ")");
      }
      // The shipped models, as the server runs them: an embedding corpus embeds what is ingested
      // here.
      this.corpora =
          Corpora.builder()
              .dataDir(data)
              .extractors(extractors)
              .engineConfig(EngineConfig.builder().embeddingModels(Models.all()).build())
              .build();
    } catch (RuntimeException e) {
      extractors.close();
      throw e;
    }
  }

  @Override
  public String checkCorpus(String corpus) {
    try {
      corpora.readCorpus(LOCAL, corpus);
      return null;
    } catch (QuarryException e) {
      return e.code() + ": " + e.getMessage();
    }
  }

  @Override
  public String createCorpus(String corpus) {
    try {
      corpora.createCorpus(LOCAL, corpus, null);
      return null;
    } catch (QuarryException e) {
      return e.code() + ": " + e.getMessage();
    }
  }

  @Override
  public IngestOutcome ingest(String corpus, DocumentFiles.DocumentFile file, String sha256) {
    try {
      if (holds(corpus, file.source(), sha256)) {
        return IngestOutcome.of(IngestOutcome.UNCHANGED);
      }
      // The file's name is the same detection hint an upload's part name is (a .md that opens with
      // a comment).
      IngestRequest request =
          new IngestRequest(
              file.source(),
              null,
              null,
              file.declaredMediaType(),
              null,
              null,
              file.path().getFileName().toString(),
              ocr,
              ocrLanguages);
      MutationResult result = corpora.ingest(LOCAL, corpus, request, file.path(), null);
      IngestReport report = result.single().ingest();
      return IngestOutcome.of(
          result.single().status().wireName(),
          RecognitionReport.of(report),
          DecodingReport.of(report == null ? null : report.encoding()));
    } catch (QuarryException e) {
      return IngestOutcome.failed(e.code().name(), e.getMessage());
    }
  }

  private boolean holds(String corpus, String source, String sha256) {
    try {
      return sha256.equals(corpora.readSource(LOCAL, corpus, source).state().contentSha256());
    } catch (QuarryException e) {
      if (e.code() == ErrorCode.SOURCE_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      corpora.close();
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "closing the data folder failed: " + e.getMessage(), e);
    } finally {
      extractors.close();
    }
  }
}
