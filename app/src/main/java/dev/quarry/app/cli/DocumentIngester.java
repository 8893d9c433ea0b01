package dev.quarry.app.cli;

/**
 * Ingests one file into one corpus, over HTTP or in-process. Never throws for a bad document: every
 * failure is an {@link IngestOutcome}. Implementations are thread-safe.
 */
interface DocumentIngester extends AutoCloseable {

  /** Null when the corpus can be written to, else why not, starting with the error code. */
  String checkCorpus(String corpus);

  /**
   * Creates the corpus with default settings; null when done, else why not, starting with the error
   * code.
   */
  String createCorpus(String corpus);

  /**
   * Ingests {@code file} as its source; a file whose bytes the source already holds ({@code
   * sha256}) is reported {@code unchanged} without being sent or extracted again.
   */
  IngestOutcome ingest(String corpus, DocumentFiles.DocumentFile file, String sha256);

  @Override
  void close();
}
